// AI routines. Identity is the name within its owner (names are not unique on the server, so two
// live routines with one name are an ambiguity the user resolves). A change the deployment's
// update cannot carry (routineState.ts: the documented PUT has no timezone, destination, branch
// or topic) replaces the routine: the new one is created before the old one is deleted.
import type { PlatformApi } from '../../api/platform.js';
import type { ModelRecord, Routine, Whoami } from '../../api/types.js';
import type { ConfigPath, RoutineConfig, StewardConfig } from '../../config/types.js';
import type { AccessProblem } from '../../resolve/preflight.js';
import { emailKey } from '../../domain/rules.js';
import { textOf } from '../shared.js';
import { StewardError } from '../../errors.js';
import { changedFields, holdIgnored, matches, pick } from '../../model/fields.js';
import { ignoredFields } from '../../config/ignore.js';
import { expiryOf, untilOf, type EntryExpiry } from '../expiry.js';
import { inParallel } from '../../api/parallel.js';
import { sortNamesakes, type Namesakes } from './routineDuplicates.js';
import type { PlanStep, PlanWarning } from '../../model/plan.js';
import type { KindExport, ResourceKind } from '../../model/kind.js';
import { protectedError, protectedInEnvironment, PRUNED_REASON } from '../protection.js';
import type { Directory } from '../../resolve/directory.js';
import { checkRoutineTopics, isRoutineModel, resolveRoutineModels, ROUTINE_MODEL_KIND } from '../../resolve/models.js';
import { requireRoutineOwners } from './routineOwners.js';
import { withNextRuns } from './routineSchedule.js';
import { routineRecipientChanges } from './routineRecipients.js';
import { applyRoutineSteps, readBackRoutine, routineWriteRequests } from './routinesApply.js';
import { ownersWithoutRoutines, routineOwnersText, routinesConfig, withRoutineFlags, writtenRoutines, type RoutineSnapshot } from './routineExport.js';
import { routineHealth } from './routineHealth.js';
import { routineIds } from './routineIds.js';
import {
  clearedByModel,
  clearingReason,
  desiredState,
  liveState,
  REPLACEMENT_COST,
  replacementReason,
  replacingFields,
  type LiveRoutines,
  type RoutineState,
  type RoutineUpdate,
} from './routineState.js';

declare module '../../model/plan.js' {
  interface KindSteps {
    /**
     * A routine's compared fields: those the config manages before, all of them after (the
     * applier decodes them, routineStateOf). `ref`: see RoutineRef.
     */
    routines: { state: Partial<RoutineState>; ref: RoutineRef };
  }
}

/**
 * What a routine step's applier needs: the owner it passes as `userId` (none for a personal
 * token's own routines), the live routine's id (not for a create), and `update: 'patch'` where
 * the environment updates routines by the generated client's PATCH.
 */
export type RoutineRef = { ownerId?: string; routineId?: string; update?: 'patch' };

/**
 * Whose routines. `key` names the owner in step ids: '' for the API key's own user (the owner of
 * routines without `owner:`), else a user id. `userId` is what the API is passed: none for a
 * personal token's own routines, and always one with an organization key (gaps.md: pass `userId`
 * whenever the owner is known), its creator's id for its own routines.
 */
export interface RoutineOwner {
  key: string;
  userId: string | undefined;
  display: string | undefined;
}

/**
 * What a personal token may not do with routines: name another owner (it acts only as its own
 * user), or run a routine on a model its user lacks `USE_AI` on, read from whoami's permissions,
 * never from a role name (organizations name roles as they like). A model whoami does not list is
 * left to the model check; an organization key's roles are its creator's, so they decide nothing.
 */
