// Live routines → the `routines:` section of a configuration, for export and promotion. Pure: the
// inverse of `desired`, so the section plans to nothing against the routines it was read from.
// Every compared field is written (nulls too, so they are managed); the model and branch by name
// where that names exactly one; server-managed fields (lastRun, timestamps) are left out, but say
// whether a routine works where it is (health, for a promotion). A promotion then gives each
// routine the config's own flags for it, and says whose routines the source lacks.
import type { ModelRecord, Routine } from '../../api/types.js';
import type { RoutineConfig, StewardConfig } from '../../config/types.js';
import { emailKey } from '../../domain/rules.js';
import { StewardError } from '../../errors.js';
import type { UnhealthyObject } from '../../model/kind.js';
import type { PlanWarning } from '../../model/plan.js';
import { compareText, withOwnFlags } from '../shared.js';
import { liveState } from './routineState.js';

/** The routines of one owner: `owner` undefined is the API key's own user (routines without `owner:`). */
export interface LiveOwnerRoutines {
  owner: string | undefined;
  routines: Routine[];
}

/** What export reads of routines: each owner's, and the shared models with their branches, which routines name by name. */
export interface RoutineSnapshot {
  owners: LiveOwnerRoutines[];
  models: ModelRecord[];
}

/**
 * Every routine with every field steward compares (`paused` only when true, its default being
 * false), sorted by owner (the key's own first) and name. Throws when two routines share a name,
 * which a configuration cannot express.
 */
export function routinesConfig(live: readonly LiveOwnerRoutines[], models: readonly ModelRecord[] = []): RoutineConfig[] {
  const seen = new Map<string, string | undefined>();
  const result: RoutineConfig[] = [];
  for (const { owner, routines } of live) {
    for (const routine of routines) {
      if (seen.has(routine.name)) throw duplicateRoutine(routine.name, seen.get(routine.name), owner);
      seen.set(routine.name, owner);
      result.push(routineConfig(routine, owner, models));
    }
  }
  return result.sort((a, b) => compareText(a.owner ?? '', b.owner ?? '') || compareText(a.name, b.name));
}

/**
 * One routine as the config writes it; `owner` undefined is the API key's own user. The model and
 * branch are written by name (the same in every deployment) where `models` names them once; an
 * id where the name is ambiguous or the model is not among them.
 */
export function routineConfig(routine: Routine, owner: string | undefined, models: readonly ModelRecord[] = []): RoutineConfig {
  const state = liveState(routine);
  return {
    name: state.name,
    ...(owner === undefined ? {} : { owner }),
    description: state.description ?? null,
    prompt: state.prompt,
    schedule: state.schedule,
    timezone: state.timezone,
    ...modelReference(state.modelId, state.branchId ?? null, models),
    topicName: state.topicName ?? null,
    destination: state.destination,
    ...(state.paused ? { paused: true } : {}),
  };
}

/** `model:` and `branch:` by name where each names exactly one, else `modelId:` / `branchId:`. */
export function modelReference(modelId: string, branchId: string | null, models: readonly ModelRecord[]): Pick<RoutineConfig, 'model' | 'modelId' | 'branch' | 'branchId'> {
  const model = models.find((candidate) => candidate.id === modelId);
  const name = model?.name ?? null;
  if (model === undefined || name === null || models.filter((candidate) => candidate.name === name).length > 1) return { modelId, branchId };
  if (branchId === null) return { model: name, branch: null };
  const branch = (model.branches ?? []).find((candidate) => candidate.id === branchId);
  // A branch without a name (the vendor allows one) can only be written by id.
  const unique = branch !== undefined && branch.name !== null && (model.branches ?? []).filter((candidate) => candidate.name === branch.name).length === 1;
  return unique && branch.name !== null ? { model: name, branch: branch.name } : { model: name, branchId };
}

/** The routines as a file writes them: an e-mail destination's empty recipient lists left out, which is what absent means. */
export function writtenRoutines(routines: readonly RoutineConfig[]): RoutineConfig[] {
  return routines.map((routine) => {
    if (routine.destination.type !== 'email') return routine;
    const { recipientEmails, userGroupIds, ...rest } = routine.destination;
    return {
      ...routine,
      destination: {
        ...rest,
        ...(recipientEmails !== undefined && recipientEmails.length > 0 ? { recipientEmails } : {}),
        ...(userGroupIds !== undefined && userGroupIds.length > 0 ? { userGroupIds } : {}),
      },
    } as RoutineConfig;
  });
}

