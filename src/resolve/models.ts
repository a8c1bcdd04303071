// Routines name their model and branch (`model: Sales`, `branch: quarter-end`); ids differ between
// deployments, so each plan resolves the names in its own deployment through the models API, with
// the fewest requests: one filtered query per distinct model name (branches included), one query
// per literal model id whose branch is named, side by side; and, once the routines are read, one
// topics request per model whose topic a routine the plan creates sends (checkRoutineTopics).
// Whether the server's `name` filter is exact is OPEN (gaps.md): names are compared exactly here.
// Everything a routine names that the deployment lacks is one error, each at its file:line:col.
// A saved plan's resolved models, branches and checked topics are reused (identities.ts).
import type { PlatformApi } from '../api/platform.js';
import { POOL_CONNECTIONS } from '../api/client.js';
import { isNotFound } from '../api/errors.js';
import type { ModelRecord } from '../api/types.js';
import type { ConfigPath, LoadedConfig, RoutineConfig, SourceLocation, StewardConfig } from '../config/types.js';
import { closest } from '../config/suggest.js';
import { StewardError } from '../errors.js';
import type { IdentityBook } from './identities.js';
import { inParallel } from '../api/parallel.js';

/** The model kind routines run against (gaps.md "Models"). */
export const ROUTINE_MODEL_KIND = 'SHARED';

/** At most this many candidates are listed in an error; the rest are counted. */
const CANDIDATES_SHOWN = 12;

/** One thing a routine names that this deployment does not have (or has twice). */
export interface ModelProblem {
  code: 'plan.unknown-model' | 'plan.ambiguous-model' | 'plan.unknown-branch' | 'plan.ambiguous-branch' | 'plan.unknown-topic';
  routine: string;
  path: ConfigPath;
  message: string;
  hint?: string;
  /** The model name that matched nothing (its error lists the deployment's shared models). */
  unknownName?: string;
}

/** What resolution needs of a model: a listed record, or one a saved plan resolved. */
type KnownModel = Pick<ModelRecord, 'id' | 'name' | 'branches'>;

/** True for a live model a routine may name: shared (or of no stated kind) and not deleted. */
export function isRoutineModel(model: ModelRecord): boolean {
  return model.deletedAt === null && (model.modelKind === null || model.modelKind === ROUTINE_MODEL_KIND);
}

/**
 * The configuration with every routine's `modelId` set (and `branchId` where it names a `branch`),
 * resolved in the deployment `api` talks to; `model` and `branch` are kept for display. Checks
 * every `topicName` against its model's topics. Throws one StewardError listing every routine
 * that names a model, branch or topic the deployment lacks, with positions and candidates.
 * `section`: where the config lists the routines (errors point into it). `identities`: a saved
 * plan's models are taken from it where it holds them (with every branch and topic asked for);
 * what this resolution finds is recorded there.
 */
