// Individual credit limits (Organization Admin): per-user, per-user-group and per-embed-entity-
// group limits, each a list ordered by its key with cursor pagination and a bulk PATCH of up to 1000
// entries that is validated whole and applied atomically (gaps.md).
import type {
  EntityGroupCreditLimitRecord,
  UserCreditLimitRecord,
  UserGroupCreditLimitRecord,
} from '../../api/types.js';
import type { EmulatorKnobs, UserGroupIdForm } from '../profiles.js';
import { CREDIT_LIMIT_BATCH_MAX } from '../../domain/rules.js';
import type { RequestContext, Route } from '../context.js';
import { badRequest, json, notFound } from '../http.js';
import { ordered, paginate, type PageSpec } from '../pagination.js';
import { findUser, type EmulatorState } from '../state.js';
import { creditValue, isObject, rejectUnknownFields, requireObject, stringValue } from '../validate.js';
import { requireCreditControls } from './creditControls.js';

/** What differs between the user list and the entity-group list. */
interface LimitList {
  /** Body field holding the entries, e.g. `users`. */
  listField: string;
  /** Entry field naming the subject, e.g. `userId`. */
  keyField: string;
  limits: (state: EmulatorState) => Record<string, number | null>;
  defaultLimit: (state: EmulatorState) => number | null;
  /** The key the limit is stored under for a key as sent, or undefined when no such subject exists. */
  stored: (state: EmulatorState, key: string, knobs: EmulatorKnobs) => string | undefined;
  notFound: (key: string) => string;
}

type LimitWrite = { key: string; creditLimit: number | null } | { key: string; useDefaultLimit: true };

function parseLimitWrites(body: unknown, list: LimitList): LimitWrite[] {
  const object = requireObject(body);
  rejectUnknownFields(object, [list.listField]);
  const entries = object[list.listField];
  if (entries === undefined) throw badRequest(list.listField, 'is required');
  if (!Array.isArray(entries)) throw badRequest(list.listField, 'must be an array');
  if (entries.length === 0) throw badRequest(list.listField, 'must contain at least one entry');
  if (entries.length > CREDIT_LIMIT_BATCH_MAX) {
    throw badRequest(list.listField, `at most ${CREDIT_LIMIT_BATCH_MAX} entries per request, got ${entries.length}`);
  }
  const firstIndexOf = new Map<string, number>();
  return entries.map((entry: unknown, index): LimitWrite => {
    const at = `${list.listField}[${index}]`;
    if (!isObject(entry)) throw badRequest(at, 'must be an object');
    rejectUnknownFields(entry, [list.keyField, 'creditLimit', 'useDefaultLimit'], `${at}.`);
    if (entry[list.keyField] === undefined) throw badRequest(`${at}.${list.keyField}`, 'is required');
    const key = stringValue(entry[list.keyField], `${at}.${list.keyField}`, { min: 1, max: 255 });
    const hasLimit = 'creditLimit' in entry;
    const hasDefault = 'useDefaultLimit' in entry;
    if (hasLimit && hasDefault) throw badRequest(at, 'give either creditLimit or useDefaultLimit, not both');
    if (!hasLimit && !hasDefault) throw badRequest(at, 'give either creditLimit or useDefaultLimit');
    const earlier = firstIndexOf.get(key);
    if (earlier !== undefined) {
      throw badRequest(`${at}.${list.keyField}`, `duplicate ${list.keyField} ${key} (also ${list.listField}[${earlier}])`);
    }
    firstIndexOf.set(key, index);
    if (hasDefault) {
      if (entry.useDefaultLimit !== true) throw badRequest(`${at}.useDefaultLimit`, 'must be true');
      return { key, useDefaultLimit: true };
    }
    return { key, creditLimit: creditValue(entry.creditLimit, `${at}.creditLimit`) };
  });
}

/** Validates every entry (400), then every subject (404), then applies all; nothing changes on error. */
function applyLimitWrites(context: RequestContext, list: LimitList) {
  requireCreditControls(context);
  const writes = parseLimitWrites(context.body, list);
  const stored = writes.map((write) => list.stored(context.state, write.key, context.knobs));
  const missing = writes.findIndex((_, index) => stored[index] === undefined);
  if (missing !== -1) throw notFound(list.notFound(writes[missing]!.key));
  const limits = list.limits(context.state);
  const defaultLimit = list.defaultLimit(context.state);
  return writes.map((write, index) => {
    const key = stored[index]!;
    if ('useDefaultLimit' in write) {
      delete limits[key];
      return { key: write.key, creditLimit: defaultLimit, usesDefaultLimit: true };
    }
    limits[key] = write.creditLimit;
    return { key: write.key, creditLimit: write.creditLimit, usesDefaultLimit: false };
  });
}

const userLimits: LimitList = {
  listField: 'users',
  keyField: 'userId',
  limits: (state) => state.userCreditLimits,
  defaultLimit: (state) => state.creditControls.userDefaultCredits,
  stored: (state, userId) => (findUser(state, userId) === undefined ? undefined : userId),
  notFound: (userId) => `User not found: ${userId}`,
};

