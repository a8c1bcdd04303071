// AI routines. Identity is the name within its owner (names are not unique on the server, so two
// live routines with one name are an ambiguity the user resolves). Changing the model, branch or
// topic replaces the routine: the new one is created before the old one is deleted.
import type { Routine } from '../api/types.js';
import { emailKey } from '../domain/rules.js';
import { StewardError } from '../errors.js';
import { changedFields, matches, pick } from '../plan/fields.js';
import type { PlanStep, PlanWarning } from '../plan/types.js';
import type { ResourceKind } from './kind.js';
import { protectedError, protectedInEnvironment, PRUNED_REASON } from './protection.js';
import { applyRoutineSteps } from './routinesApply.js';
import { REPLACE_FIELDS, desiredState, liveState, type RoutineState } from './routineState.js';

/** Whose routines: '' is the API key's own user; otherwise a user id (organization keys). */
export interface RoutineOwner {
  key: string;
  userId: string | undefined;
  display: string | undefined;
}

export interface DesiredRoutine {
  owner: RoutineOwner;
  state: RoutineState;
  protect: boolean;
}

export interface DesiredRoutines {
  routines: DesiredRoutine[];
  /** Every owner whose routines are read (and, with prune on, pruned). */
  owners: RoutineOwner[];
  prune: boolean;
  isProtected: (name: string) => boolean;
}

/** Live routines per owner key. */
export type LiveRoutines = Map<string, Routine[]>;

export const routines: ResourceKind<DesiredRoutines, LiveRoutines> = {
  kind: 'routines',
  readAfter: [],

  declared: (config) => config.routines !== undefined || config.prune?.routines === true,

  emails: (config) => (config.routines ?? []).flatMap((routine) => (routine.owner === undefined ? [] : [routine.owner])),

  desired({ config, environment, directory }) {
    const self: RoutineOwner = { key: '', userId: undefined, display: undefined };
    const owners = new Map<string, RoutineOwner>([['', self]]);
    const ownerOf = (email: string | undefined): RoutineOwner => {
      if (email === undefined) return self;
      const userId = directory.idOf(email);
      if (userId === directory.caller?.id) return self;
      const owner = owners.get(userId) ?? { key: userId, userId, display: emailKey(email) };
      owners.set(userId, owner);
      return owner;
    };
    return {
      routines: (config.routines ?? []).map((routine) => ({
        owner: ownerOf(routine.owner),
        state: desiredState(routine),
        protect: routine.protect === true,
      })),
      owners: [...owners.values()],
      prune: config.prune?.routines === true,
      isProtected: (name) => protectedInEnvironment(environment, 'routines', [name]),
    };
  },

  async read({ api }, desired) {
    const live: LiveRoutines = new Map();
    await Promise.all(
      desired.owners.map(async (owner) => {
        const list: Routine[] = [];
        const options = owner.userId === undefined ? undefined : { userId: owner.userId };
        for await (const routine of api.listRoutines(options)) list.push(routine);
        live.set(owner.key, list);
      }),
    );
    return live;
  },

  diff(desired, live) {
    const steps: PlanStep[] = [];
    const warnings: PlanWarning[] = [];
    for (const owner of desired.owners) {
      const own = desired.routines.filter((routine) => routine.owner.key === owner.key);
      const byName = groupByName(live.get(owner.key) ?? []);
      for (const routine of own) {
        const name = routine.state.name;
        const base = baseStep(owner, name);
        const candidates = byName.get(name) ?? [];
        byName.delete(name);
        if (candidates.length === 0) {
          steps.push({ ...base, action: 'create', after: { ...routine.state } });
          continue;
        }
        const keys = Object.keys(routine.state);
        const [match, leftovers] = pickLiveMatch(candidates, routine, keys, owner, routine.protect || desired.isProtected(name));
        for (const leftover of leftovers) {
          steps.push({
            ...baseStep(owner, name, leftover.id),
            action: 'delete',
            before: pick(liveState(leftover), keys),
            ref: { ...ownerRef(owner), routineId: leftover.id },
            reason: `a second routine of this name on another ${differingForcingFields(leftover, routine.state).join('/')}, left over from an interrupted replacement`,
          });
        }
        const before = pick(liveState(match), keys);
        const fields = changedFields(before, routine.state);
        if (fields.length === 0) continue;
        const forcing = fields.filter((field) => (REPLACE_FIELDS as readonly string[]).includes(field.path));
        const ref = { ...ownerRef(owner), routineId: match.id };
        if (forcing.length === 0) {
          steps.push({ ...base, ref, action: 'update', before, after: { ...routine.state }, fields });
          continue;
        }
        if (routine.protect) {
          throw protectedError(`routine "${name}"`, `changing ${forcing.map((f) => f.path).join(', ')} replaces it`);
        }
        steps.push({
          ...base,
          ref,
          action: 'replace',
          before,
          after: { ...routine.state },
          fields,
          reason: `${forcing.map((field) => field.path).join(', ')} cannot change in place`,
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
            before: liveState(routine) as unknown as Record<string, unknown>,
            reason: PRUNED_REASON,
          });
        }
      }
    }
    return { steps, warnings };
  },

  current(step, live) {
    const list = (live.get(step.ref.ownerId ?? '') ?? []).filter((routine) => routine.name === nameOf(step));
    const keys = Object.keys(step.action === 'delete' ? step.before : step.after);
    // A step aimed at one routine among namesakes (a leftover) follows its id.
    const routine = step.ref.routineId !== undefined && step.action === 'delete'
      ? list.find((candidate) => candidate.id === step.ref.routineId)
      : list.length === 1 ? list[0] : list.find((candidate) => matches(pick(liveState(candidate), keys), 'after' in step ? step.after : step.before));
    return routine === undefined ? undefined : pick(liveState(routine), keys);
  },

  apply: (steps, context) => applyRoutineSteps(steps, context.api, context.live as LiveRoutines),
};