export async function resolveRoutineModels(api: PlatformApi, loaded: Pick<LoadedConfig, 'config' | 'locate'>, section: ConfigPath, identities?: IdentityBook): Promise<StewardConfig> {
  const config = loaded.config;
  const routines = config.routines ?? [];
  if (routines.length === 0) return config;
  const branchesOf = (uses: (routine: RoutineConfig) => boolean) =>
    [...new Set(routines.flatMap((routine) => (uses(routine) && typeof routine.branch === 'string' ? [routine.branch] : [])))];
  // One query per distinct name, and per literal id whose branch is named, side by side.
  const byName = new Map<string, KnownModel[]>();
  const names = [...new Set(routines.flatMap((routine) => (routine.model === undefined ? [] : [routine.model])))];
  const byId = new Map<string, KnownModel | undefined>();
  // A branch by literal id is checked against its model's branches too: one that does not exist
  // would pass the plan and fail the apply.
  const literalBranch = (routine: RoutineConfig) => routine.branch === undefined && typeof routine.branchId === 'string';
  const ids = [...new Set(routines.flatMap((routine) => (routine.model === undefined && routine.modelId !== undefined && (typeof routine.branch === 'string' || literalBranch(routine)) ? [routine.modelId] : [])))];
  const lookUps: (() => Promise<void>)[] = [
    ...names.map((name) => async () => {
      const saved = identities?.modelNamed(name, branchesOf((routine) => routine.model === name));
      if (saved !== undefined) {
        byName.set(name, [{ id: saved.id, name, branches: saved.branches }]);
        return;
      }
      const found: ModelRecord[] = [];
      for await (const model of api.listModels({ name, modelKind: ROUTINE_MODEL_KIND, branches: true })) {
        if (model.name === name && isRoutineModel(model)) found.push(model);
      }
      byName.set(name, found);
    }),
    ...ids.map((modelId) => async () => {
      const saved = identities?.modelWithId(modelId, branchesOf((routine) => routine.model === undefined && routine.modelId === modelId));
      const literalIds = routines.flatMap((routine) => (routine.model === undefined && routine.modelId === modelId && literalBranch(routine) ? [routine.branchId as string] : []));
      if (saved !== undefined && literalIds.every((id) => saved.branches.some((branch) => branch.id === id))) {
        byId.set(modelId, { id: saved.id, name: saved.name ?? null, branches: saved.branches });
        return;
      }
      let match: ModelRecord | undefined;
      for await (const model of api.listModels({ modelId, branches: true })) if (model.id === modelId) match = model;
      byId.set(modelId, match);
    }),
  ];
  // Nothing else is in flight yet (the lookups come before whoami, which checks the models they
  // find): they may take every connection of the client's pool, so a config's few models take one round.
  await inParallel(lookUps, (lookUp) => lookUp(), POOL_CONNECTIONS);
  const problems: ModelProblem[] = [];
  const resolved = routines.map((routine, index) => resolveOne(routine, [...section, index], byName, byId, problems));
  if (problems.length > 0) {
    // The plan stops here: every topic that can be checked is, so one error lists everything to fix.
    await checkTopics(api, resolved, section, problems, identities);
    throw await problemsError(api, problems, loaded);
  }
  for (const routine of resolved) {
    if (routine.modelId === undefined) continue;
    const branch = typeof routine.branch === 'string' && typeof routine.branchId === 'string' ? [{ name: routine.branch, id: routine.branchId }] : [];
    identities?.recordModel({ id: routine.modelId, ...(routine.model === undefined ? {} : { name: routine.model }), branches: branch, topics: [] });
  }
  return { ...config, routines: resolved };
}

/**
 * Checks the `topicName` of every routine a plan creates (a replacement is a create): one topics
 * request per distinct model, side by side, and none for a model whose topics a saved plan found
 * already. A routine that stays as it is needs no check, so a plan without creates reads no
 * topics. Throws one StewardError listing every topic the model lacks, at its file:line:col.
 * `created`: in config order (index i is routines[i]), the model id of the routine the plan
 * creates for it, or undefined where it creates none; `section`: where the config lists them.
 */
export async function checkRoutineTopics(
  api: PlatformApi,
  created: readonly (string | undefined)[],
  loaded: Pick<LoadedConfig, 'config' | 'locate'>,
  section: ConfigPath,
  identities?: IdentityBook,
): Promise<void> {
  const routines = (loaded.config.routines ?? []).map((routine, index): RoutineConfig => {
    const modelId = created[index];
    // Routines not created keep no topic to check: the check looks only at those with a model id here.
    return modelId === undefined ? { ...routine, topicName: undefined, modelId: undefined } : { ...routine, modelId };
  });
  const problems: ModelProblem[] = [];
  const topics = await checkTopics(api, routines, section, problems, identities);
  if (problems.length > 0) throw await problemsError(api, problems, loaded);
  for (const [id, found] of topics) identities?.recordModel({ id, branches: [], topics: [...found] });
}

function resolveOne(
  routine: RoutineConfig,
  entry: ConfigPath,
  byName: ReadonlyMap<string, KnownModel[]>,
  byId: ReadonlyMap<string, KnownModel | undefined>,
  problems: ModelProblem[],
): RoutineConfig {
  const at = (field: string): ConfigPath => [...entry, field];
  let model: KnownModel | undefined;
  let modelId = routine.modelId;
  if (routine.model !== undefined) {
    const candidates = byName.get(routine.model) ?? [];
    if (candidates.length === 1) {
      model = candidates[0]!;
      modelId = model.id;
    } else if (candidates.length === 0) {
      problems.push({ code: 'plan.unknown-model', routine: routine.name, path: at('model'), message: `model "${routine.model}" is not a shared model of this deployment`, unknownName: routine.model });
    } else {
      problems.push({
        code: 'plan.ambiguous-model',
        routine: routine.name,
        path: at('model'),
        message: `model "${routine.model}" names ${candidates.length} shared models of this deployment (ids ${candidates.map((candidate) => candidate.id).join(', ')})`,
        hint: 'name it by `modelId:` (a per-environment variable), or rename one of the models in the app',
      });
    }
  } else if (modelId !== undefined) {
    model = byId.get(modelId);
  }
  if (modelId === undefined) return routine;
  const resolved: RoutineConfig = { ...routine, modelId };
  if (typeof routine.branch === 'string') {
    const branchId = resolveBranch(routine, routine.branch, model, at('branch'), problems);
    if (branchId !== undefined) resolved.branchId = branchId;
  } else if (routine.branch === null) {
    resolved.branchId = null;
  } else if (typeof routine.branchId === 'string') {
    checkBranchId(routine, routine.branchId, model, at('branchId'), problems);
  }
  return resolved;
}