function routineAccessProblems(whoami: Whoami, config: StewardConfig): AccessProblem[] {
  if (whoami.keyScope !== 'user') return [];
  const problems: AccessProblem[] = [];
  const routines = config.routines ?? [];
  const owned = routines.flatMap((routine, index): ConfigPath[] => (routine.owner === undefined ? [] : [['routines', index, 'owner']]));
  if (owned.length > 0) {
    problems.push({ problem: 'routines with an `owner` need an organization API key (a personal token acts only as its own user)', at: owned });
  }
  const lacking = new Map<string, { names: string[]; at: ConfigPath[] }>();
  routines.forEach((routine, index) => {
    if (routine.modelId === undefined) return;
    const permissions = whoami.rolesByModel[routine.modelId]?.permissions;
    if (permissions === undefined || permissions.includes('USE_AI')) return;
    const model = routine.model ?? routine.modelId;
    const known = lacking.get(model) ?? { names: [], at: [] };
    lacking.set(model, { names: [...known.names, routine.name], at: [...known.at, modelPath(routine, index)] });
  });
  problems.push(
    ...[...lacking].map(([model, { names, at }]) => ({
      problem: `this token's user lacks the USE_AI permission on model ${model}, which ${names.length === 1 ? `routine "${names[0]}" runs` : `routines ${names.map((name) => `"${name}"`).join(', ')} run`} against`,
      at,
    })),
  );
  return problems;
}

/** Where a routine names its model: `model:` (by name) or `modelId:`. */
function modelPath(routine: RoutineConfig, index: number): ConfigPath {
  return ['routines', index, routine.model === undefined ? 'modelId' : 'model'];
}

/** The key of an owner's list in LiveRoutines (and of `ref.ownerId ?? ''` in a step): its `userId`. */
export function listKey(owner: Pick<RoutineOwner, 'userId'>): string {
  return owner.userId ?? '';
}

export interface DesiredRoutine {
  /** Its position in the config's `routines` (errors point at it). */
  index: number;
  /** The config's field for a state field it names by name (`model` for `modelId`, `branch` for `branchId`), for errors to point at. */
  writtenAs: Partial<Record<keyof RoutineState, string>>;
  owner: RoutineOwner;
  state: RoutineState;
  /** Former names (`renamedFrom`): a live routine under one of them is renamed in place, keeping its id. */
  renamedFrom: string[];
  protect: boolean;
  /** `duplicates: delete-identical`: namesakes identical to the oldest match are planned for deletion. */
  deleteIdenticalDuplicates: boolean;
  /** Fields written on create and never changed afterwards (`ignore:`, the routine's and the kind's). */
  ignore: string[];
  /** `until:` at the plan's instant: in force until a day, or expired (then deleted, or paused). */
  expiry?: EntryExpiry;
  onExpiry: 'delete' | 'pause';
}

export interface DesiredRoutines {
  routines: DesiredRoutine[];
  /** Every owner whose routines are read (and, with prune on, pruned). */
  owners: RoutineOwner[];
  prune: boolean;
  isProtected: (name: string) => boolean;
  /** How this deployment updates routines: what changes in place, what replaces. */
  update: RoutineUpdate;
}

export type { LiveRoutines } from './routineState.js';

// Export: the routines of the key's own user and of each owner named (`--owner`; a promotion's
// config's owners), with the shared models, which routines name by name. The section they make,
// and their health, are routineExport.ts's.

/** An owner whose routines export reads, with the e-mail they are written with (none: the key's own, without `owner:`). */
type ExportedOwner = RoutineOwner & { email: string | undefined };

