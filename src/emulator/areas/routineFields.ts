// Validation of routine bodies (create, PATCH, PUT) the way the platform answers: 400 for a
// malformed field (destination, schedule, timezone, ...), then 404 for a model, branch or topic
// that does not exist or that the routine's owner cannot use.
import type { Routine, RoutineDestination } from '../../api/types.js';
import {
  EMAIL_PATTERN,
  ROUTINE_NAME_MAX,
  SLACK_ID_RULE,
  SLACK_RECIPIENT_PATTERN,
  UUID_PATTERN,
} from '../../domain/rules.js';
import { canonicalSchedule, checkSchedule, checkTimeZone } from '../../domain/schedule.js';
import { badRequest, forbidden, notFound } from '../http.js';
import { modelRoleOf, permissionsOf, type EmulatorState, type StoredModel, type StoredUser } from '../state.js';
import {
  isObject,
  nullableString,
  rejectUnknownFields,
  stringArray,
  stringValue,
  type JsonObject,
} from '../validate.js';

/** The routine fields a client may set (on create). */
export type RoutineFields = Pick<Routine, (typeof CREATE_FIELDS)[number]>;

export const CREATE_FIELDS = [
  'name', 'prompt', 'schedule', 'timezone', 'modelId', 'destination', 'branchId', 'description', 'topicName',
] as const;
/** The generated client's PATCH: every field optional; no isActive, model, branch or topic. */
export const PATCH_FIELDS = ['name', 'prompt', 'schedule', 'timezone', 'description', 'destination'] as const;
/** The documented PUT: name, prompt and schedule required; no timezone, destination, branch or topic. */
export const PUT_FIELDS = ['name', 'prompt', 'schedule', 'description', 'modelId', 'isActive'] as const;

/** 400 for a field outside `allowed`, with a pointer for the usual mistakes. */
export function rejectUnknownRoutineFields(body: JsonObject, allowed: readonly string[]): void {
  if ('destinations' in body) {
    throw badRequest('destinations', 'unknown field (a routine has exactly one `destination`; create one routine per destination)');
  }
  rejectUnknownFields(body, allowed);
}

/** 400 unless a required field is present. */
export function requireFields(body: JsonObject, fields: readonly string[]): void {
  const missing = fields.find((field) => body[field] === undefined);
  if (missing !== undefined) throw badRequest(missing, 'is required');
}

/** The name: 1..255 characters, not blank. */
export function parseName(value: unknown): string {
  return stringValue(value, 'name', { min: 1, max: ROUTINE_NAME_MAX });
}

/** The prompt: a non-blank string. */
export function parsePrompt(value: unknown): string {
  return stringValue(value, 'prompt', { min: 1 });
}

/** A six-field cron, at most hourly, that runs at least once after `now` (src/domain/schedule.ts), stored normalised. */
export function parseSchedule(value: unknown, now: Date): string {
  const schedule = stringValue(value, 'schedule', { min: 1 });
  const check = checkSchedule(schedule, now);
  if (!check.ok) throw badRequest('schedule', check.reason);
  // As the platform does: fields separated by single spaces, none around them.
  return canonicalSchedule(schedule);
}

/** An IANA timezone identifier. */
export function parseTimezone(value: unknown): string {
  const timezone = stringValue(value, 'timezone', { min: 1 });
  const check = checkTimeZone(timezone);
  if (!check.ok) throw badRequest('timezone', check.hint ? `${check.reason} (${check.hint})` : check.reason);
  return timezone;
}

/** Display-only notes: a string or null. */
export function parseDescription(value: unknown): string | null {
  return nullableString(value, 'description');
}

/** A uuid-formatted id field (400 otherwise). */
export function parseUuid(value: unknown, field: string): string {
  return stringValue(value, field, { pattern: UUID_PATTERN, patternReason: 'must be a UUID' });
}

