// Carrying out routine steps. Two rules from the API's gaps shape this file: an update is a
// PATCH, retried once as a full PUT when the server answers 405; and a create whose response was
// lost is looked up by name before it is ever sent again, so it cannot become a duplicate.
import type { PlatformApi } from '../api/platform.js';
import { isMethodNotAllowed, isNotFound, isOutcomeUnknown } from '../api/errors.js';
import type { Routine, RoutineCreate, RoutinePatch, RoutinePut } from '../api/types.js';
import { StewardError } from '../errors.js';
import type { CreateStep, PlanStep, ReplaceStep } from '../plan/types.js';
import { matches, pick } from '../plan/fields.js';
import { createOnceMore, expectTaken, type ApplyContext, type ReadBackVerdict } from './kind.js';
import type { LiveRoutines } from './routines.js';
import { settleRaces, type CreatedByStep } from './routineRaces.js';
import { liveState, type RoutineState } from './routineState.js';

/** Applies routine steps in order; each step's failure is recorded and the others go on. */
export async function applyRoutineSteps(steps: PlanStep[], context: ApplyContext): Promise<void> {
  const writer = new RoutineWriter(context.api, context.live as LiveRoutines);
  for (const step of steps) await context.attempt([step], () => writer.run(step));
  // Another run may have created the same routines meanwhile: remove the copies (routineDuplicates.ts).
  if (writer.created.length > 0) await settleRaces(writer.created, context);
}

/** Write requests of routine steps: a replacement creates and deletes; a pause or resume is a PUT of its own. */
export function routineWriteRequests(steps: readonly PlanStep[]): number {
  let requests = 0;
  for (const step of steps) {
    switch (step.action) {
      case 'create':
        requests += step.after.paused === true ? 2 : 1;
        break;
      case 'replace':
        requests += step.after.paused === true ? 3 : 2;
        break;
      case 'update': {
        const changed = new Set(step.fields.map((field) => field.path.split('.')[0]!));
        requests += (changed.has('paused') ? 1 : 0) + ([...changed].some((field) => field !== 'paused') ? 1 : 0);
        break;
      }
      case 'delete':
        requests += 1;
        break;
    }
  }
  // After creating, one list per owner to settle a race with a concurrent run (routineRaces.ts).
  const creators = steps.filter((step) => step.action === 'create' || step.action === 'replace');
  return requests + new Set(creators.map((step) => step.ref.ownerId ?? '')).size;
}

/**
 * Reading back a replacement: the old routine still there beside a new one equal to the config
 * means it was created but the old one not deleted; the generic judgement would call it done.
 */
export function readBackRoutine(step: PlanStep, live: LiveRoutines): ReadBackVerdict {
  if (step.action !== 'replace' || step.ref.routineId === undefined) return undefined;
  const namesakes = (live.get(step.ref.ownerId ?? '') ?? []).filter((routine) => routine.name === String(step.after.name));
  const old = namesakes.find((routine) => routine.id === step.ref.routineId);
  const created = namesakes.find((routine) => routine.id !== step.ref.routineId && matches(pick(liveState(routine), Object.keys(step.after)), step.after));
  if (old === undefined || created === undefined) return undefined;
  return { found: `the new routine ${created.id} exists, but the old one ${old.id} is still there (the next apply deletes it)` };
}

class RoutineWriter {
  /** Routines this run created (or found created after a lost answer), for the race check. */
  readonly created: CreatedByStep[] = [];
  /** Whether the server updates by PATCH; learnt from its first 405. */
  private patchWorks = true;

  constructor(
    private readonly api: PlatformApi,
    private readonly live: LiveRoutines,
  ) {}