const routinesExport: KindExport<DesiredRoutines, LiveRoutines, RoutineSnapshot, ExportedOwner[]> = {
  owners: (config) => (config.routines ?? []).flatMap((routine) => (routine.owner === undefined ? [] : [routine.owner])),
  problems: (whoami, owners) =>
    whoami.keyScope === 'user' && owners.length > 0 ? ['reading other users\' routines needs an organization API key; this is a personal (user-scoped) token'] : [],
  identify: ({ directory, owners, listingAhead }) => exportedOwners(directory, owners, listingAhead),
  async read(context) {
    const owners = context.identified ?? [];
    if (owners.length === 0) {
      // Listing without userId would read nobody's routines (or be refused): say so instead.
      context.warn(
        'routines are not exported: this organization API key is tied to no user (whoami names none), so it has no routines of its own, and no routine owner was named; name whose routines to export with --owner EMAIL (repeatable)',
      );
      return undefined;
    }
    const [live, models] = await Promise.all([context.read({ routines: [], owners, prune: false, isProtected: () => false, update: 'put' }), sharedModels(context.api)]);
    return { owners: owners.map((owner) => ({ owner: owner.email, routines: live.get(listKey(owner)) ?? [] })), models };
  },
  section: (snapshot) => routinesConfig(snapshot.owners, snapshot.models),
  holds: (snapshot, { caller }) => `the routines of ${routineOwnersText(snapshot.owners, caller?.email)}`,
  written: (section) => writtenRoutines(section as RoutineConfig[]),
  // Schedules quoted, as the examples write them; short recipient lists inline.
  styles: { quoted: ['schedule'], inline: ['recipientEmails', 'userGroupIds'] },
  environmentIds: routineIds,
  // Routine names are unique within a configuration, whoever owns them: the declared routine is the one of the same name.
  promoted: { withFlags: withRoutineFlags },
  health: routineHealth,
  pausedField: 'paused',
  promotionWarnings: (section, context) => ownersWithoutRoutines(section as RoutineConfig[], context),
};

/**
 * The owners whose routines export reads, as `desired()` makes them: the key's own user first (if
 * it has one; by `userId` for an organization key), then each other e-mail once. The key's own
 * routines are written without `owner:` unless its user is named explicitly.
 */
async function exportedOwners(directory: Directory, emails: readonly string[], listingAhead: () => Promise<boolean>): Promise<ExportedOwner[]> {
  await directory.resolveEmails(emails, { listingAhead });
  const caller = directory.caller;
  const owners = new Map<string, ExportedOwner>();
  if (directory.keyScope === 'user') owners.set('', { key: '', userId: undefined, display: undefined, email: undefined });
  else if (caller !== undefined) owners.set('', { key: '', userId: caller.id, display: undefined, email: undefined });
  for (const email of emails) {
    const userId = directory.idOf(email);
    const self = owners.get('');
    if (self !== undefined && userId === caller?.id) {
      self.email = emailKey(email);
      continue;
    }
    if (owners.has(userId)) continue;
    owners.set(userId, { key: userId, userId, display: emailKey(email), email: emailKey(email) });
  }
  return [...owners.values()];
}

/** Every shared model with its branches: one listing (a page per hundred models). */
async function sharedModels(api: PlatformApi): Promise<ModelRecord[]> {
  const models: ModelRecord[] = [];
  for await (const model of api.listModels({ modelKind: ROUTINE_MODEL_KIND, branches: true })) if (isRoutineModel(model)) models.push(model);
  return models;
}

