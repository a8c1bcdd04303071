// AI routines: list (per owner, newest first, paginated), read, create (201), update by the
// documented PUT (and, with `routineUpdateMethod: patch`, by the generated client's PATCH too;
// otherwise PATCH answers 405), delete and trigger. Server-
// managed fields (lastRun, recipientCount, createdAt, updatedAt) are kept here. Two OPEN points
// meet here: whether an organization key needs `userId` on every routine endpoint, and whether
// such a key without `userId` acts for its creator or for nobody (`orgKeyUser`).
import type { DocumentedRoutine } from '../../api/types.js';
import { UUID_PATTERN } from '../../domain/rules.js';
import { actingUser } from '../auth.js';
import type { RequestContext, Route, RoutineUpdateMethod } from '../context.js';
import { badRequest, conflict, forbidden, HttpProblem, json, notFound } from '../http.js';
import { newUuid } from '../ids.js';
import { paginate } from '../pagination.js';
import type { EmulatorState, StoredRoutine, StoredUser } from '../state.js';
import { booleanValue, enumQuery, requireObject } from '../validate.js';
import {
  parseDescription,
  parseDestination,
  parseName,
  parsePrompt,
  parseRoutineCreate,
  parseSchedule,
  parseTimezone,
  parseUuid,
  PATCH_FIELDS,
  PUT_FIELDS,
  rejectUnknownRoutineFields,
  requireFields,
  resolveModel,
} from './routineFields.js';

export const ROUTINES_DISABLED = 'AI routines are not enabled for this organization';
export const USER_ID_REQUIRED = 'required for organization API keys';
const COLLECTION = '/api/v1/ai/routines';
const ITEM = '/api/v1/ai/routines/{routineId}';

function recipientCount(routine: StoredRoutine, state: EmulatorState): number {
  const { destination } = routine;
  if (destination.type === 'slack') return 1;
  const recipients = new Set(destination.recipientEmails.map((email) => email.toLowerCase()));
  for (const groupId of destination.userGroupIds) {
    const group = state.groups.find((candidate) => candidate.uuid === groupId);
    for (const memberId of group?.memberIds ?? []) {
      const member = state.users.find((user) => user.id === memberId);
      if (member) recipients.add(member.email.toLowerCase());
    }
  }
  return recipients.size;
}

function runInProgress(routine: StoredRoutine, now: Date): boolean {
  return routine.pendingRun !== null && Date.parse(routine.pendingRun.completesAt) > now.getTime();
}

/** The wire form of a stored routine at time `now`. */
export function toRoutine(routine: StoredRoutine, state: EmulatorState, now: Date): DocumentedRoutine {
  const pending = routine.pendingRun;
  const lastRun =
    pending && !runInProgress(routine, now)
      ? { completedAt: pending.completesAt, label: 'Manual run', state: 'completed' }
      : routine.lastRun;
  return {
    id: routine.id,
    name: routine.name,
    prompt: routine.prompt,
    schedule: routine.schedule,
    timezone: routine.timezone,
    modelId: routine.modelId,
    branchId: routine.branchId,
    topicName: routine.topicName,
    description: routine.description,
    destination: structuredClone(routine.destination),
    disabled: routine.disabled,
    systemDisabled: routine.systemDisabled,
    systemDisabledReason: routine.systemDisabledReason,
    lastRun: lastRun ? { ...lastRun } : null,
    recipientCount: recipientCount(routine, state),
    createdAt: routine.createdAt,
    updatedAt: routine.updatedAt,
  };
}

/**
 * Checks that routines are enabled and, when the emulator requires it, that an organization key
 * names its user (400 `userId: required for organization API keys`).
 */
function requireRoutinesEnabled(context: RequestContext): void {
  if (!context.state.organization.routinesEnabled) throw forbidden(ROUTINES_DISABLED);
  if (context.knobs.routinesRequireUserId && context.caller.keyScope === 'organization' && context.query.get('userId') === null) {
    throw badRequest('userId', USER_ID_REQUIRED);
  }
}

