// Saved plans (`plan --out FILE`, `apply FILE`, `show FILE`). A plan file records the environment,
// the base URL, the request budget and the config's digest, never a token; apply refuses it
// against another environment or config, and applies it where it was made (checkPlanFits). Its
// resolved ids (`identities`) are sealed with an HMAC keyed by the token that made the plan, so
// apply reuses them only under that key (see identities.ts for why).
import { createHmac, timingSafeEqual } from 'node:crypto';
import { readFile, rename, rm, writeFile } from 'node:fs/promises';
import { StewardError } from '../errors.js';
import { isDeepStrictEqual } from 'node:util';
import { omit, pick } from '../model/fields.js';
import { emailKey } from '../domain/rules.js';
import { planStructureProblems } from './planSchema.js';
import { isLoopbackUrl, sameInstance } from '../api/url.js';
import { PLAN_FORMAT_VERSION, type Plan, type PlanIdentities, type PlanStep } from '../model/plan.js';

/**
 * Writes the plan as JSON, atomically: the plan goes to a temporary file beside it, renamed over
 * the target only once complete, so an interrupted `plan --out` leaves the old file (or none),
 * never half a plan that a later `apply` would refuse or misread. With `token` (the API token the
 * plan was made with), its identities are sealed; the token itself is never written.
 */
export async function savePlan(plan: Plan, path: string, token?: string): Promise<void> {
  const temporary = `${path}.${process.pid}.tmp`;
  const { seal: _unsealed, ...identities } = plan.identities ?? { users: [], groups: [], models: [] };
  const saved: Plan = plan.identities === undefined || token === undefined ? plan : { ...plan, identities: { ...identities, seal: sealIdentities(plan, token) } };
  try {
    await writeFile(temporary, `${JSON.stringify(saved, null, 2)}\n`, { mode: 0o600 });
    await rename(temporary, path);
  } catch (error) {
    await rm(temporary, { force: true });
    const reason = (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'its directory does not exist' : (error as Error).message;
    throw new StewardError('plan-file.unwritable', `cannot write the plan file ${path}: ${reason}`, 'user');
  }
}

/** Reads a plan file, refusing anything that is not a plan of this format, well formed (plan-file.invalid, naming what is wrong). */
export async function loadPlan(path: string): Promise<Plan> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new StewardError('plan-file.unreadable', `cannot read plan file ${path}: ${(error as Error).message}`, 'user');
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw invalidPlanFile(`${path} is not a steward plan file (not JSON)`);
  }
  if (!isRecord(parsed)) throw invalidPlanFile(`${path} is not a steward plan file (not a JSON object)`);
  if (parsed.formatVersion !== PLAN_FORMAT_VERSION) {
    throw new StewardError(
      'plan-file.version',
      `${path} is not a steward plan file of format ${PLAN_FORMAT_VERSION} (found ${JSON.stringify(parsed.formatVersion)})`,
      'user',
      { hint: NEW_PLAN_HINT },
    );
  }
  const plan = checkStructure(parsed, path);
  if (parsed.identities !== undefined) plan.identities = checkIdentities(parsed.identities, path);
  return plan;
}

const NEW_PLAN_HINT = 'make a new plan with `steward plan --out FILE`';

/** How many of a file's problems one error lists; the rest are counted. */
const PROBLEMS_SHOWN = 5;

function invalidPlanFile(message: string): StewardError {
  return new StewardError('plan-file.invalid', message, 'user', { hint: NEW_PLAN_HINT });
}

/**
 * A plan file's structure, checked against the published plan schema and then for what a schema
 * cannot say: step ids unique, every step of a kind the plan read (`kinds`). Apply reads the
 * steps, their states and their kinds' live state before judging whether they follow from the
 * config, so an edited file must fail here, naming the step, not deep inside with a TypeError.
 * The identities are left to checkIdentities (their lists may be left out). This is where the
 * file's steps take their kinds' types (model/plan.ts): the schema leaves a state's fields open,
 * so apply runs only a step the planner derives again (refuseUnfounded), and a routine's state is
 * decoded field by field before it is sent (routineStateOf).
 */
function checkStructure(parsed: Record<string, unknown>, path: string): Plan {
  const { identities: _identities, ...rest } = parsed;
  const problems = planStructureProblems(rest);
  if (problems.length === 0) {
    const plan = rest as unknown as Plan;
    const kinds = new Set<string>(plan.kinds);
    const firstIndex = new Map<string, number>();
    plan.steps.forEach((step, index) => {
      const earlier = firstIndex.get(step.id);
      if (earlier !== undefined) problems.push(`steps[${index}] (${step.id}): id is also the id of steps[${earlier}]`);
      else firstIndex.set(step.id, index);
      if (!kinds.has(step.kind)) problems.push(`steps[${index}] (${step.id}): kind ${step.kind} is not among the plan's kinds (${plan.kinds.join(', ') || 'none'})`);
    });
  }
  if (problems.length > 0) {
    const more = problems.length - PROBLEMS_SHOWN;
    const listed = problems.slice(0, PROBLEMS_SHOWN).join('; ');
    throw invalidPlanFile(`${path} is not a well-formed steward plan file: ${listed}${more > 0 ? `; and ${more} more problem${more === 1 ? '' : 's'}` : ''}`);
  }
  return rest as unknown as Plan;
}

