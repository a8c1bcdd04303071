// SCIM 2.0 users and groups (organization API keys only), at the paths the documents write
// (`/api/scim/v2/users`, lowercase; any case is accepted): users filter on `userName` only (`eq`,
// `co`), as documented, embed users on `userName` or `embedExternalId`; groups take `displayName eq` (the vendor CLI's file shows it, the docs
// none). 1-based `startIndex` and `count`, ListResponse bodies and SCIM error bodies. Whether a
// SCIM user's `id` is the membership id is OPEN (gaps.md): the knob `scimUserIds`.
import type { ScimGroup, ScimList, ScimUser } from '../../api/types.js';
import { requireOrganizationKey, USER_SCOPED_SCIM } from '../auth.js';
import type { RequestContext, Route } from '../context.js';
import { badRequest, json, notFound } from '../http.js';
import type { ScimUserIds } from '../profiles.js';
import { baseUserId, type EmulatorState, type StoredGroup, type StoredUser } from '../state.js';

const USER_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:User';
const GROUP_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:Group';
const LIST_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:ListResponse';
const DEFAULT_COUNT = 100;
const MAX_COUNT = 100;

/** A SCIM user as the emulator serves it (`embedExternalId` only for embed users). */
export type EmulatorScimUser = ScimUser & { embedExternalId?: string };

interface Filter {
  attribute: string;
  operator: 'eq' | 'co';
  value: string;
}

/** Parses `attr op "value"` and accepts only the attribute/operator pairs listed in `allowed`. */
function parseFilter(raw: string | null, allowed: readonly `${string} ${'eq' | 'co'}`[]): Filter | undefined {
  if (raw === null || raw.trim() === '') return undefined;
  const match = /^\s*([A-Za-z]+)\s+([A-Za-z]+)\s+"((?:[^"\\]|\\.)*)"\s*$/.exec(raw);
  const pair = match ? `${match[1]!.toLowerCase()} ${match[2]!.toLowerCase()}` : '';
  const known = allowed.find((candidate) => candidate.toLowerCase() === pair);
  if (!match || !known) {
    throw badRequest('filter', `unsupported filter \`${raw}\` (supported: ${allowed.map((a) => `${a} "..."`).join(', ')})`);
  }
  const [attribute, operator] = known.split(' ') as [string, 'eq' | 'co'];
  return { attribute, operator, value: match[3]!.replace(/\\(.)/g, '$1') };
}

function matches(actual: string | null | undefined, filter: Filter): boolean {
  if (actual === null || actual === undefined) return false;
  // Comparisons ignore case, as the documents say of e-mails (and SCIM of display names).
  const [value, wanted] = [actual.toLowerCase(), filter.value.toLowerCase()];
  return filter.operator === 'eq' ? value === wanted : value.includes(wanted);
}

function positiveIntegerParam(query: URLSearchParams, name: string, fallback: number): number {
  const raw = query.get(name);
  if (raw === null) return fallback;
  if (!/^-?\d+$/.test(raw.trim())) throw badRequest(name, 'must be an integer');
  return Number(raw.trim());
}

/** One page of `resources` (`startIndex`, `count`), each turned into its SCIM form only if on the page. */
function listResponse<T, R>(resources: T[], query: URLSearchParams, form: (resource: T) => R): ScimList<R> {
  const startIndex = Math.max(1, positiveIntegerParam(query, 'startIndex', 1));
  const count = Math.min(MAX_COUNT, Math.max(0, positiveIntegerParam(query, 'count', DEFAULT_COUNT)));
  const page = resources.slice(startIndex - 1, startIndex - 1 + count).map(form);
  return { schemas: [LIST_SCHEMA], Resources: page, totalResults: resources.length, itemsPerPage: page.length, startIndex };
}

/** A user's SCIM id: the membership id, or (`scimUserIds: user`) the user's own id. */
function scimIdOf(user: StoredUser, form: ScimUserIds): string {
  return form === 'membership' ? user.id : baseUserId(user);
}

/** The SCIM form of a user; embed users (listed by /embed/users only) carry their external id. */
function toScimUser(user: StoredUser, state: EmulatorState, form: ScimUserIds): EmulatorScimUser {
  return {
    schemas: [USER_SCHEMA],
    id: scimIdOf(user, form),
    userName: user.email,
    displayName: user.displayName,
    active: user.active,
    emails: [{ value: user.email, primary: true }],
    groups: state.groups
      .filter((group) => group.memberIds.includes(user.id))
      .map((group) => ({ value: group.id, display: group.displayName })),
    ...(user.embedExternalId === null ? {} : { embedExternalId: user.embedExternalId }),
  };
}