export const routines: ResourceKind<DesiredRoutines, LiveRoutines, 'routines'> = {
  kind: 'routines',
  presentation: {
    noun: ['routine', 'routines'],
    title: (step) => `routine "${step.key}"`,
    // The config names them (`model: Sales`, `branch: quarter-end`); the plan shows those names.
    namedBy: (path) => (path === 'modelId' ? 'model' : path === 'branchId' ? 'branch' : undefined),
  },
  order: { level: 1 },
  // Routine names are unique within a configuration, whoever owns them. The model, branch and
  // e-mail user groups are ids each deployment translates.
  entries: {
    keyOf: (entry) => textOf(entry.name),
    hasKey: (entry, key) => entry.name === key,
    identityFields: ['name', 'owner', 'modelId', 'branchId', 'destination.userGroupIds'],
  },
  targeting: {
    noun: 'routine',
    names: (config) => (config.routines ?? []).map((routine) => routine.name),
    pruned: (config) => config.prune?.routines === true,
  },
  resolveNames: ({ api, loaded, identities }) => resolveRoutineModels(api, loaded, ['routines'], identities),
  checkPlanned: ({ api, steps, desired, loaded, identities }) => checkRoutineTopics(api, createdModels(steps, desired.routines), loaded, ['routines'], identities),
  annotate: withNextRuns,
  audience: { changes: routineRecipientChanges },
  runs: (config) => (config.routines ?? []).map((routine) => ({ name: routine.name, schedule: routine.schedule, timezone: routine.timezone, paused: routine.paused === true })),
  access: {
    models: (config) =>
      (config.routines ?? []).flatMap((routine, index) =>
        routine.modelId === undefined ? [] : [{ id: routine.modelId, ...(routine.model === undefined ? {} : { name: routine.model }), path: modelPath(routine, index) }],
      ),
    problems: routineAccessProblems,
    refuse: requireRoutineOwners,
  },
  export: routinesExport,
  readAfter: [],

  declared: (config) => config.routines !== undefined || config.prune?.routines === true,

  emails: (config) => (config.routines ?? []).flatMap((routine) => (routine.owner === undefined ? [] : [routine.owner])),

  desired({ config, environment, directory, now }) {
    // The key's own user: a personal token's user (no userId needed), an organization key's
    // creator (passed as userId), or nobody for an organization key tied to no user.
    const caller = directory.caller;
    const self: RoutineOwner | undefined =
      directory.keyScope === 'user' ? { key: '', userId: undefined, display: undefined }
        : caller === undefined ? undefined
          : { key: '', userId: caller.id, display: undefined };
    const prune = config.prune?.routines === true;
    // The key's own routines are read when a routine is its own or when prune reaches them: a
    // list of routines nothing would change is a request for nothing.
    let selfRead = prune && self !== undefined;
    const owners = new Map<string, RoutineOwner>();
    const ownerOf = (email: string | undefined, index: number): RoutineOwner => {
      if (email === undefined) {
        if (self === undefined) {
          // Preflight reports these, every one, before anything is read.
          throw new StewardError('plan.routine-owner', 'a routine has no `owner:`, and this organization API key is tied to no user', 'user', { details: { configPath: ['routines', index] } });
        }
        selfRead = true;
        return self;
      }
      const userId = directory.idOf(email);
      if (self !== undefined && userId === caller?.id) {
        selfRead = true;
        return self;
      }
      const owner = owners.get(userId) ?? { key: userId, userId, display: emailKey(email) };
      owners.set(userId, owner);
      return owner;
    };
    const declared = (config.routines ?? []).map((routine, index): DesiredRoutine => {
      const expiry = expiryOf(routine, now);
      // Paused by its expiry: the pause is the config's then, whatever `ignore` says.
      const pausedByExpiry = expiry?.expired === true && routine.onExpiry === 'pause';
      return {
        index,
        writtenAs: { ...(routine.model === undefined ? {} : { modelId: 'model' }), ...(routine.branch === undefined ? {} : { branchId: 'branch' }) },
        owner: ownerOf(routine.owner, index),
        state: pausedByExpiry ? { ...desiredState(routine), paused: true } : desiredState(routine),
        renamedFrom: routine.renamedFrom ?? [],
        protect: routine.protect === true,
        deleteIdenticalDuplicates: routine.duplicates === 'delete-identical',
        ignore: ignoredFields(config, 'routines', routine).filter((field) => !(pausedByExpiry && field === 'paused')),
        ...(expiry === undefined ? {} : { expiry }),
        onExpiry: routine.onExpiry ?? 'delete',
      };
    });
    return {
      routines: declared,
      owners: [...(selfRead && self !== undefined ? [self] : []), ...owners.values()],
      prune,
      isProtected: (name) => protectedInEnvironment(environment, 'routines', [name]),
      update: environment.routineUpdate ?? 'put',
    };
  },

  async read({ api }, desired) {
    // One listing per owner (the API lists one user's routines), a few owners side by side.
    const live: LiveRoutines = new Map();
    await inParallel(desired.owners, async (owner) => {
      const list: Routine[] = [];
      const options = owner.userId === undefined ? undefined : { userId: owner.userId };
      for await (const routine of api.listRoutines(options)) list.push(routine);
      live.set(listKey(owner), list);
    });
    return live;
  },

  diff(desired, live) {
    const steps: PlanStep<'routines'>[] = [];
    const warnings: PlanWarning[] = [];
    for (const owner of desired.owners) {
      const own = desired.routines.filter((routine) => routine.owner.key === owner.key);
      const byName = groupByName(live.get(listKey(owner)) ?? []);
      for (const routine of own) {
        const name = routine.state.name;
        const base = { ...baseStep(owner, name), ...untilOf(routine.expiry) };
        let candidates = byName.get(name) ?? [];
        byName.delete(name);
        // Renamed in place: a live routine under a former name keeps its id (as labels do).
        const formerName = candidates.length === 0 ? routine.renamedFrom.find((former) => byName.has(former)) : undefined;
        if (formerName !== undefined) {
          candidates = byName.get(formerName)!;
          byName.delete(formerName);
        } else if (candidates.length > 0) {
          warnOnLeftoverFormerNames(routine, byName, warnings);
        }
        const expired = routine.expiry?.expired === true ? routine.expiry.reason : undefined;
        // An expired routine that is not live is not created, only to be undone.
        if (expired !== undefined && candidates.length === 0) continue;
        if (expired !== undefined && routine.onExpiry === 'delete') {
          steps.push(...expiredRoutineDeletes(routine, candidates, owner, expired));
          continue;
        }
        const because = [...(formerName === undefined ? [] : [`renamed from "${formerName}"`]), ...(expired === undefined ? [] : [`${expired}: paused`])];
        const renamed = because.length === 0 ? {} : { reason: because.join('; ') };
        const ignoring = routine.ignore.length === 0 ? {} : { ignore: routine.ignore };
        if (candidates.length === 0) {
          steps.push({ ...base, action: 'create', after: { ...routine.state }, ...ignoring });
          continue;
        }
        const keys = Object.keys(routine.state);
        const { match, leftovers, duplicates } = pickLiveMatch(candidates, routine, keys, owner, routine.protect || desired.isProtected(name), desired.update);
        for (const duplicate of duplicates) {
          steps.push({
            ...baseStep(owner, name, duplicate.id),
            action: 'delete',
            before: pick(liveState(duplicate), keys),
            ref: { ...ownerRef(owner), routineId: duplicate.id },
            reason: `${duplicate.id}: an identical copy of ${match.id}, the oldest, which is kept; duplicates: delete-identical`,
          });
        }
        for (const leftover of leftovers) {
          steps.push({
            ...baseStep(owner, name, leftover.id),
            action: 'delete',
            before: pick(liveState(leftover), keys),
            ref: { ...ownerRef(owner), routineId: leftover.id },
            reason: `a second routine of this name with another ${differingForcingFields(leftover, routine.state, desired.update).join('/')}, left over from an interrupted replacement`,
          });
        }
        const before = pick(liveState(match), keys);
        // Ignored fields stay as live: compared and written at their live values.
        const { state, ignored } = holdIgnored(routine.state, liveState(match), routine.ignore);
        const fields = changedFields(before, state);
        if (fields.length === 0) continue;
        const held = { ...ignoring, ...(ignored.length === 0 ? {} : { ignored }) };
        const forcing = replacingFields(desired.update, topLevel(fields), state);
        const ref: RoutineRef = { ...ownerRef(owner), routineId: match.id, ...(desired.update === 'patch' ? { update: 'patch' } : {}) };
        if (forcing.length === 0) {
          // A new model leaves the live branch and topic behind: said, and shown as cleared.
          const cleared = clearedByModel(liveState(match), state, topLevel(fields));
          if (cleared.length === 0) {
            steps.push({ ...base, ref, action: 'update', before, after: { ...state }, fields, ...renamed, ...held });
            continue;
          }
          const reason = [...(formerName === undefined ? [] : [`renamed from "${formerName}"`]), clearingReason(cleared)].join('; ');
          steps.push({
            ...base,
            ref,
            action: 'update',
            before: { ...before, ...Object.fromEntries(cleared.map((change) => [change.path, change.before])) },
            after: { ...state, ...Object.fromEntries(cleared.map((change) => [change.path, null])) },
            fields: [...fields, ...cleared],
            reason,
            ...held,
          });
          continue;
        }
        if (routine.protect) {
          // Only the routine's own flag forbids a replacement (an environment's protect only stops pruning).
          const byPatch = desired.update === 'put' && replacingFields('patch', forcing, state).length === 0;
          throw protectedError(`routine "${name}"`, `changing ${forcing.join(', ')} replaces it: ${replacementReason(desired.update, forcing)}. ${upperFirst(REPLACEMENT_COST)}`, {
            hint: `keep ${forcing.join(', ')} as ${forcing.length === 1 ? 'it is' : 'they are'} live, or remove \`protect: true\` from the routine if the replacement is intended${byPatch ? '; a server with the PATCH update changes it in place (`routineUpdate: patch` on the environment)' : ''}`,
            // The fields whose change replaces it first, then the flag that forbids it.
            details: { configPaths: [...forcing.map((field) => routineFieldPath(routine, field)), ['routines', routine.index, 'protect']] },
          });
        }
        steps.push({
          ...base,
          ref: { ...ownerRef(owner), routineId: match.id },
          action: 'replace',
          before,
          after: { ...state },
          fields,
          reason: `${formerName === undefined ? '' : `renamed from "${formerName}"; `}${replacementReason(desired.update, forcing)}`,
          ...held,
        });
      }
      if (!desired.prune) continue;
      for (const [name, list] of byName) {
        if (desired.isProtected(name)) continue;
        for (const routine of list) {
          steps.push({
            ...baseStep(owner, name, list.length > 1 ? routine.id : undefined),
            ref: { ...ownerRef(owner), routineId: routine.id },
            action: 'delete',
            before: { ...liveState(routine) },
            reason: PRUNED_REASON,
          });
        }
      }
    }
    if (steps.some((step) => step.action === 'replace')) warnings.push({ code: 'routines.replacement', message: REPLACEMENT_COST });
    return { steps, warnings };
  },

  current(step, live) {
    const all = live.get(step.ref.ownerId ?? '') ?? [];
    const named = all.filter((routine) => routine.name === nameOf(step));
    // A rename not yet applied: the routine is still under its former name, found by id.
    const list = named.length === 0 && step.action === 'update' && step.ref.routineId !== undefined ? all.filter((routine) => routine.id === step.ref.routineId) : named;
    const keys = Object.keys(step.action === 'delete' ? step.before : step.after);
    // A step aimed at one routine among namesakes (a leftover) follows its id.
    const routine = step.ref.routineId !== undefined && step.action === 'delete'
      ? list.find((candidate) => candidate.id === step.ref.routineId)
      : list.length === 1 ? list[0] : list.find((candidate) => matches(pick(liveState(candidate), keys), 'after' in step ? step.after : step.before));
    return routine === undefined ? undefined : pick(liveState(routine), keys);
  },

  apply: applyRoutineSteps,
  writeRequests: routineWriteRequests,
  readBack: readBackRoutine,
};

