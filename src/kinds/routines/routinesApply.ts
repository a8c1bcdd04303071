// Carrying out routine steps. Two rules shape this file: an update is sent exactly as the plan
// says (the documented PUT, or where the environment says the server has it, the generated
// client's PATCH for what it carries and PUT for model and pause), never probing for the other;
// and a create whose response was lost is looked up by name before it is ever sent again, so it
// cannot become a duplicate.
import type { PlatformApi } from '../../api/platform.js';
import { isMethodNotAllowed, isNotFound, isOutcomeUnknown, type ApiError } from '../../api/errors.js';
import type { Routine, RoutineCreate, RoutinePatch, RoutinePut } from '../../api/types.js';
import { StewardError, unreachable } from '../../errors.js';
import type { CreateStep, PlanStep, ReplaceStep, UpdateStep } from '../../model/plan.js';
import { matches, pick } from '../../model/fields.js';
import { type ApplyContext, type ReadBackVerdict } from '../../model/kind.js';
import { createOnceMore, expectTaken } from '../shared.js';
import { settleRaces, type CreatedByStep } from './routineRaces.js';
import { liveState, MODEL_PARTS, PATCH_CARRIES, PUT_CARRIES, routineStateOf, type LiveRoutines, type RoutineState } from './routineState.js';

/** Applies routine steps in order; each step's failure is recorded and the others go on. */
export async function applyRoutineSteps(steps: PlanStep<'routines'>[], context: ApplyContext): Promise<void> {
  const writer = new RoutineWriter(context.api, context.live as LiveRoutines);
  for (const step of steps) await context.attempt([step], () => writer.run(step));
  // Another run may have created the same routines meanwhile: remove the copies (routineDuplicates.ts).
  if (writer.created.length > 0) await settleRaces(writer.created, context);
}

/**
 * Write requests of routine steps: a replacement creates and deletes; pausing a new routine is a
 * PUT of its own; an update is one PUT, or with `patch` one PATCH for what it carries and one PUT
 * for model and pause.
 */
export function routineWriteRequests(steps: readonly PlanStep<'routines'>[]): number {
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
        const { byPatch, byPut } = updateRequests(step);
        requests += (byPatch.length > 0 ? 1 : 0) + (byPut.length > 0 ? 1 : 0);
        break;
      }
      case 'delete':
        requests += 1;
        break;
      default:
        unreachable(step);
    }
  }
  // After creating, one list per owner to settle a race with a concurrent run (routineRaces.ts).
  const creators = steps.filter((step) => step.action === 'create' || step.action === 'replace');
  return requests + new Set(creators.map((step) => step.ref.ownerId ?? '')).size;
}

/**
 * The changed fields of an update, split by the request that carries them: with `ref.update`
 * `patch`, PATCH takes what it carries and PUT the rest (model, pause); otherwise PUT takes all.
 */
function updateRequests(step: UpdateStep<'routines'>): { byPatch: string[]; byPut: string[] } {
  const changed = [...new Set(step.fields.map((field) => field.path.split('.')[0]!))];
  if (step.ref.update !== 'patch') return { byPatch: [], byPut: changed };
  return { byPatch: changed.filter((field) => PATCH_CARRIES.has(field)), byPut: changed.filter((field) => !PATCH_CARRIES.has(field)) };
}

/**
 * Reading back a replacement: the old routine still there beside a new one equal to the config
 * means it was created but the old one not deleted; the generic judgement would call it done.
 */
export function readBackRoutine(step: PlanStep<'routines'>, live: LiveRoutines): ReadBackVerdict {
  if (step.action !== 'replace' || step.ref.routineId === undefined) return undefined;
  const namesakes = (live.get(step.ref.ownerId ?? '') ?? []).filter((routine) => routine.name === String(step.after.name));
  const old = namesakes.find((routine) => routine.id === step.ref.routineId);
  const created = namesakes.find((routine) => routine.id !== step.ref.routineId && matches(pick(liveState(routine), Object.keys(step.after)), step.after));
  if (old === undefined || created === undefined) return undefined;
  return { found: `the new routine ${created.id} exists, but the old one ${old.id} is still there`, remedy: 'the next apply deletes it' };
}

class RoutineWriter {
  /** Routines this run created (or found created after a lost answer), for the race check. */
  readonly created: CreatedByStep[] = [];