/** The SCIM form of a group; members are SCIM user ids with e-mails. */
function toScimGroup(group: StoredGroup, state: EmulatorState, form: ScimUserIds, withMembers = true): ScimGroup {
  const members = group.memberIds.flatMap((id) => {
    const user = state.users.find((candidate) => candidate.id === id);
    return user === undefined ? [] : [{ value: scimIdOf(user, form), display: user.email }];
  });
  return {
    schemas: [GROUP_SCHEMA],
    id: group.id,
    displayName: group.displayName,
    members: withMembers ? members : [],
  };
}

function byText<T>(text: (item: T) => string): (a: T, b: T) => number {
  return (a, b) => (text(a) < text(b) ? -1 : text(a) > text(b) ? 1 : 0);
}

function scim(context: RequestContext): void {
  requireOrganizationKey(context.caller, USER_SCOPED_SCIM);
}

function listUsers(context: RequestContext) {
  scim(context);
  const filter = parseFilter(context.query.get('filter'), ['userName eq', 'userName co']);
  // Filtered, then ordered by e-mail (each key lowered once); only the page is put in SCIM form.
  // The whole listing's order is kept until the users change: its pages share it.
  const ordered = (users: StoredUser[]) =>
    users
      .map((user) => ({ user, key: user.email.toLowerCase() }))
      .sort(byText((entry) => entry.key))
      .map((entry) => entry.user);
  // Embed users are listed by /embed/users, not here (the vendor's users list).
  const users = filter
    ? ordered(
        context.state.users.filter((user) => user.embedExternalId === null && matches(user.email, filter)),
      )
    : context.memo('scim users by e-mail', () => ordered(context.state.users.filter((user) => user.embedExternalId === null)));
  return json(listResponse(users, context.query, (user) => toScimUser(user, context.state, context.knobs.scimUserIds)));
}

/** Embed users (`/api/scim/v2/embed/users`): only users with an embed external id; filters on userName or it. */
function listEmbedUsers(context: RequestContext) {
  scim(context);
  const filter = parseFilter(context.query.get('filter'), ['userName eq', 'userName co', 'embedExternalId eq', 'embedExternalId co']);
  const users = context.state.users
    .filter((user) => user.embedExternalId !== null)
    .filter((user) => !filter || matches(filter.attribute === 'userName' ? user.email : user.embedExternalId, filter))
    .sort(byText((user) => user.email.toLowerCase()));
  return json(listResponse(users, context.query, (user) => toScimUser(user, context.state, context.knobs.scimUserIds)));
}

function listGroups(context: RequestContext) {
  scim(context);
  const filter = parseFilter(context.query.get('filter'), ['displayName eq']);
  const withMembers = context.query.get('excludedAttributes') !== 'members';
  const groups = [...context.state.groups]
    .sort(byText((group) => group.displayName.toLowerCase()))
    .filter((group) => !filter || matches(group.displayName, filter));
  return json(listResponse(groups, context.query, (group) => toScimGroup(group, context.state, context.knobs.scimUserIds, withMembers)));
}

const scimRouteTable: Route[] = [
  { method: 'GET', template: '/api/scim/v2/users', handler: listUsers },
  {
    method: 'GET',
    template: '/api/scim/v2/users/{id}',
    handler: (context) => {
      scim(context);
      const form = context.knobs.scimUserIds;
      const user = context.state.users.find((candidate) => candidate.embedExternalId === null && scimIdOf(candidate, form) === context.params.id);
      if (!user) throw notFound('User not found');
      return json(toScimUser(user, context.state, form));
    },
  },
  { method: 'GET', template: '/api/scim/v2/embed/users', handler: listEmbedUsers },
  { method: 'GET', template: '/api/scim/v2/groups', handler: listGroups },
  {
    method: 'GET',
    template: '/api/scim/v2/groups/{id}',
    handler: (context) => {
      scim(context);
      const group = context.state.groups.find((candidate) => candidate.id === context.params.id);
      if (!group) throw notFound('Group not found');
      return json(toScimGroup(group, context.state, context.knobs.scimUserIds));
    },
  },
];

/** SCIM routes: SCIM error bodies, resource names matched regardless of case (`/users`). */
export const scimRoutes: Route[] = scimRouteTable.map((route) => ({ ...route, errorStyle: 'scim', caseInsensitive: true }));
