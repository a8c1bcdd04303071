// The compared state of a routine, from config or from the API. Server-managed fields
// (lastRun, recipientCount, systemDisabled, timestamps) are not part of it, so they never diff.
import type { Routine, RoutineDestination } from '../../api/types.js';
import type { RoutineConfig } from '../../config/types.js';
import { emailKey } from '../../domain/rules.js';
import { StewardError } from '../../errors.js';
import type { FieldChange } from '../../model/plan.js';

/** Live routines per owner, keyed by listKey (the userId passed, or ''). */
export type LiveRoutines = Map<string, Routine[]>;

/** The fields steward compares. */
export interface RoutineState {
  name: string;
  prompt: string;
  schedule: string;
  timezone: string;
  modelId: string;
  branchId?: string | null;
  topicName?: string | null;
  description?: string | null;
  destination: RoutineDestination;
  paused: boolean;
}

/**
 * How a deployment updates routines (the environment's `routineUpdate`): `put`, the documented
 * PUT; `patch`, the generated client's PATCH beside it. No request probes which a server has: a
 * probe would itself be an undocumented request.
 */
export type RoutineUpdate = 'put' | 'patch';

/** The documented PUT changes these in place (name, prompt and schedule always sent). */
export const PUT_CARRIES: ReadonlySet<string> = new Set(['name', 'prompt', 'schedule', 'description', 'modelId', 'paused']);
/** The generated client's PATCH changes these in place; model and pause still go by PUT. */
export const PATCH_CARRIES: ReadonlySet<string> = new Set(['name', 'prompt', 'schedule', 'timezone', 'description', 'destination']);

/** What changes in place under each update, the rest replacing the routine (created anew, then the old one deleted). */
const IN_PLACE: Readonly<Record<RoutineUpdate, ReadonlySet<string>>> = {
  put: PUT_CARRIES,
  patch: new Set([...PATCH_CARRIES, ...PUT_CARRIES]),
};

/**
 * The fields of `changed` (top-level names) that replace the routine under `update`: those the
 * update cannot carry, and the model while a branch or topic is declared (they belong to a model,
 * and an update that moves the model leaves them behind).
 */
export function replacingFields(update: RoutineUpdate, changed: readonly string[], desired: Partial<RoutineState>): string[] {
  const keepsModelParts = (desired.branchId ?? null) !== null || (desired.topicName ?? null) !== null;
  return changed.filter((field) => !IN_PLACE[update].has(field) || (field === 'modelId' && keepsModelParts));
}

/** A routine's parts that belong to its model: an update that moves the model leaves them behind. */
export const MODEL_PARTS = ['branchId', 'topicName'] as const;

/**
 * What an in-place model change takes with it: the live branch and topic the config does not
 * manage (the update that moves the model clears them), as field changes to null, so the plan
 * says so. Nothing when the model does not change.
 */
export function clearedByModel(live: RoutineState, desired: RoutineState, changed: readonly string[]): FieldChange[] {
  if (!changed.includes('modelId')) return [];
  return MODEL_PARTS.filter((part) => !(part in desired) && (live[part] ?? null) !== null).map((part) => ({ path: part, before: live[part], after: null }));
}