/** Whose routines an export holds, as people read it: the key's own user first (by e-mail where known). */
export function routineOwnersText(live: readonly LiveOwnerRoutines[], callerEmail: string | undefined): string {
  const ownerless = live.some((owner) => owner.owner === undefined);
  const self = ownerless ? [callerEmail ?? 'the API key\'s own user'] : [];
  const named = live.flatMap((owner) => (owner.owner === undefined ? [] : [owner.owner]));
  return [...self, ...named.filter((owner) => !self.some((email) => emailKey(email) === owner))].join(', ');
}

/**
 * Run states that mean the run did not deliver. The vendor documents `lastRun.state` as a string
 * without its values; these are the words a failed run is written with, in any case.
 */
const FAILED_STATE = /fail|error|timed?[\s_-]?out|abort|cancel/i;

/**
 * The routines that do not work where they were read: disabled by the platform (`systemDisabled`,
 * with its reason) or whose last run failed (`lastRun.state`). Both fields are server-managed and
 * read as they come: a server that leaves them out, or sends a form steward does not know, makes
 * no finding.
 */
export function unhealthyRoutines(owners: readonly LiveOwnerRoutines[]): UnhealthyObject[] {
  const found: UnhealthyObject[] = [];
  for (const { owner, routines } of owners) {
    for (const routine of routines) {
      const named = { name: routine.name, ...(owner === undefined ? {} : { owner }) };
      if ((routine.systemDisabled as unknown) === true) {
        const reason = typeof routine.systemDisabledReason === 'string' && routine.systemDisabledReason.trim() !== '' ? routine.systemDisabledReason.trim() : 'no reason given';
        found.push({ ...named, problem: 'platform-disabled', detail: `disabled by the platform (${reason})` });
        continue;
      }
      const lastRun = routine.lastRun as unknown;
      const state = typeof lastRun === 'object' && lastRun !== null ? (lastRun as { state?: unknown }).state : undefined;
      if (typeof state === 'string' && FAILED_STATE.test(state)) {
        const completedAt = (lastRun as { completedAt?: unknown }).completedAt;
        found.push({ ...named, problem: 'last-run-failed', detail: `its last run ${typeof completedAt === 'string' ? `(${completedAt}) ` : ''}ended \`${state}\`` });
      }
    }
  }
  return found;
}

/**
 * A promoted routine with the flags of the config's routine of its name (`declared`): `protect`,
 * `ignore`, and its former names, but for one the source still has as a routine of the same owner
 * (`promoted`: every routine of the source), which is no rename there.
 */
export function withRoutineFlags(routine: RoutineConfig, declared: RoutineConfig, promoted: readonly RoutineConfig[]): RoutineConfig {
  const owner = (candidate: RoutineConfig) => (candidate.owner === undefined ? '' : emailKey(candidate.owner));
  const kept = new Set(promoted.filter((other) => owner(other) === owner(routine)).map((other) => other.name));
  const renamedFrom = (declared.renamedFrom ?? []).filter((former) => !kept.has(former));
  return withOwnFlags({ ...routine, ...(renamedFrom.length > 0 ? { renamedFrom } : {}) }, declared);
}

/**
 * A warning for each owner the config names who has no routines in the source: a promotion
 * compares the routines of the owners the source has, so theirs in the target are left as they are.
 */
export function ownersWithoutRoutines(promoted: readonly RoutineConfig[], context: { config: StewardConfig; source: string; target: string }): PlanWarning[] {
  const withRoutines = new Set(promoted.map((routine) => (routine.owner === undefined ? '' : emailKey(routine.owner))));
  const owners = [...new Set((context.config.routines ?? []).flatMap((routine) => (routine.owner === undefined ? [] : [emailKey(routine.owner)])))];
  return owners
    .filter((owner) => !withRoutines.has(owner))
    .map((owner) => ({
      code: 'promote.owner-without-routines',
      message: `${owner} has no routines in ${context.source}, so their routines in ${context.target} are left as they are (a promotion compares the routines of owners the source has)`,
    }));
}

function duplicateRoutine(name: string, first: string | undefined, second: string | undefined): StewardError {
  const whose = (owner: string | undefined) => (owner === undefined ? 'the API key\'s user' : owner);
  const owners = first === second ? `both owned by ${whose(first)}` : `owned by ${whose(first)} and by ${whose(second)}`;
  return new StewardError(
    'export.duplicate-routine',
    `two live routines are named "${name}" (${owners}); a configuration identifies routines by name, so it cannot hold both`,
    'user',
    { hint: 'rename or delete one of them in the app, then run the command again' },
  );
}