/** 429 (detail form) when `owner` already has the maximum number of active routines. */
function requireActiveSlot(state: EmulatorState, owner: StoredUser): void {
  const limit = state.organization.maxActiveRoutinesPerUser;
  const active = state.routines.filter((r) => r.ownerId === owner.id && !r.disabled && !r.systemDisabled).length;
  if (active >= limit) {
    throw new HttpProblem(429, `Too Many Requests: the user already has the maximum of ${limit} active routines`);
  }
}

/**
 * The routine the path names, if the caller may see it: its own routines for a user-scoped
 * token, any routine of the organization for an organization key (only the named user's with
 * `userId`). 400 for a malformed id, 404 otherwise.
 */
function visibleRoutine(context: RequestContext): StoredRoutine {
  requireRoutinesEnabled(context);
  const routineId = context.params.routineId!;
  if (!UUID_PATTERN.test(routineId)) throw badRequest('routineId', 'must be a UUID');
  const acting = actingUser(context);
  const routine = context.state.routines.find((candidate) => candidate.id === routineId);
  const mayRead =
    routine !== undefined &&
    (context.caller.keyScope === 'organization' && !acting.explicit ? true : routine.ownerId === acting.user?.id);
  if (!routine || !mayRead) throw notFound('Routine not found');
  return routine;
}

function listRoutines(context: RequestContext) {
  requireRoutinesEnabled(context);
  // An organization key tied to no user has no routines of its own: without userId, none.
  const owner = actingUser(context, 'filter').user;
  const sortField = enumQuery(context.query, 'sortField', ['createdAt', 'updatedAt', 'name'] as const, 'createdAt');
  const sortDirection = enumQuery(
    context.query,
    'sortDirection',
    ['asc', 'desc'] as const,
    sortField === 'name' ? 'asc' : 'desc',
  );
  const routines = context.state.routines
    .filter((routine) => owner !== null && routine.ownerId === owner.id)
    .map((routine) => toRoutine(routine, context.state, context.now));
  return json(
    paginate(routines, context.query, {
      list: `routines:${owner?.id ?? 'nobody'}:${sortField}`,
      keyOf: (routine) => [sortField === 'name' ? routine.name.toLowerCase() : routine[sortField] ?? '', routine.id],
      directions: [sortDirection, sortDirection],
    }),
  );
}

/**
 * The `createdAt` of a routine created at `now`: strictly later than every routine's, so two
 * creates in the same millisecond (two racing applies) still have distinct, ordered times.
 */
function creationTime(state: EmulatorState, now: Date): string {
  const latest = state.routines.reduce((max, routine) => Math.max(max, Date.parse(routine.createdAt)), Number.NEGATIVE_INFINITY);
  return new Date(Math.max(now.getTime(), latest + 1)).toISOString();
}

function createRoutine(context: RequestContext) {
  requireRoutinesEnabled(context);
  const owner = actingUser(context).user;
  // Nobody to own the routine: an organization key tied to no user must name one.
  if (owner === null) throw badRequest('userId', USER_ID_REQUIRED);
  const fields = parseRoutineCreate(requireObject(context.body), context.state, owner, context.now);
  requireActiveSlot(context.state, owner);
  const timestamp = creationTime(context.state, context.now);
  const routine: StoredRoutine = {
    id: newUuid(),
    ownerId: owner.id,
    ...fields,
    disabled: false,
    systemDisabled: false,
    systemDisabledReason: null,
    lastRun: null,
    pendingRun: null,
    createdAt: timestamp,
    updatedAt: timestamp,
  };
  context.state.routines.push(routine);
  return json({ id: routine.id }, 201);
}

