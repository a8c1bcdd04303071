// Who is calling: the bearer token resolved to a caller (key scope, organization role, user),
// and the permission checks that answer 401/403 with api.md's messages. Whether an organization
// key acts for the user who created it or for no user at all is an OPEN point (`orgKeyUser`).
import type { OrgRole } from '../api/types.js';
import { UUID_PATTERN } from '../domain/rules.js';
import type { Caller, RequestContext } from './context.js';
import type { OrgKeyUser } from './profiles.js';
import { badRequest, forbidden, HttpProblem, notFound } from './http.js';
import { tokenDigest } from './ids.js';
import { findUser, type EmulatorState, type StoredUser } from './state.js';

export type { Caller } from './context.js';

export const UNAUTHENTICATED_MESSAGE = 'Missing or invalid API key';
export const INSUFFICIENT_PERMISSIONS = 'Insufficient permissions';
export const USER_SCOPED_USER_ID = 'User-scoped tokens cannot filter by userId';
export const USER_SCOPED_ACT_FOR = 'User-scoped tokens cannot act for another user (userId)';
export const USER_SCOPED_SCIM = 'User-scoped tokens cannot use SCIM';


/**
 * Resolves an `Authorization` header to a caller; throws 401 for a missing, unknown or disabled
 * token. `orgKeyUser` decides whether an organization key acts for its creator.
 */
export function authenticate(header: string | undefined, state: EmulatorState, orgKeyUser: OrgKeyUser = 'creator'): Caller {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
  if (!match) throw new HttpProblem(401, UNAUTHENTICATED_MESSAGE);
  const digest = tokenDigest(match[1]!);
  const token = state.apiTokens.find((candidate) => candidate.tokenSha256 === digest);
  const user = token ? findUser(state, token.ownerId) : undefined;
  if (!token || !token.enabled || !user || !user.active) throw new HttpProblem(401, UNAUTHENTICATED_MESSAGE);
  if (token.type === 'organization') {
    return { token, keyScope: 'organization', orgRole: token.role ?? 'MEMBER', creator: user, user: orgKeyUser === 'creator' ? user : null };
  }
  return { token, keyScope: 'user', orgRole: user.role, creator: user, user };
}

/** Throws 403 `Insufficient permissions` unless the caller is an Organization Admin. */
export function requireOrgAdmin(caller: Caller): void {
  if (caller.orgRole !== 'ORG_ADMIN') throw forbidden(INSUFFICIENT_PERMISSIONS);
}

/** Throws 403 with `message` unless the caller uses an organization API key. */
export function requireOrganizationKey(caller: Caller, message: string): void {
  if (caller.keyScope !== 'organization') throw forbidden(message);
}

/** The user a request acts for (none for an organization key tied to no user), and the role that applies. */
export interface ActingUser {
  user: StoredUser | null;
  orgRole: OrgRole;
  /** True when the request named the user with `userId`. */
  explicit: boolean;
}

/**
 * The user a request acts for: the one named by the `userId` query parameter (organization keys
 * only: 403 for user-scoped tokens, 400 for a malformed id, 404 for an unknown user), otherwise
 * the caller's own user (null for an organization key tied to no user) with the caller's role.
 * `purpose` picks the 403 wording.
 */
export function actingUser(context: RequestContext, purpose: 'filter' | 'act' = 'act'): ActingUser {
  const userId = context.query.get('userId');
  if (userId === null) return { user: context.caller.user, orgRole: context.caller.orgRole, explicit: false };
  if (context.caller.keyScope !== 'organization') {
    throw forbidden(purpose === 'filter' ? USER_SCOPED_USER_ID : USER_SCOPED_ACT_FOR);
  }
  if (!UUID_PATTERN.test(userId)) throw badRequest('userId', 'Invalid userId format');
  const user = findUser(context.state, userId);
  if (!user) throw notFound('User not found');
  return { user, orgRole: user.role, explicit: true };
}
