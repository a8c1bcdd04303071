// Before reading anything: one whoami call tells who the key is, and (with a model filter) that
// every routine's model is reachable. What the key cannot do is reported as one clear error
// instead of a 403 halfway through reading. It also settles whose routines an owner-less routine
// is: the key's own user, which an organization key tied to no user does not have (gaps.md).
import { isNotFound, type ApiError } from '../api/errors.js';
import type { PlatformApi } from '../api/platform.js';
import type { Whoami } from '../api/types.js';
import { emailDeclarations } from '../config/declared.js';
import type { ConfigPath, Kind, LoadedConfig, StewardConfig } from '../config/types.js';
import { emailKey } from '../domain/rules.js';
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

/** A model the config names: its id (resolved), how the config names it, and where. */
export interface ModelUse {
  id: string;
  /** The name the config gives (`model: Sales`), when it gives one. */
  name?: string;
  path: ConfigPath;
}

/** Something the config asks that the API key may not do: one sentence, and the places that ask it. */
export interface AccessProblem {
  problem: string;
  at: ConfigPath[];
}

/**
 * What a kind needs of the API key (ResourceKind's `access`): the preflight asks each kind a plan
 * covers, so it names no kind itself.
 */
export interface KindAccess {
  /** Only an Organization Admin may read or write it. */
  readonly adminOnly?: boolean;
  /** The models the config names for it, which whoami is asked about (a missing one stops the plan). */
  models?(config: StewardConfig): ModelUse[];
  /** What the config asks of this kind that this key may not do, one sentence each, with the places that ask it. */
  problems?(whoami: Whoami, config: StewardConfig): AccessProblem[];
  /** Refuses what cannot be planned with this key at all, before anything is read; `theKey` names the key. */
  refuse?(whoami: Whoami, loaded: Pick<LoadedConfig, 'config' | 'locate'>, theKey: string): void;
}

/** A kind as the preflight sees it. */
export interface AccessOf {
  readonly kind: Kind;
  readonly access?: KindAccess;
}

/**
 * Calls whoami and checks the key's scope and role against what the config manages. Errors name
 * the config paths they are about (`details.configPaths`), which the planner turns into positions.
 */
export async function preflight(api: PlatformApi, config: StewardConfig, kinds: readonly AccessOf[], emails: readonly string[]): Promise<Whoami> {
  // `config` has its model names resolved to ids already (src/resolve/models.ts).
  const uses = kinds.flatMap((kind) => kind.access?.models?.(config) ?? []);
  const modelIds = [...new Set(uses.map((use) => use.id))];
  let whoami: Whoami;
  try {
    whoami = await api.whoami(modelIds.length > 0 ? modelIds : undefined);
  } catch (error) {
    if (!isNotFound(error)) throw error;
    throw await modelError(api, uses, modelIds, error as ApiError);
  }
  const problems = permissionProblems(whoami, config, kinds, emails);
  if (problems.length > 0) {
    throw new StewardError('preflight.permissions', `this API key cannot do what the config asks:\n  - ${problems.map(({ problem }) => problem).join('\n  - ')}`, 'user', {
      details: { configPaths: problems.flatMap(({ at }) => at) },
    });
  }
  return whoami;
}

/**
 * whoami answers 404 for a list of models when one of them is missing or not accessible, without
 * saying which: when several were asked, each is asked alone (side by side, only on this error),
 * so the error points at the routines that name the ones refused.
 */
async function modelError(api: PlatformApi, uses: readonly ModelUse[], modelIds: readonly string[], error: ApiError): Promise<StewardError> {
  let refused = [...modelIds];
  if (modelIds.length > 1) {
    const answers = await Promise.all(modelIds.map((id) => api.whoami([id]).then(() => false, (other: unknown) => (isNotFound(other) ? true : Promise.reject(other)))));
    const found = modelIds.filter((_, index) => answers[index] === true);
    if (found.length > 0) refused = found;
  }
  const named = refused.map((id) => {
    const name = uses.find((use) => use.id === id && use.name !== undefined)?.name;
    return name === undefined ? id : `"${name}" (${id})`;
  });
  return new StewardError(
    'preflight.model',
    `${named.length === 1 ? `model ${named[0]} is` : `models ${named.join(', ')} are`} missing or not accessible with this API key (${error.serverMessage ?? 'not found'})`,
    'user',
    {
      hint: 'check the `modelId:` values (ids differ per deployment: a per-environment variable, or `model:` by name) and the key\'s model roles',
      details: { modelIds: refused, configPaths: uses.filter((use) => refused.includes(use.id)).map((use) => use.path) },
    },
  );
}

/** Refuses, before anything is read, what one of `kinds` cannot be planned with at all under this key. */
export function refuseUnplannable(kinds: readonly AccessOf[], whoami: Whoami, loaded: Pick<LoadedConfig, 'config' | 'locate'>, theKey = 'this organization API key'): void {
  for (const kind of kinds) kind.access?.refuse?.(whoami, loaded, theKey);
}

/** What the config asks that this identity may not do, and where. Pure, for tests. */
export function permissionProblems(whoami: Whoami, config: StewardConfig, kinds: readonly AccessOf[], emails: readonly string[]): AccessProblem[] {
  const problems: AccessProblem[] = [];
  const admin = adminProblem(whoami, kinds);
  if (admin !== undefined) {
    // Each kind where the config declares it: its section, or its prune flag.
    const at = kinds.filter((kind) => kind.access?.adminOnly === true).map((kind): ConfigPath => (Object.hasOwn(config, kind.kind) ? [kind.kind] : ['prune', kind.kind]));
    problems.push({ problem: admin, at });
  }
  for (const kind of kinds) problems.push(...(kind.access?.problems?.(whoami, config) ?? []));
  if (whoami.keyScope === 'user' && emails.length > 0) {
    const keys = new Set(emails.map(emailKey));
    problems.push({
      problem: 'users named by e-mail are resolved through SCIM, which needs an organization API key; this is a personal (user-scoped) token',
      at: emailDeclarations(config).filter(({ email, recipient }) => !recipient && keys.has(emailKey(email))).map(({ path }) => path),
    });
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