/** A branch named by literal id: one of its model's active branches, else a problem at `branchId:`. */
function checkBranchId(routine: RoutineConfig, branchId: string, model: KnownModel | undefined, path: ConfigPath, problems: ModelProblem[]): void {
  if (model === undefined) {
    // A model named by name and not found is reported at `model:` already.
    if (routine.model === undefined) {
      problems.push({ code: 'plan.unknown-model', routine: routine.name, path: [...path.slice(0, -1), 'modelId'], message: `model ${routine.modelId} is not a model of this deployment, so branch ${branchId} cannot be found` });
    }
    return;
  }
  const branches = model.branches ?? [];
  if (branches.some((branch) => branch.id === branchId)) return;
  const which = model.name ?? routine.model ?? routine.modelId;
  const shown = branches.map((branch) => (branch.name === null ? branch.id : `${branch.name} (${branch.id})`));
  problems.push({
    code: 'plan.unknown-branch',
    routine: routine.name,
    path,
    message: `branch ${branchId} is not an active branch of model "${which}"; ${shown.length === 0 ? 'the model has no active branches' : `its branches: ${listed(shown)}`}`,
    hint: 'branch ids differ per deployment: name the branch by `branch:` (its name), or set the id of this deployment\'s branch',
  });
}

function resolveBranch(routine: RoutineConfig, name: string, model: KnownModel | undefined, path: ConfigPath, problems: ModelProblem[]): string | undefined {
  const which = model?.name ?? routine.model ?? routine.modelId;
  if (model === undefined) {
    if (routine.model === undefined) {
      problems.push({ code: 'plan.unknown-model', routine: routine.name, path: [...path.slice(0, -1), 'modelId'], message: `model ${routine.modelId} is not a model of this deployment, so branch "${name}" cannot be found` });
    }
    return undefined;
  }
  const branches = model.branches ?? [];
  const matches = branches.filter((branch) => branch.name === name);
  if (matches.length === 1) return matches[0]!.id;
  if (matches.length > 1) {
    problems.push({
      code: 'plan.ambiguous-branch',
      routine: routine.name,
      path,
      message: `branch "${name}" names ${matches.length} active branches of model "${which}" (ids ${matches.map((branch) => branch.id).join(', ')})`,
      hint: 'name it by `branchId:` (a per-environment variable), or rename one of the branches in the app',
    });
    return undefined;
  }
  // A branch without a name can be named only by `branchId:`.
  const names = branches.flatMap((branch) => (branch.name === null ? [] : [branch.name]));
  const suggestion = closest(name, names);
  problems.push({
    code: 'plan.unknown-branch',
    routine: routine.name,
    path,
    message: `branch "${name}" is not an active branch of model "${which}"; ${names.length === 0 ? 'the model has no active branches' : `its branches: ${listed(names)}`}`,
    hint: suggestion !== undefined ? `did you mean "${suggestion}"?` : 'create the branch in this deployment, or remove `branch:` to use the main branch',
  });
  return undefined;
}

/**
 * One topics request per distinct model a routine with a `topicName` uses, none for a model whose
 * topics a saved plan found already. Returns the topics found, by model id.
 */