/** A declared routine whose former name is still live beside it: the former is left alone (and said so). */
function warnOnLeftoverFormerNames(routine: DesiredRoutine, byName: ReadonlyMap<string, Routine[]>, warnings: PlanWarning[]): void {
  for (const former of routine.renamedFrom) {
    if (!byName.has(former)) continue;
    warnings.push({
      code: 'routines.rename-target-exists',
      message: `routine "${routine.state.name}" already exists, so "${former}" (listed in its renamedFrom) is not renamed; it is left as it is unless prune deletes it`,
    });
  }
}

function groupByName(list: Routine[]): Map<string, Routine[]> {
  const byName = new Map<string, Routine[]>();
  for (const routine of list) byName.set(routine.name, [...(byName.get(routine.name) ?? []), routine]);
  return byName;
}

/** The live routine a declared one corresponds to, and the namesakes the plan deletes beside it. */
interface LiveMatch {
  match: Routine;
  /** Namesakes on another model, branch or topic: what an interrupted replacement leaves. */
  leftovers: Routine[];
  /** Newer copies identical to `match`, deleted because the config says `duplicates: delete-identical`. */
  duplicates: Routine[];
}

/**
 * The live routine a declared one corresponds to. With namesakes, steward goes on only in the
 * situations it can explain: an interrupted replacement, which leaves the new routine (equal
 * to the config) beside the old one (on another model, branch or topic, which cannot change in
 * place), and, when the config opts in, identical copies of the oldest routine that matches the
 * config (see routineDuplicates.ts). Those are deleted, unless the routine is protected.
 * Anything else is an ambiguity for the user, explained with the way out: steward never picks
 * one silently.
 */