  async run(step: PlanStep): Promise<void> {
    const options = step.ref.ownerId === undefined ? undefined : { userId: step.ref.ownerId };
    switch (step.action) {
      case 'create':
        await this.create(step, options, []);
        return;
      case 'update': {
        const routine = this.liveRoutine(step, String(step.after.name));
        await this.update(routine, step, options);
        return;
      }
      case 'replace': {
        const old = this.liveRoutine(step, String(step.before.name));
        await this.create(step, options, [old.id]);
        await this.deleteReplaced(old.id, options);
        return;
      }
      case 'delete':
        await this.api.deleteRoutine(step.ref.routineId ?? this.liveRoutine(step, String(step.before.name)).id, options);
        return;
    }
  }

  /** Creates a routine; if the response was lost, finds it by name before trying again. */
  private async create(step: CreateStep | ReplaceStep, options: { userId: string } | undefined, knownIds: string[]): Promise<void> {
    const state = step.after as unknown as RoutineState;
    const body = createBody(state);
    const existingIds = new Set([...knownIds, ...this.namesakes(options?.userId, state.name).map((r) => r.id)]);
    let id: string;
    try {
      ({ id } = await this.api.createRoutine(body, options));
    } catch (error) {
      if (!isOutcomeUnknown(error)) throw error;
      const created = await this.findCreated(options, state.name, existingIds);
      id = created?.id ?? (await createOnceMore(() => this.api.createRoutine(body, options))).id;
    }
    if (state.paused) await this.pauseOrUndo(id, state, options);
    // In place: now a concurrent run's copy can be told from this one, after the creates.
    const known = new Set((this.live.get(options?.userId ?? '') ?? []).map((routine) => routine.id));
    this.created.push({ step, id, state, known, ownerId: options?.userId });
  }

  /** Pauses a routine just created; if that fails, deletes it rather than leave it running. */
  private async pauseOrUndo(id: string, state: RoutineState, options: { userId: string } | undefined): Promise<void> {
    try {
      await this.pauseCreated(id, state, options);
    } catch (error) {
      // A routine meant to be paused must not be left running: take the new one away again.
      await this.api.deleteRoutine(id, options);
      throw new StewardError('apply.cannot-pause', `${(error as Error).message}; the new routine was deleted again rather than left active`, 'server', {
        cause: error,
      });
    }
  }

  /**
   * Pauses a routine just created. A lost answer is read back (the routine is ours, by id): only
   * if it still runs is the pause sent once more.
   */
  private async pauseCreated(id: string, state: RoutineState, options: { userId: string } | undefined): Promise<void> {
    try {
      await this.setActive(id, state, false, options);
    } catch (error) {
      if (!isOutcomeUnknown(error)) throw error;
      if ((await this.api.getRoutine(id, options)).disabled) return;
      await this.setActive(id, state, false, options);
    }
  }

  /**
   * Deletes the routine a replacement supersedes. The new routine exists by now, so a lost
   * answer (or a 404 after one) is read back by id rather than left for a re-run to untangle.
   */
  private async deleteReplaced(id: string, options: { userId: string } | undefined): Promise<void> {
    try {
      await this.api.deleteRoutine(id, options);
    } catch (error) {
      if (!isOutcomeUnknown(error) && !isNotFound(error)) throw error;
      try {
        await this.api.getRoutine(id, options);
      } catch (lookup) {
        if (isNotFound(lookup)) return;
        throw lookup;
      }
      await this.api.deleteRoutine(id, options);
    }
  }

  private async findCreated(options: { userId: string } | undefined, name: string, existingIds: Set<string>): Promise<Routine | undefined> {
    for await (const routine of this.api.listRoutines(options)) {
      if (routine.name === name && !existingIds.has(routine.id)) return routine;
    }
    return undefined;
  }