async function checkTopics(api: PlatformApi, routines: readonly RoutineConfig[], section: ConfigPath, problems: ModelProblem[], identities?: IdentityBook): Promise<Map<string, Set<string>>> {
  const failed = new Set(problems.map((problem) => problem.path[section.length]));
  const wanted = routines.flatMap((routine, index) =>
    typeof routine.topicName === 'string' && routine.modelId !== undefined && !failed.has(index) ? [{ routine, index, modelId: routine.modelId }] : [],
  );
  const topics = new Map<string, string[] | undefined>();
  await inParallel([...new Set(wanted.map((use) => use.modelId))], async (modelId) => {
    const asked = wanted.filter((use) => use.modelId === modelId).map((use) => use.routine.topicName as string);
    if (identities?.topicsChecked(modelId, asked)) {
      topics.set(modelId, asked);
      return;
    }
    const name = wanted.find((use) => use.modelId === modelId)?.routine.model;
    try {
      topics.set(modelId, (await api.listModelTopics(modelId, name)).map((topic) => topic.name));
    } catch (error) {
      if (!isNotFound(error)) throw error;
      topics.set(modelId, undefined);
    }
  });
  const found = new Map<string, Set<string>>();
  for (const { routine, index, modelId } of wanted) {
    const known = topics.get(modelId);
    const which = routine.model === undefined ? modelId : `"${routine.model}"`;
    if (known === undefined) {
      if (routine.model !== undefined) continue; // found by name a moment ago: a race, not the config's fault
      problems.push({ code: 'plan.unknown-model', routine: routine.name, path: [...section, index, 'modelId'], message: `model ${modelId} is not a model of this deployment (its topics answer 404)` });
      continue;
    }
    const topic = routine.topicName as string;
    if (known.includes(topic)) {
      found.set(modelId, (found.get(modelId) ?? new Set()).add(topic));
      continue;
    }
    const suggestion = closest(topic, known);
    problems.push({
      code: 'plan.unknown-topic',
      routine: routine.name,
      path: [...section, index, 'topicName'],
      message: `topic "${topic}" is not a topic of model ${which}; ${known.length === 0 ? 'the model has no topics' : `its topics: ${listed(known)}`}`,
      hint: suggestion !== undefined ? `did you mean "${suggestion}"?` : 'write one of the model\'s topics, or `topicName: null`',
    });
  }
  return found;
}

/** The one error for every problem; unknown model names list the deployment's shared models. */
async function problemsError(api: PlatformApi, problems: ModelProblem[], loaded: Pick<LoadedConfig, 'locate'>): Promise<StewardError> {
  if (problems.some((problem) => problem.unknownName !== undefined)) {
    const names: string[] = [];
    for await (const model of api.listModels({ modelKind: ROUTINE_MODEL_KIND })) if (isRoutineModel(model) && model.name !== null) names.push(model.name);
    const sorted = [...new Set(names)].sort();
    for (const problem of problems) {
      if (problem.unknownName === undefined) continue;
      const suggestion = closest(problem.unknownName, sorted);
      problem.message += sorted.length === 0 ? '; it has none' : `; its shared models: ${listed(sorted)}`;
      problem.hint = suggestion !== undefined ? `did you mean "${suggestion}"?` : 'create or share the model in this deployment, or correct the name';
    }
  }
  const located = problems.map((problem) => ({ ...problem, at: loaded.locate(problem.path) }));
  const where = (at: SourceLocation | undefined) => (at === undefined ? '' : `${at.file}:${at.line}:${at.col}: `);
  const first = located[0]!;
  const message = located.length === 1
    ? `routine "${first.routine}": ${first.message}`
    : `${located.length} routines name models, branches or topics this deployment does not have:\n${located.map((problem) => `  ${where(problem.at)}routine "${problem.routine}": ${problem.message}`).join('\n')}`;
  const positions = located.flatMap((problem) => (problem.at === undefined ? [] : [problem.at]));
  return new StewardError(first.code, message, 'user', {
    ...(located.length === 1 && first.hint !== undefined ? { hint: first.hint } : { hint: 'model, branch and topic names are compared exactly; the lists above are what this deployment has' }),
    details: {
      ...(positions[0] === undefined ? {} : { position: positions[0] }),
      positions,
      problems: located.map((problem) => ({ code: problem.code, routine: problem.routine, message: problem.message, ...(problem.at === undefined ? {} : { position: problem.at }) })),
    },
  });
}

function listed(names: readonly string[]): string {
  const shown = names.slice(0, CANDIDATES_SHOWN).map((name) => `"${name}"`).join(', ');
  return names.length > CANDIDATES_SHOWN ? `${shown} and ${names.length - CANDIDATES_SHOWN} more` : shown;
}