function pickLiveMatch(
  candidates: Routine[],
  routine: DesiredRoutine,
  keys: string[],
  owner: RoutineOwner,
  isProtected: boolean,
  update: RoutineUpdate,
): LiveMatch {
  if (candidates.length === 1) return { match: candidates[0]!, leftovers: [], duplicates: [] };
  const { keeper, identical, differing } = sortNamesakes(candidates, routine.state, keys);
  const dedupe = routine.deleteIdenticalDuplicates && !isProtected;
  const leftovers = differing.every((other) => differingForcingFields(other, routine.state, update).length > 0);
  if (keeper !== undefined && !isProtected && (dedupe || identical.length === 0) && leftovers) {
    return { match: keeper, leftovers: differing, duplicates: dedupe ? identical : [] };
  }
  const whose = owner.display === undefined ? 'this API key\'s user' : owner.display;
  throw new StewardError(
    'plan.ambiguous-routine',
    `${candidates.length} live routines owned by ${whose} are named "${routine.state.name}" (ids ${candidates.map((c) => c.id).join(', ')}); steward identifies routines by name and will not pick one`,
    'user',
    {
      hint: wayOut({ keeper, identical, differing }, routine, keys, isProtected),
      details: {
        // Where `duplicates: delete-identical` goes, the way out the hint names.
        configPath: ['routines', routine.index],
        routine: routine.state.name,
        routineIds: candidates.map((candidate) => candidate.id),
        oldestMatchingConfig: keeper?.id ?? null,
        identicalToOldest: identical.map((candidate) => candidate.id),
        differing: differing.map((candidate) => candidate.id),
      },
    },
  );
}