const entityGroupLimits: LimitList = {
  listField: 'entityGroups',
  keyField: 'entity',
  limits: (state) => state.entityGroupCreditLimits,
  defaultLimit: (state) => state.creditControls.entityGroupDefaultCredits,
  stored: (state, entity) => (state.entityGroups.includes(entity) || entity in state.entityGroupCreditLimits ? entity : undefined),
  notFound: (entity) => `Entity group not found: ${entity}`,
};

/** User group limits, stored by SCIM id; the API speaks SCIM ids or uuids (`userGroupIdForm`). */
const userGroupLimits: LimitList = {
  listField: 'userGroups',
  keyField: 'userGroupId',
  // A state saved before user group limits existed has none.
  limits: (state) => (state.userGroupCreditLimits ??= {}),
  // No field for an organization "user group default" is documented: members follow the user default.
  defaultLimit: (state) => state.creditControls.userDefaultCredits,
  stored: (state, userGroupId, knobs) =>
    state.groups.find((group) => (knobs.userGroupIdForm === 'uuid' ? group.uuid === userGroupId.toLowerCase() : group.id === userGroupId))?.id,
  notFound: (userGroupId) => `User group not found: ${userGroupId}`,
};

/** User group limits ordered by the userGroupId the API speaks (a group deleted since keeps its SCIM id). */
export function userGroupCreditLimitRecords(state: EmulatorState, form: UserGroupIdForm): UserGroupCreditLimitRecord[] {
  return Object.entries(state.userGroupCreditLimits ?? {})
    .map(([groupId, creditLimit]) => {
      const group = state.groups.find((candidate) => candidate.id === groupId);
      return { userGroupId: form === 'uuid' && group !== undefined ? group.uuid : groupId, creditLimit };
    })
    .sort((a, b) => (a.userGroupId < b.userGroupId ? -1 : a.userGroupId > b.userGroupId ? 1 : 0));
}

/** Individual user limits ordered by userId. */
export function userCreditLimitRecords(state: EmulatorState): UserCreditLimitRecord[] {
  return Object.entries(state.userCreditLimits)
    .map(([userId, creditLimit]) => ({ userId, creditLimit }))
    .sort((a, b) => (a.userId < b.userId ? -1 : a.userId > b.userId ? 1 : 0));
}

/** Entity-group limits ordered by entity. */
export function entityGroupCreditLimitRecords(state: EmulatorState): EntityGroupCreditLimitRecord[] {
  return Object.entries(state.entityGroupCreditLimits)
    .map(([entity, creditLimit]) => ({ entity, creditLimit }))
    .sort((a, b) => (a.entity < b.entity ? -1 : a.entity > b.entity ? 1 : 0));
}

export const creditLimitRoutes: Route[] = [
  {
    method: 'GET',
    template: '/api/v1/ai/credit-controls/users',
    handler: (context) => {
      requireCreditControls(context);
      const spec: PageSpec<UserCreditLimitRecord> = { list: 'user-credit-limits', keyOf: (record) => [record.userId], directions: ['asc'] };
      // The listing's order is kept until the limits change: its pages share it.
      return json(paginate(context.memo('user credit limits', () => ordered(userCreditLimitRecords(context.state), spec)), context.query, spec));
    },
  },
  {
    method: 'PATCH',
    template: '/api/v1/ai/credit-controls/users',
    handler: (context) => {
      const results = applyLimitWrites(context, userLimits);
      return json({
        users: results.map(({ key, creditLimit, usesDefaultLimit }) => ({ userId: key, creditLimit, usesDefaultLimit })),
      });
    },
  },
  {
    method: 'GET',
    template: '/api/v1/ai/credit-controls/user-groups',
    handler: (context) => {
      requireCreditControls(context);
      return json(
        paginate(userGroupCreditLimitRecords(context.state, context.knobs.userGroupIdForm), context.query, {
          list: 'user-group-credit-limits',
          keyOf: (record) => [record.userGroupId],
          directions: ['asc'],
        }),
      );
    },
  },
  {
    method: 'PATCH',
    template: '/api/v1/ai/credit-controls/user-groups',
    handler: (context) => {
      const results = applyLimitWrites(context, userGroupLimits);
      return json({
        userGroups: results.map(({ key, creditLimit, usesDefaultLimit }) => ({ userGroupId: key, creditLimit, usesDefaultLimit })),
      });
    },
  },
  {
    method: 'GET',
    template: '/api/v1/ai/credit-controls/entity-groups',
    handler: (context) => {
      requireCreditControls(context);
      return json(
        paginate(entityGroupCreditLimitRecords(context.state), context.query, {
          list: 'entity-group-credit-limits',
          keyOf: (record) => [record.entity],
          directions: ['asc'],
        }),
      );
    },
  },
  {
    method: 'PATCH',
    template: '/api/v1/ai/credit-controls/entity-groups',
    handler: (context) => {
      const results = applyLimitWrites(context, entityGroupLimits);
      return json({
        entityGroups: results.map(({ key, creditLimit, usesDefaultLimit }) => ({ entity: key, creditLimit, usesDefaultLimit })),
      });
    },
  },
];