  private async update(routine: Routine, step: PlanStep & { action: 'update' }, options: { userId: string } | undefined): Promise<void> {
    const after = step.after as unknown as Partial<RoutineState>;
    const changed = new Set(step.fields.map((field) => field.path.split('.')[0]!));
    const content = [...changed].filter((field) => field !== 'paused');
    const what = `updating routine "${routine.name}"`;
    if (content.length > 0) {
      if (this.patchWorks) {
        try {
          const patched = await this.api.patchRoutine(routine.id, patchBody(after, content), options);
          expectTaken(what, pick(after, content), stateOf(patched));
        } catch (error) {
          if (!isMethodNotAllowed(error)) throw error;
          this.patchWorks = false;
        }
      }
      if (!this.patchWorks) {
        // The full body carries `isActive` too, so a pause or resume rides along.
        const put = await this.api.putRoutine(routine.id, putBody(routine, after), options);
        expectTaken(what, pick(after, [...changed]), stateOf(put));
        return;
      }
    }
    if (changed.has('paused')) await this.setActive(routine.id, { ...liveState(routine), ...after } as RoutineState, !after.paused, options);
  }

  /**
   * Pauses or resumes with `isActive`, which only the documented PUT carries (the newer PATCH
   * has no such field). A server that answers PUT with 405 cannot do it through the API.
   */
  private async setActive(id: string, state: RoutineState, isActive: boolean, options: { userId: string } | undefined): Promise<void> {
    try {
      const put = await this.api.putRoutine(id, { ...putFromState(state), isActive }, options);
      expectTaken(`${isActive ? 'resuming' : 'pausing'} routine "${state.name}"`, { paused: !isActive }, stateOf(put));
    } catch (error) {
      if (!isMethodNotAllowed(error)) throw error;
      throw new StewardError(
        'apply.cannot-pause',
        `cannot ${isActive ? 'resume' : 'pause'} routine "${state.name}": this server updates routines only by PATCH, which has no isActive (PUT answers 405 Method Not Allowed)`,
        'server',
        { hint: `${isActive ? 'resume' : 'pause'} it in the app, or remove \`paused\` from the config` },
      );
    }
  }

  private liveRoutine(step: PlanStep, name: string): Routine {
    const list = this.namesakes(step.ref.ownerId, name);
    // By id among all the owner's routines: a rename's routine is still under its former name.
    const byId = step.ref.routineId === undefined ? undefined : (this.live.get(step.ref.ownerId ?? '') ?? []).find((routine) => routine.id === step.ref.routineId);
    if (byId) return byId;
    if (list.length === 1) return list[0]!;
    throw new StewardError('apply.routine-missing', `routine "${name}" is ${list.length === 0 ? 'no longer there' : 'ambiguous'}`, 'user');
  }

  private namesakes(ownerId: string | undefined, name: string): Routine[] {
    return (this.live.get(ownerId ?? '') ?? []).filter((routine) => routine.name === name);
  }
}

/** A routine in an answer, as the plan compares routines. */
function stateOf(routine: Routine): Record<string, unknown> {
  return liveState(routine) as unknown as Record<string, unknown>;
}

function createBody(state: RoutineState): RoutineCreate {
  const body: RoutineCreate = {
    name: state.name,
    prompt: state.prompt,
    schedule: state.schedule,
    timezone: state.timezone,
    modelId: state.modelId,
    destination: state.destination,
  };
  if (state.branchId !== undefined) body.branchId = state.branchId;
  if (state.topicName !== undefined) body.topicName = state.topicName;
  if (state.description !== undefined) body.description = state.description;
  return body;
}

function patchBody(after: Partial<RoutineState>, fields: string[]): RoutinePatch {
  const body: RoutinePatch = {};
  for (const field of fields) {
    if (field === 'name' || field === 'prompt' || field === 'schedule' || field === 'timezone') body[field] = after[field]!;
    else if (field === 'description') body.description = after.description ?? null;
    else if (field === 'destination') body.destination = after.destination!;
  }
  return body;
}

function putFromState(state: RoutineState): RoutinePut {
  return {
    name: state.name,
    prompt: state.prompt,
    schedule: state.schedule,
    timezone: state.timezone,
    description: state.description ?? null,
    modelId: state.modelId,
    destination: state.destination,
  };
}

/** The full PUT body: the live routine with the desired fields laid over it. */
function putBody(routine: Routine, after: Partial<RoutineState>): RoutinePut {
  const state = { ...liveState(routine), ...after } as RoutineState;
  return { ...putFromState(state), isActive: !state.paused };
}