/** How to resolve an ambiguity: what the opt-in would delete, and what only the user can. */
function wayOut(namesakes: Namesakes, routine: DesiredRoutine, keys: string[], isProtected: boolean): string {
  const { keeper, identical, differing } = namesakes;
  const list = (routines: Routine[]) => routines.map((candidate) => candidate.id).join(', ');
  const parts: string[] = [];
  if (keeper === undefined) {
    parts.push('none of them matches the config, so steward deletes none of them');
  } else if (identical.length > 0) {
    const those = identical.length === 1 ? `${list(identical)} is an identical copy` : `${list(identical)} are identical copies`;
    parts.push(
      isProtected
        ? `${those} of the oldest, ${keeper.id}, but the routine is protected, so steward deletes none of them`
        : `${those} of the oldest, ${keeper.id}, which matches the config: add \`duplicates: delete-identical\` to this routine in the config and the plan deletes ${identical.length === 1 ? 'it' : 'them'}, keeping ${keeper.id}`,
    );
  }
  const reference = keeper === undefined ? undefined : liveState(keeper);
  for (const other of differing) {
    const fromConfig = changedFields(pick(liveState(other), keys), routine.state).map((field) => field.path);
    const fields = fromConfig.length > 0 || reference === undefined ? fromConfig : changedFields(liveState(other), reference).map((field) => field.path);
    const against = fromConfig.length > 0 || reference === undefined ? 'the config' : `${keeper!.id} where the config is silent`;
    parts.push(`${other.id} differs from ${against} (${fields.join(', ')}): steward never deletes it on its own`);
  }
  const manual = differing.length > 0 || keeper === undefined || isProtected ? 'rename or delete the routines you do not want in the app, ' : '';
  return `${parts.join('; ')}; ${manual}then plan again`;
}