/**
 * The seal of a plan's identities under an API token: an HMAC-SHA256 of them, bound to the plan's
 * environment, base URL and config digest. It proves the ids came from a plan made with this token
 * without revealing the token.
 */
export function sealIdentities(plan: Pick<Plan, 'environment' | 'baseUrl' | 'configDigest' | 'identities'>, token: string): string {
  const { users = [], groups = [], models = [] } = plan.identities ?? {};
  const canonical = JSON.stringify([
    PLAN_FORMAT_VERSION,
    plan.environment,
    plan.baseUrl,
    plan.configDigest,
    users.map((user) => [user.email, user.id]),
    groups.map((group) => [group.name, group.id]),
    models.map((model) => [model.id, model.name ?? null, model.branches.map((branch) => [branch.name, branch.id]), model.topics]),
  ]);
  return `hmac-sha256:${createHmac('sha256', token).update(canonical).digest('hex')}`;
}

/**
 * The plan's identities if their seal verifies under `token`, else why they are not reused
 * (they were made with another key, edited, or never sealed): apply then resolves every name again.
 */
export function trustedIdentities(plan: Plan, token: string): { identities: Omit<PlanIdentities, 'seal'> } | { untrusted: string } | undefined {
  if (plan.identities === undefined) return undefined;
  const { seal, ...identities } = plan.identities;
  if (seal === undefined) return { untrusted: 'they are not sealed (the file was not written by `steward plan --out`)' };
  const expected = Buffer.from(sealIdentities(plan, token));
  const given = Buffer.from(seal);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    return { untrusted: 'their seal does not match this API key (the plan was made with another key, or the file was edited)' };
  }
  return { identities };
}

/**
 * A plan file's identities checked for shape: every entry a non-empty string pair, no name given
 * two ids. Lists left out count as empty (an older or trimmed file resolves those names again).
 */