/** The reason of an update whose new model clears a branch or topic the config does not manage. */
export function clearingReason(cleared: readonly FieldChange[]): string {
  const names = cleared.map((change) => (change.path === 'branchId' ? 'branch' : 'topic'));
  return `the new model clears its ${names.join(' and ')}, which the config does not manage (declare ${cleared.map((change) => `\`${change.path === 'branchId' ? 'branch' : 'topicName'}\``).join(' or ')} to keep one: the routine is then replaced)`;
}

/** Why such a change replaces the routine, for the step's reason. */
export function replacementReason(update: RoutineUpdate, fields: readonly string[]): string {
  return `${fields.join(', ')} cannot change in place by ${update === 'put' ? 'the documented PUT' : 'PATCH or PUT'}`;
}

/** What replacing a routine costs, said once in a plan that replaces any. */
export const REPLACEMENT_COST =
  'a replaced routine is created anew and the old one deleted: its run history is lost, and the new one counts toward its owner\'s active routines (a create past the limit fails with 429, and the old routine is then kept)';

/** The compared state of a live routine. */
export function liveState(routine: Routine): RoutineState {
  return {
    name: routine.name,
    prompt: routine.prompt,
    schedule: routine.schedule,
    timezone: routine.timezone,
    modelId: routine.modelId,
    branchId: routine.branchId,
    topicName: routine.topicName,
    description: routine.description,
    destination: normalizeDestination(routine.destination),
    paused: routine.disabled,
  };
}

/**
 * A routine step's `after` as its compared state. A plan is plain data (a saved one was checked
 * against the plan schema, which leaves a kind's state open), so each field is checked here: a
 * step edited into another shape is refused before anything is sent.
 */
export function routineStateOf(after: Readonly<Record<string, unknown>>): RoutineState {
  const refuse = (field: string): never => {
    throw new StewardError('plan-file.step', `a routine step's \`${field}\` is not what a plan writes`, 'user', { hint: 'make a new plan with `steward plan --out FILE`' });
  };
  const text = (field: string): string => (typeof after[field] === 'string' ? (after[field] as string) : refuse(field));
  const textOrNull = (field: string): string | null => (after[field] === null || typeof after[field] === 'string' ? (after[field] as string | null) : refuse(field));
  const state: RoutineState = {
    name: text('name'),
    prompt: text('prompt'),
    schedule: text('schedule'),
    timezone: text('timezone'),
    modelId: text('modelId'),
    destination: destinationOf(after.destination) ?? refuse('destination'),
    paused: typeof after.paused === 'boolean' ? after.paused : refuse('paused'),
  };
  if (after.branchId !== undefined) state.branchId = textOrNull('branchId');
  if (after.topicName !== undefined) state.topicName = textOrNull('topicName');
  if (after.description !== undefined) state.description = textOrNull('description');
  return state;
}

function destinationOf(value: unknown): RoutineDestination | undefined {
  if (value === null || typeof value !== 'object') return undefined;
  const destination = value as Record<string, unknown>;
  const texts = (list: unknown): list is string[] => Array.isArray(list) && list.every((item) => typeof item === 'string');
  if (destination.type === 'email' && texts(destination.recipientEmails) && texts(destination.userGroupIds)) {
    return { type: 'email', recipientEmails: destination.recipientEmails, userGroupIds: destination.userGroupIds };
  }
  if (destination.type === 'slack' && typeof destination.recipientId === 'string' && (destination.slackRecipientType === 'channel' || destination.slackRecipientType === 'users')) {
    return { type: 'slack', recipientId: destination.recipientId, slackRecipientType: destination.slackRecipientType };
  }
  return undefined;
}

/** The desired state of a configured routine: absent optional fields are not managed. */
export function desiredState(routine: RoutineConfig): RoutineState {
  // Planning resolves `model:` to an id first (src/resolve/models.ts).
  if (routine.modelId === undefined) throw new StewardError('internal.unresolved-model', `routine "${routine.name}": model "${routine.model}" was not resolved before use`, 'tool');
  const state: RoutineState = {
    name: routine.name,
    prompt: routine.prompt,
    schedule: routine.schedule,
    timezone: routine.timezone,
    modelId: routine.modelId,
    destination: normalizeDestination(routine.destination),
    paused: routine.paused === true,
  };
  if (routine.branchId !== undefined) state.branchId = routine.branchId;
  if (routine.topicName !== undefined) state.topicName = routine.topicName;
  if (routine.description !== undefined) state.description = routine.description;
  return state;
}

/** Recipients compare as sets: sorted, e-mails lower-cased. */
export function normalizeDestination(destination: RoutineConfig['destination']): RoutineDestination {
  if (destination.type === 'email') {
    return {
      type: 'email',
      recipientEmails: [...new Set((destination.recipientEmails ?? []).map(emailKey))].sort(),
      userGroupIds: [...new Set(destination.userGroupIds ?? [])].sort(),
    };
  }
  return { type: 'slack', recipientId: destination.recipientId, slackRecipientType: destination.slackRecipientType };
}