/** The fields on which a live routine differs from the config that the update cannot change in place. */
function differingForcingFields(live: Routine, desired: RoutineState, update: RoutineUpdate): string[] {
  const differing = changedFields(pick(liveState(live), Object.keys(desired)), desired);
  return replacingFields(update, topLevel(differing), desired);
}

/** The top-level names of changed fields (`destination.recipientEmails` is `destination`), once each. */
function topLevel(fields: readonly { path: string }[]): string[] {
  return [...new Set(fields.map((field) => field.path.split('.')[0]!))];
}

/** Deletes, each live routine of an expired entry (`until:` passed, `onExpiry: delete`); refused for a protected one. */
function expiredRoutineDeletes(routine: DesiredRoutine, candidates: readonly Routine[], owner: RoutineOwner, expired: string): PlanStep<'routines'>[] {
  if (candidates.length > 0 && routine.protect) {
    throw protectedError(`routine "${routine.state.name}"`, `its \`until\` has passed (${expired}), which deletes it`, {
      hint: 'write `onExpiry: pause` to keep it, paused; or remove `protect: true` if the deletion is intended',
      details: { configPaths: [['routines', routine.index, 'until'], ['routines', routine.index, 'protect']] },
    });
  }
  return candidates.map((candidate) => ({
    ...baseStep(owner, candidate.name, candidates.length > 1 ? candidate.id : undefined),
    ref: { ...ownerRef(owner), routineId: candidate.id },
    action: 'delete' as const,
    before: { ...liveState(candidate) },
    reason: `${expired}: deleted`,
  }));
}

/** For each declared routine (config order), the model id of the routine the steps create for it (a replacement is a create), if any. */
function createdModels(steps: readonly PlanStep<'routines'>[], declared: readonly DesiredRoutine[]): (string | undefined)[] {
  const created = new Map<string, unknown>();
  for (const step of steps) if (step.action === 'create' || step.action === 'replace') created.set(step.id, step.after.modelId);
  return declared.map((routine) => {
    const modelId = created.get(baseStep(routine.owner, routine.state.name).id);
    return typeof modelId === 'string' ? modelId : undefined;
  });
}

/** Where the config writes a routine's state field: `model:` for a model named by name. */
function routineFieldPath(routine: DesiredRoutine, field: string): ConfigPath {
  return ['routines', routine.index, routine.writtenAs[field as keyof RoutineState] ?? field];
}

function baseStep(owner: RoutineOwner, name: string, routineId?: string) {
  const key = owner.display === undefined ? name : `${owner.display}/${name}`;
  return {
    id: `routines/${owner.key}/${name}${routineId === undefined ? '' : `#${routineId}`}`,
    kind: 'routines' as const,
    key,
    dependsOn: [],
    ref: ownerRef(owner),
  };
}

function ownerRef(owner: RoutineOwner): RoutineRef {
  return owner.userId === undefined ? {} : { ownerId: owner.userId };
}

function nameOf(step: PlanStep<'routines'>): string {
  return String(step.action === 'delete' ? step.before.name : step.after.name);
}

function upperFirst(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