/** Exactly one destination, e-mail or Slack, with at least one valid recipient. */
export function parseDestination(value: unknown, state: EmulatorState): RoutineDestination {
  if (Array.isArray(value)) {
    throw badRequest('destination', 'exactly one destination is allowed; create one routine per destination');
  }
  if (!isObject(value)) throw badRequest('destination', 'must be an object');
  if (value.type === 'email') {
    rejectUnknownFields(value, ['type', 'recipientEmails', 'userGroupIds'], 'destination.');
    const recipientEmails = value.recipientEmails === undefined ? [] : stringArray(value.recipientEmails, 'destination.recipientEmails');
    const userGroupIds = value.userGroupIds === undefined ? [] : stringArray(value.userGroupIds, 'destination.userGroupIds');
    recipientEmails.forEach((email, index) => {
      if (!EMAIL_PATTERN.test(email)) throw badRequest(`destination.recipientEmails[${index}]`, `invalid e-mail address \`${email}\``);
    });
    const seen = new Set<string>();
    recipientEmails.forEach((email, index) => {
      const key = email.toLowerCase();
      if (seen.has(key)) throw badRequest(`destination.recipientEmails[${index}]`, `duplicate recipient \`${email}\``);
      seen.add(key);
    });
    userGroupIds.forEach((id, index) => {
      const field = `destination.userGroupIds[${index}]`;
      if (!UUID_PATTERN.test(id)) throw badRequest(field, 'must be a UUID');
      if (!state.groups.some((group) => group.uuid === id)) throw badRequest(field, `unknown user group ${id}`);
    });
    if (recipientEmails.length === 0 && userGroupIds.length === 0) {
      throw badRequest('destination', 'an e-mail destination needs at least one recipient e-mail or user group');
    }
    return { type: 'email', recipientEmails: [...recipientEmails], userGroupIds: [...userGroupIds] };
  }
  if (value.type === 'slack') {
    rejectUnknownFields(value, ['type', 'recipientId', 'slackRecipientType'], 'destination.');
    const kind = value.slackRecipientType;
    if (kind !== 'channel' && kind !== 'users') {
      throw badRequest('destination.slackRecipientType', 'must be "channel" or "users"');
    }
    const recipientId = stringValue(value.recipientId, 'destination.recipientId', {
      min: 1,
      pattern: SLACK_RECIPIENT_PATTERN[kind],
      patternReason: `must be a Slack ${kind === 'channel' ? 'channel' : 'user'} id: ${SLACK_ID_RULE[kind]}`,
    });
    return { type: 'slack', recipientId, slackRecipientType: kind };
  }
  throw badRequest('destination.type', 'must be "email" or "slack"');
}

/**
 * The model a routine of `owner` runs against: 404 when it does not exist or the owner has no
 * role on it, 403 when the owner's role does not include USE_AI.
 */
export function resolveModel(state: EmulatorState, modelId: string, owner: StoredUser): StoredModel {
  const model = state.models.find((candidate) => candidate.id === modelId);
  const role = model ? modelRoleOf(model, owner.id) : null;
  if (!model || role === null) throw notFound(`Model not found: ${modelId}`);
  if (!permissionsOf(role).includes('USE_AI')) throw forbidden('User does not have USE_AI permission');
  return model;
}

/** A branch of the model (404 when it has none with this id). */
export function resolveBranch(model: StoredModel, branchId: string): string {
  if (!model.branches.some((branch) => branch.id === branchId)) throw notFound(`Branch not found: ${branchId}`);
  return branchId;
}

/** A topic of the model (404 when it has none with this name). */
export function resolveTopic(model: StoredModel, topicName: string): string {
  if (!model.topics.includes(topicName)) throw notFound(`Topic not found: ${topicName}`);
  return topicName;
}

/** Every field of a create body, validated: 400s first, then 404s for model, branch and topic. */
export function parseRoutineCreate(body: JsonObject, state: EmulatorState, owner: StoredUser, now: Date): RoutineFields {
  rejectUnknownRoutineFields(body, CREATE_FIELDS);
  requireFields(body, ['name', 'prompt', 'schedule', 'timezone', 'modelId', 'destination']);
  const name = parseName(body.name);
  const prompt = parsePrompt(body.prompt);
  const schedule = parseSchedule(body.schedule, now);
  const timezone = parseTimezone(body.timezone);
  const modelId = parseUuid(body.modelId, 'modelId');
  const branchId = body.branchId === undefined || body.branchId === null ? null : parseUuid(body.branchId, 'branchId');
  const topicName = body.topicName === undefined ? null : nullableString(body.topicName, 'topicName', { min: 1 });
  const description = body.description === undefined ? null : parseDescription(body.description);
  const destination = parseDestination(body.destination, state);
  const model = resolveModel(state, modelId, owner);
  return {
    name,
    prompt,
    schedule,
    timezone,
    modelId,
    branchId: branchId === null ? null : resolveBranch(model, branchId),
    topicName: topicName === null ? null : resolveTopic(model, topicName),
    description,
    destination,
  };
}