function groupByName(list: Routine[]): Map<string, Routine[]> {
  const byName = new Map<string, Routine[]>();
  for (const routine of list) byName.set(routine.name, [...(byName.get(routine.name) ?? []), routine]);
  return byName;
}

/**
 * The live routine a declared one corresponds to. With namesakes, steward goes on only in the
 * one situation it can explain: an interrupted replacement, which leaves the new routine (equal
 * to the config) beside the old one (on another model, branch or topic, which cannot change in
 * place). Then the old ones are leftovers to delete, unless the routine is protected. Anything
 * else is an ambiguity for the user: steward never picks one silently.
 */
function pickLiveMatch(
  candidates: Routine[],
  routine: DesiredRoutine,
  keys: string[],
  owner: RoutineOwner,
  isProtected: boolean,
): [Routine, Routine[]] {
  if (candidates.length === 1) return [candidates[0]!, []];
  const equal = candidates.filter((candidate) => matches(pick(liveState(candidate), keys), routine.state));
  const others = candidates.filter((candidate) => !equal.includes(candidate));
  const leftovers = equal.length === 1 && !isProtected && others.every((other) => differingForcingFields(other, routine.state).length > 0);
  if (leftovers) return [equal[0]!, others];
  const whose = owner.display === undefined ? 'this API key\'s user' : owner.display;
  throw new StewardError(
    'plan.ambiguous-routine',
    `${candidates.length} live routines owned by ${whose} are named "${routine.state.name}" (ids ${candidates.map((c) => c.id).join(', ')}); steward identifies routines by name and will not pick one`,
    'user',
    { hint: 'rename or delete the extra routines in the app, then plan again' },
  );
}

/** The replace-forcing fields (model, branch, topic) on which a live routine differs from the config. */
function differingForcingFields(live: Routine, desired: RoutineState): string[] {
  const state = liveState(live) as unknown as Record<string, unknown>;
  const wanted = desired as unknown as Record<string, unknown>;
  return REPLACE_FIELDS.filter((field) => field in wanted && state[field] !== wanted[field]);
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

function ownerRef(owner: RoutineOwner): Record<string, string> {
  return owner.userId === undefined ? {} : { ownerId: owner.userId };
}

function nameOf(step: PlanStep): string {
  return String(step.action === 'delete' ? step.before.name : step.after.name);
}