function patchRoutine(context: RequestContext) {
  const routine = visibleRoutine(context);
  const body = requireObject(context.body);
  rejectUnknownRoutineFields(body, PATCH_FIELDS);
  if (Object.keys(body).length === 0) throw badRequest('body', `at least one of ${PATCH_FIELDS.join(', ')} is required`);
  const changes: Partial<StoredRoutine> = {};
  if ('name' in body) changes.name = parseName(body.name);
  if ('prompt' in body) changes.prompt = parsePrompt(body.prompt);
  if ('schedule' in body) changes.schedule = parseSchedule(body.schedule, context.now);
  if ('timezone' in body) changes.timezone = parseTimezone(body.timezone);
  if ('description' in body) changes.description = parseDescription(body.description);
  if ('destination' in body) changes.destination = parseDestination(body.destination, context.state);
  Object.assign(routine, changes, { updatedAt: context.now.toISOString() });
  return json(toRoutine(routine, context.state, context.now));
}

function putRoutine(context: RequestContext) {
  const routine = visibleRoutine(context);
  const body = requireObject(context.body);
  rejectUnknownRoutineFields(body, PUT_FIELDS);
  requireFields(body, ['name', 'prompt', 'schedule']);
  const changes: Partial<StoredRoutine> = {
    name: parseName(body.name),
    prompt: parsePrompt(body.prompt),
    schedule: parseSchedule(body.schedule, context.now),
  };
  if (body.description !== undefined) changes.description = parseDescription(body.description);
  const isActive = body.isActive === undefined ? undefined : booleanValue(body.isActive, 'isActive');
  // A null model leaves the model as it is (the documented body allows null).
  if (body.modelId !== undefined && body.modelId !== null) {
    const modelId = parseUuid(body.modelId, 'modelId');
    const owner = context.state.users.find((user) => user.id === routine.ownerId)!;
    resolveModel(context.state, modelId, owner);
    if (modelId !== routine.modelId) {
      // Branches and topics belong to a model: moving to another model clears them.
      Object.assign(changes, { modelId, branchId: null, topicName: null });
    }
  }
  if (isActive !== undefined) {
    if (isActive && routine.disabled) {
      requireActiveSlot(context.state, context.state.users.find((user) => user.id === routine.ownerId)!);
    }
    changes.disabled = !isActive;
  }
  Object.assign(routine, changes, { updatedAt: context.now.toISOString() });
  return json(toRoutine(routine, context.state, context.now));
}

function deleteRoutine(context: RequestContext) {
  const routine = visibleRoutine(context);
  context.state.routines = context.state.routines.filter((candidate) => candidate.id !== routine.id);
  return json({ deleted: true, id: routine.id });
}

function triggerRoutine(context: RequestContext) {
  const routine = visibleRoutine(context);
  // A paused or Omni-disabled routine cannot be triggered: 404, as documented.
  if (routine.disabled || routine.systemDisabled) throw notFound('Routine not found or cannot be triggered (paused or disabled)');
  if (runInProgress(routine, context.now)) throw conflict('A run of this routine is already in progress');
  routine.lastRun = toRoutine(routine, context.state, context.now).lastRun;
  const completesAt = new Date(context.now.getTime() + context.state.organization.routineRunSeconds * 1000);
  routine.pendingRun = { id: newUuid(), startedAt: context.now.toISOString(), completesAt: completesAt.toISOString() };
  return json({ id: routine.pendingRun.id }, 202);
}

/** The routine routes; `updateMethod: patch` adds the generated client's PATCH beside the documented PUT. */
export function routineRoutes(updateMethod: RoutineUpdateMethod): Route[] {
  return [
    { method: 'GET', template: COLLECTION, handler: listRoutines },
    { method: 'POST', template: COLLECTION, handler: createRoutine },
    { method: 'GET', template: ITEM, handler: (context) => json(toRoutine(visibleRoutine(context), context.state, context.now)) },
    { method: 'PUT', template: ITEM, handler: putRoutine },
    ...(updateMethod === 'patch' ? [{ method: 'PATCH' as const, template: ITEM, handler: patchRoutine }] : []),
    { method: 'DELETE', template: ITEM, handler: deleteRoutine },
    { method: 'POST', template: `${ITEM}/trigger`, handler: triggerRoutine },
  ];
}