function checkIdentities(value: unknown, path: string): PlanIdentities {
  const invalid = (where: string, what: string) => invalidPlanFile(`${path} is not a well-formed steward plan file: identities${where} ${what}`);
  if (!isRecord(value)) throw invalid('', 'must be an object');
  const list = (field: string): Record<string, unknown>[] => {
    const entries = value[field] ?? [];
    if (!Array.isArray(entries)) throw invalid(`.${field}`, 'must be an array');
    return entries.map((entry: unknown, index) => {
      if (!isRecord(entry)) throw invalid(`.${field}[${index}]`, 'must be an object');
      return entry;
    });
  };
  const text = (entry: Record<string, unknown>, field: string, where: string): string => {
    const found = entry[field];
    if (typeof found !== 'string' || found.trim() === '') throw invalid(`${where}.${field}`, 'must be a non-empty string');
    return found;
  };
  const once = (seen: Map<string, string>, name: string, id: string, where: string, what: string): void => {
    const earlier = seen.get(name);
    if (earlier !== undefined && earlier !== id) throw invalid(where, `gives ${what} two ids (${earlier} and ${id})`);
    seen.set(name, id);
  };
  const emails = new Map<string, string>();
  const users = list('users').map((entry, index) => {
    const where = `.users[${index}]`;
    const user = { email: text(entry, 'email', where), id: text(entry, 'id', where) };
    once(emails, emailKey(user.email), user.id, where, `e-mail ${user.email}`);
    return user;
  });
  const groupNames = new Map<string, string>();
  const groups = list('groups').map((entry, index) => {
    const where = `.groups[${index}]`;
    const group = { name: text(entry, 'name', where), id: text(entry, 'id', where) };
    once(groupNames, group.name, group.id, where, `user group "${group.name}"`);
    return group;
  });
  const modelNames = new Map<string, string>();
  const modelIds = new Set<string>();
  const models = list('models').map((entry, index) => {
    const where = `.models[${index}]`;
    const id = text(entry, 'id', where);
    if (modelIds.has(id)) throw invalid(where, `lists model ${id} twice`);
    modelIds.add(id);
    const name = entry.name === undefined ? undefined : text(entry, 'name', where);
    if (name !== undefined) once(modelNames, name, id, where, `model "${name}"`);
    if (!Array.isArray(entry.branches)) throw invalid(`${where}.branches`, 'must be an array');
    const branchNames = new Map<string, string>();
    const branches = entry.branches.map((branch: unknown, at) => {
      const place = `${where}.branches[${at}]`;
      if (!isRecord(branch)) throw invalid(place, 'must be an object');
      const resolved = { name: text(branch, 'name', place), id: text(branch, 'id', place) };
      once(branchNames, resolved.name, resolved.id, place, `branch "${resolved.name}"`);
      return resolved;
    });
    if (!Array.isArray(entry.topics) || entry.topics.some((topic) => typeof topic !== 'string' || topic === '')) {
      throw invalid(`${where}.topics`, 'must be an array of non-empty strings');
    }
    return { id, ...(name === undefined ? {} : { name }), branches, topics: entry.topics as string[] };
  });
  const seal = value.seal;
  if (seal !== undefined && (typeof seal !== 'string' || !/^hmac-sha256:[0-9a-f]{64}$/.test(seal))) throw invalid('.seal', 'must be `hmac-sha256:` and 64 hex digits');
  return { users, groups, models, ...(seal === undefined ? {} : { seal }) };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Where a saved plan is applied, and at what pace. */
export interface SavedPlanTarget {
  baseUrl: string;
  requestsPerMinute: number;
  /** The plan file's record chose the deployment or the pace, where the config says otherwise (apply says so). */
  fromPlan: boolean;
}

/** What the config and the command line say about the plan's environment. */
export interface ApplyingHere {
  environment: string;
  configDigest: string;
  /** The environment's `baseUrl` and request budget in the config. */
  configBaseUrl: string;
  configRequestsPerMinute: number;
  /** `--base-url` and `--requests-per-minute`, when given. */
  baseUrl?: string;
  requestsPerMinute?: number;
}

/**
 * Refuses a plan made for another environment, instance or config; else says where it is applied:
 * where it was made, at the pace it was made at. A plan file passes through other hands (a CI
 * artifact), so the address it records receives the token on its own word only when the config
 * names it for the environment or it is this machine (an emulator); any other address must be
 * repeated with --base-url. A --base-url naming another instance is refused: the plan's steps
 * were read from the one it records.
 */
export function checkPlanFits(plan: Plan, here: ApplyingHere): SavedPlanTarget {
  if (plan.environment !== here.environment) {
    throw new StewardError(
      'plan-file.environment',
      `this plan was made for environment "${plan.environment}", not "${here.environment}"`,
      'user',
      { hint: `apply it with --env ${plan.environment}, or make a new plan for ${here.environment}` },
    );
  }
  const baseUrl = deploymentOf(plan, here);
  if (plan.configDigest !== here.configDigest) {
    throw new StewardError(
      'plan-file.config-changed',
      'the configuration has changed since this plan was made',
      'user',
      { hint: 'run `steward plan --out FILE` again and review the new plan' },
    );
  }
  const requestsPerMinute = here.requestsPerMinute ?? plan.requestsPerMinute ?? here.configRequestsPerMinute;
  const fromPlan = (here.baseUrl === undefined && !sameInstance(baseUrl, here.configBaseUrl)) || (here.requestsPerMinute === undefined && requestsPerMinute !== here.configRequestsPerMinute);
  return { baseUrl, requestsPerMinute, fromPlan };
}

/** The deployment a saved plan is applied at (see checkPlanFits), or the refusal. */
function deploymentOf(plan: Plan, here: ApplyingHere): string {
  const recorded = plan.baseUrl;
  const newPlan = (url: string) => `steward plan --env ${plan.environment}${url === here.configBaseUrl ? '' : ` --base-url ${shellWord(url)}`} --out FILE`;
  if (here.baseUrl !== undefined) {
    if (sameInstance(here.baseUrl, recorded)) return here.baseUrl;
    throw new StewardError('plan-file.base-url', `this plan was made against ${recorded}, not ${here.baseUrl}; its steps were read there`, 'user', {
      hint: `to apply changes at ${here.baseUrl}, make a new plan against it: ${newPlan(here.baseUrl)}; to apply this plan, ${reachableOnPlanWord(recorded, here.configBaseUrl) ? 'leave out --base-url' : `pass --base-url ${shellWord(recorded)}`}`,
      details: { planBaseUrl: recorded, baseUrl: here.baseUrl },
    });
  }
  if (reachableOnPlanWord(recorded, here.configBaseUrl)) return recorded;
  throw new StewardError(
    'plan-file.base-url',
    `this plan was made against ${recorded}, which is neither environment "${plan.environment}"'s baseUrl (${here.configBaseUrl}) nor this machine; the API token goes there only when --base-url names it too`,
    'user',
    {
      hint: `if ${recorded} is where you mean to apply it, add --base-url ${shellWord(recorded)}; else make a new plan against ${here.configBaseUrl}: ${newPlan(here.configBaseUrl)}`,
      details: { planBaseUrl: recorded, baseUrl: here.configBaseUrl },
    },
  );
}

/**
 * Whether an address a plan file records may receive an API token on the file's word alone: the
 * environment's own `baseUrl` in the config, or this machine (an emulator).
 */
export function reachableOnPlanWord(recorded: string, configBaseUrl: string): boolean {
  return sameInstance(recorded, configBaseUrl) || isLoopbackUrl(recorded);
}

function shellWord(value: string): string {
  return /^[\w@%+=:,./-]+$/.test(value) ? value : `'${value.replace(/'/g, "'\\''")}'`;
}

/**
 * Refuses steps that do not follow from the configuration and the live state: a plan file is
 * data that went through other hands (a CI artifact), and its digest covers only the config.
 * Every step about to run must be one the planner derives again, with the same target and values.
 * Returns the steps that are only stale: the planner derives them writing the same values to the
 * same object, but the object changed since in fields they do not write.
 */
export function refuseUnfounded(runnable: readonly PlanStep[], derived: readonly PlanStep[]): { step: PlanStep; detail: string }[] {
  const position = new Map(derived.map((step, index) => [step.id, index]));
  let previous = -1;
  const stale: { step: PlanStep; detail: string }[] = [];
  const unfounded: PlanStep[] = [];
  for (const step of runnable) {
    const index = position.get(step.id);
    const inOrder = index !== undefined && index > previous;
    previous = index ?? previous;
    const again = inOrder ? derived[index] : undefined;
    if (again !== undefined && sameStep(step, again)) continue;
    const detail = again === undefined ? undefined : changedElsewhere(step, again);
    if (detail === undefined) unfounded.push(step);
    else stale.push({ step, detail });
  }
  if (unfounded.length > 0) {
    throw new StewardError(
      'plan-file.unfounded',
      `${unfounded.length === 1 ? 'a step' : `${unfounded.length} steps`} of this plan file do${unfounded.length === 1 ? 'es' : ''} not follow from the configuration and the live state: ${unfounded.map((step) => step.id).join(', ')}; nothing was applied`,
      'user',
      { hint: 'the file was edited or made by another steward; make a new plan with `steward plan --out FILE`' },
    );
  }
  return stale;
}

/**
 * The same step as the one derived again, but for dependencies met since: a step saved while
 * the label it links to was still to be created waits for that create; once an interrupted
 * apply created it, the derived step waits for nothing. Waiting for more is only ordering.
 */
function sameStep(saved: PlanStep, derived: PlanStep): boolean {
  const { dependsOn: savedDependencies, ...savedRest } = essence(saved);
  const { dependsOn: derivedDependencies, ...derivedRest } = essence(derived);
  return isDeepStrictEqual(savedRest, derivedRest) && derivedDependencies.every((id) => savedDependencies.includes(id));
}

/**
 * Words for a step that writes what the planner derives again, to the same object, while the
 * object changed since the plan in fields the step does not write; undefined for any other
 * difference (those do not follow from the config and the live state).
 */
function changedElsewhere(saved: PlanStep, derived: PlanStep): string | undefined {
  if (saved.kind !== derived.kind || saved.action !== derived.action || !isDeepStrictEqual(saved.ref, derived.ref)) return undefined;
  if (saved.action === 'delete' || derived.action === 'delete' || derived.action === 'create' || saved.action === 'create') return undefined;
  if (!isDeepStrictEqual(saved.after, pick(derived.after, Object.keys(saved.after)))) return undefined;
  const written = new Set(saved.fields.map((field) => field.path));
  const elsewhere = derived.fields.filter((field) => !written.has(field.path));
  if (elsewhere.length === 0) return undefined;
  // The file holds no earlier value of those fields, so an edit that took one out of the step
  // reads the same: both are said.
  return `it changed since the plan in fields this step does not write, or the step was edited: ${elsewhere.map((field) => `${field.path} is now ${JSON.stringify(field.before)}`).join('; ')}`;
}

/**
 * Everything of a step but its wording: what it writes, where, from which state, after what.
 * (A promotion words its deletions after its source, so `reason` may differ; `nextRuns` depend
 * on when the plan was made, `recipients` on the directory, which apply classifies again;
 * ignored fields are the app's, and may have changed since.)
 */
function essence(step: PlanStep): Readonly<Record<string, unknown>> & { dependsOn: string[] } {
  const { reason: _reason, nextRuns: _nextRuns, ignored: _ignored, recipients: _recipients, ...rest } = step;
  if (step.ignore === undefined) return rest;
  return {
    ...rest,
    ...('before' in rest ? { before: omit(rest.before, step.ignore) } : {}),
    ...('after' in rest ? { after: omit(rest.after, step.ignore) } : {}),
  };
}
