// Before reading anything: one whoami call tells who the key is, and (with a model filter) that
// every routine's model is reachable. What the key cannot do is reported as one clear error
// instead of a 403 halfway through reading. It also settles whose routines an owner-less routine
// is: the key's own user, which an organization key tied to no user does not have (gaps.md).
import { isNotFound, type ApiError } from '../api/errors.js';
import type { PlatformApi } from '../api/platform.js';
import type { Whoami } from '../api/types.js';
import type { Kind, LoadedConfig, StewardConfig } from '../config/types.js';
import { StewardError } from '../errors.js';

/**
 * The user an API key acts as: its own for a personal token, the creator for some organization
 * keys. `id` is the membership id (whoami's `user.membershipId`), the id every `userId`
 * parameter, limit and routine owner takes; whoami's `user.id` is another id, never sent.
 */
export interface KeyUser {
  id: string;
  /** whoami's `user.id`, when given: only to recognise a SCIM listing that answers user ids. */
  userId?: string;
}

/**
 * The user whoami names, if any. A user without ids (absent, `null`, or `{id: null,
 * membershipId: null}` as servers may answer for an organization key tied to no user) is no user
 * (gaps.md); the shape check has already refused a user with an id but no membership id.
 */
export function keyUser(whoami: Pick<Whoami, 'user'>): KeyUser | undefined {
  const membershipId = whoami.user?.membershipId;
  if (typeof membershipId !== 'string' || membershipId.trim() === '') return undefined;
  const userId = whoami.user?.id;
  return typeof userId === 'string' && userId !== '' && userId !== membershipId ? { id: membershipId, userId } : { id: membershipId };
}

/**
 * What a kind needs of the API key (ResourceKind's `access`): the preflight asks each kind a plan
 * covers, so it names no kind itself.
 */
export interface KindAccess {
  /** Only an Organization Admin may read or write it. */
  readonly adminOnly?: boolean;
  /** Model ids the config names for it, which whoami is asked about (a missing one stops the plan). */
  models?(config: StewardConfig): string[];
  /** What the config asks of this kind that this key may not do, one sentence each. */
  problems?(whoami: Whoami, config: StewardConfig): string[];
  /** Refuses what cannot be planned with this key at all, before anything is read; `theKey` names the key. */
  refuse?(whoami: Whoami, loaded: Pick<LoadedConfig, 'config' | 'locate'>, theKey: string): void;
}

/** A kind as the preflight sees it. */
export interface AccessOf {
  readonly kind: Kind;
  readonly access?: KindAccess;
}

/** Calls whoami and checks the key's scope and role against what the config manages. */
export async function preflight(api: PlatformApi, config: StewardConfig, kinds: readonly AccessOf[], emails: readonly string[]): Promise<Whoami> {
  // `config` has its model names resolved to ids already (src/resolve/models.ts).
  const modelIds = [...new Set(kinds.flatMap((kind) => kind.access?.models?.(config) ?? []))];
  let whoami: Whoami;
  try {
    whoami = await api.whoami(modelIds.length > 0 ? modelIds : undefined);
  } catch (error) {
    if (!isNotFound(error)) throw error;
    throw new StewardError(
      'preflight.model',
      `a model that a routine names is missing or not accessible with this API key (${(error as ApiError).serverMessage ?? 'not found'}); models asked for: ${modelIds.join(', ')}`,
      'user',
      { hint: 'check the modelId values (per environment variables) and the key\'s model roles', details: { modelIds } },
    );
  }
  const problems = permissionProblems(whoami, config, kinds, emails);
  if (problems.length > 0) {
    throw new StewardError('preflight.permissions', `this API key cannot do what the config asks:\n  - ${problems.join('\n  - ')}`, 'user');
  }
  return whoami;
}

/** Refuses, before anything is read, what one of `kinds` cannot be planned with at all under this key. */
export function refuseUnplannable(kinds: readonly AccessOf[], whoami: Whoami, loaded: Pick<LoadedConfig, 'config' | 'locate'>, theKey = 'this organization API key'): void {
  for (const kind of kinds) kind.access?.refuse?.(whoami, loaded, theKey);
}

/** What the config asks that this identity may not do. Pure, for tests. */
export function permissionProblems(whoami: Whoami, config: StewardConfig, kinds: readonly AccessOf[], emails: readonly string[]): string[] {
  const problems: string[] = [];
  const admin = adminProblem(whoami, kinds);
  if (admin !== undefined) problems.push(admin);
  for (const kind of kinds) problems.push(...(kind.access?.problems?.(whoami, config) ?? []));
  if (whoami.keyScope === 'user' && emails.length > 0) {
    problems.push('users named by e-mail are resolved through SCIM, which needs an organization API key; this is a personal (user-scoped) token');
  }
  return problems;
}

/** The kinds only an Organization Admin may read or write, said once for plan and export alike. */
export function adminProblem(whoami: Whoami, kinds: Iterable<AccessOf>): string | undefined {
  const adminKinds = [...kinds].filter((kind) => kind.access?.adminOnly === true).map((kind) => kind.kind);
  if (whoami.orgRole === 'ORG_ADMIN' || adminKinds.length === 0) return undefined;
  const named = adminKinds.length === 1 ? adminKinds[0]! : `${adminKinds.slice(0, -1).join(', ')} and ${adminKinds.at(-1)!}`;
  return `${named} need an Organization Admin key; this key's organization role is ${whoami.orgRole}`;
}
