// AI routines: list, read, create, update (the documented PUT; the generated client's PATCH as a
// variant), delete and trigger. Every operation takes `userId`, the target user's membership id
// (organization keys only).
import type { Static } from '../../typedSchema.js';
import { arrayOf, boolean, cursorList, either, fullObject, integer, nullable, object, oneOf, string, uuid } from './schema.js';
import type { Operation } from './types.js';

const userId = { userId: uuid };
const item = { routineId: uuid };

const emailDestination = object(
  { type: oneOf('email'), recipientEmails: arrayOf(string({ format: 'email' }), { maxItems: 100 }), userGroupIds: arrayOf(uuid, { maxItems: 100 }) },
  ['type'],
);
/** Whom a Slack destination names: a channel (`C…`) or a user (`U…`). */
export const slackRecipientType = oneOf('channel', 'users');
const slackDestination = object(
  { type: oneOf('slack'), recipientId: string({ minLength: 1 }), slackRecipientType },
  ['type', 'recipientId', 'slackRecipientType'],
);
/** RoutineDestination: one of the two, told apart by `type`. */
const destination = either(emailDestination, slackDestination);

/** A routine's last run; `completedAt` is null while it has not completed. */
const lastRun = fullObject({ completedAt: nullable(string()), label: string(), state: string() });
export type RoutineLastRun = Static<typeof lastRun>;

/** Routine: all 17 fields required. */
const routine = fullObject({
  id: uuid,
  name: string(),
  prompt: string(),
  schedule: string(),
  timezone: string(),
  modelId: uuid,
  branchId: nullable(uuid),
  topicName: nullable(string()),
  description: nullable(string()),
  destination,
  disabled: boolean,
  systemDisabled: boolean,
  systemDisabledReason: nullable(string()),
  lastRun: nullable(lastRun),
  recipientCount: integer(),
  createdAt: string(),
  updatedAt: string(),
});
/** A routine as the vendor documents it, server-managed fields included: what the emulator serves. */
export type DocumentedRoutine = Static<typeof routine>;

/** Body of `POST /api/v1/ai/routines`. */
const routineCreate = object(
  {
    name: string(),
    modelId: uuid,
    prompt: string(),
    schedule: string(),
    timezone: string(),
    destination,
    branchId: nullable(uuid),
    description: nullable(string()),
    topicName: nullable(string()),
  },
  ['name', 'modelId', 'prompt', 'schedule', 'timezone', 'destination'],
  { open: true },
);
/**
 * Body of `PUT /api/v1/ai/routines/{id}`, the documented update: name, prompt and schedule
 * required; description, model and `isActive` (pause/resume) optional. No timezone, destination,
 * branchId or topicName: the documented update cannot carry them.
 */
const routinePut = object(
  {
    name: string({ minLength: 1, maxLength: 255 }),
    prompt: string({ minLength: 1 }),
    schedule: string(),
    description: nullable(string()),
    modelId: nullable(uuid),
    isActive: boolean,
  },
  ['name', 'prompt', 'schedule'],
  { open: true },
);
/**
 * Body of `PATCH /api/v1/ai/routines/{id}`, the generated client's update (not in the vendor's
 * documents): every field optional; no isActive, model, branch or topic.
 */
const routinePatch = object({ name: string(), prompt: string(), schedule: string(), timezone: string(), description: nullable(string()), destination }, [], { open: true });
export type RoutineCreate = Static<typeof routineCreate>;
export type RoutinePut = Static<typeof routinePut>;
export type RoutinePatch = Static<typeof routinePatch>;

export const routineOperations: readonly Operation[] = [
  {
    id: 'routines.list',
    method: 'GET',
    path: '/api/v1/ai/routines',
    sources: ['RT', 'DOCS'],
    query: { cursor: string(), pageSize: integer({ minimum: 1, maximum: 100 }), sortDirection: oneOf('asc', 'desc'), sortField: string(), ...userId },
    success: { status: 200, body: cursorList(routine) },
  },
  {
    id: 'routines.create',
    method: 'POST',
    path: '/api/v1/ai/routines',
    sources: ['RT', 'DOCS'],
    query: userId,
    body: routineCreate,
    success: { status: 201, body: object({ id: uuid }) },
  },
  {
    id: 'routines.get',
    method: 'GET',
    path: '/api/v1/ai/routines/{routineId}',
    sources: ['RT', 'DOCS'],
    params: item,
    query: userId,
    success: { status: 200, body: routine },
  },
  {
    id: 'routines.update',
    method: 'PUT',
    path: '/api/v1/ai/routines/{routineId}',
    sources: ['RT', 'DOCS'],
    params: item,
    query: userId,
    body: routinePut,
    success: { status: 200, body: routine },
  },
  {
    id: 'routines.update~generated-client',
    method: 'PATCH',
    path: '/api/v1/ai/routines/{routineId}',
    sources: ['SDK'],
    params: item,
    query: userId,
    body: routinePatch,
    success: { status: 200, body: routine },
    variant: { kind: 'generated-client', note: 'SDK: PATCH with every field optional, carrying timezone and destination but not isActive, model, branch or topic; RT documents only PUT' },
  },
  {
    id: 'routines.delete',
    method: 'DELETE',
    path: '/api/v1/ai/routines/{routineId}',
    sources: ['RT', 'DOCS'],
    params: item,
    query: userId,
    success: { status: 200, body: fullObject({ deleted: { type: 'boolean', enum: [true] }, id: uuid }) },
  },
  {
    id: 'routines.trigger',
    method: 'POST',
    path: '/api/v1/ai/routines/{routineId}/trigger',
    sources: ['RT', 'DOCS'],
    params: item,
    query: userId,
    success: { status: 202, body: fullObject({ id: uuid }) },
  },
];