  constructor(
    private readonly api: PlatformApi,
    private readonly live: LiveRoutines,
  ) {}

  async run(step: PlanStep<'routines'>): Promise<void> {
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
      default:
        return unreachable(step);
    }
  }

  /** Creates a routine; if the response was lost, finds it by name before trying again. */
  private async create(step: CreateStep<'routines'> | ReplaceStep<'routines'>, options: { userId: string } | undefined, knownIds: string[]): Promise<void> {
    const state = routineStateOf(step.after);
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

  private async update(routine: Routine, step: UpdateStep<'routines'>, options: { userId: string } | undefined): Promise<void> {
    // The step's fields over the live routine's: what the routine is to be once updated.
    const state = routineStateOf({ ...liveState(routine), ...step.after });
    const what = `updating routine "${routine.name}"`;
    const { byPatch, byPut } = updateRequests(step);
    if (byPatch.length > 0) {
      try {
        const patched = await this.api.patchRoutine(routine.id, patchBody(state, byPatch), options);
        expectTaken(what, pick(step.after, byPatch), stateOf(patched));
      } catch (error) {
        if (!isMethodNotAllowed(error)) throw error;
        throw new StewardError('apply.no-patch', `${what}: this server answers PATCH with 405 Method Not Allowed: it updates routines only by the documented PUT, but this environment says \`routineUpdate: patch\``, 'user', {
          hint: 'remove `routineUpdate: patch` from the environment (PUT is the default) and plan again: a timezone or destination change then replaces the routine',
          cause: error,
        });
      }
    }
    if (byPut.length > 0) await this.put(routine.id, state, byPut, what, options);
  }

  /**
   * One documented PUT: name, prompt and schedule (which it requires), and of `fields` the
   * description, the model and the pause (`isActive`); nothing it does not document.
   */
  private async put(id: string, state: RoutineState, fields: readonly string[], what: string, options: { userId: string } | undefined): Promise<void> {
    // The branch and topic a new model clears are carried by the model change itself.
    const clearedByModel = (field: string) => fields.includes('modelId') && (MODEL_PARTS as readonly string[]).includes(field) && state[field as keyof RoutineState] === null;
    const uncarried = fields.filter((field) => !PUT_CARRIES.has(field) && !clearedByModel(field));
    if (uncarried.length > 0) {
      throw new StewardError('apply.invalid-step', `${what}: ${uncarried.join(', ')} cannot change by PUT; the plan should have replaced the routine`, 'tool');
    }
    const body: RoutinePut = { name: state.name, prompt: state.prompt, schedule: state.schedule };
    if (fields.includes('description')) body.description = state.description ?? null;
    if (fields.includes('modelId')) body.modelId = state.modelId;
    if (fields.includes('paused')) body.isActive = !state.paused;
    let answer: Routine;
    try {
      answer = await this.api.putRoutine(id, body, options);
    } catch (error) {
      if (!isMethodNotAllowed(error)) throw error;
      throw new StewardError('apply.no-put', `${what}: this server answers the documented PUT with 405 Method Not Allowed (${(error as ApiError).serverMessage ?? 'no reason given'})`, 'server', {
        hint: 'the routine was left as it is; change it in the app, or ask the platform which update it takes',
        cause: error,
      });
    }
    // What the model change clears is the server's doing, not a value sent: not checked.
    expectTaken(what, pick(state, fields.filter((field) => !clearedByModel(field))), stateOf(answer));
  }

  /** Pauses or resumes with the documented PUT's `isActive`. */
  private async setActive(id: string, state: RoutineState, isActive: boolean, options: { userId: string } | undefined): Promise<void> {
    await this.put(id, { ...state, paused: !isActive }, ['paused'], `${isActive ? 'resuming' : 'pausing'} routine "${state.name}"`, options);
  }

  private liveRoutine(step: PlanStep<'routines'>, name: string): Routine {
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
  return { ...liveState(routine) };
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

function patchBody(after: RoutineState, fields: readonly string[]): RoutinePatch {
  const body: RoutinePatch = {};
  for (const field of fields) {
    if (field === 'name' || field === 'prompt' || field === 'schedule' || field === 'timezone') body[field] = after[field];
    else if (field === 'description') body.description = after.description ?? null;
    else if (field === 'destination') body.destination = after.destination;
  }
  return body;
}
