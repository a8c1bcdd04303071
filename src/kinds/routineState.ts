// The compared state of a routine, from config or from the API. Server-managed fields
// (lastRun, recipientCount, systemDisabled, timestamps) are not part of it, so they never diff.
import type { Routine, RoutineDestination } from '../api/types.js';
import type { RoutineConfig } from '../config/types.js';
import { emailKey } from '../domain/rules.js';
import { StewardError } from '../errors.js';

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

/** Changing one of these cannot be done in place: the routine is replaced. */
export const REPLACE_FIELDS = ['modelId', 'branchId', 'topicName'] as const;

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

/** The desired state of a configured routine: absent optional fields are not managed. */
export function desiredState(routine: RoutineConfig): RoutineState {
  // Planning resolves `model:` to an id first (src/plan/models.ts).
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
export function normalizeDestination(destination: RoutineDestination): RoutineDestination {
  if (destination.type === 'email') {
    return {
      type: 'email',
      recipientEmails: [...new Set((destination.recipientEmails ?? []).map(emailKey))].sort(),
      userGroupIds: [...new Set(destination.userGroupIds ?? [])].sort(),
    };
  }
  return { type: 'slack', recipientId: destination.recipientId, slackRecipientType: destination.slackRecipientType };
}
