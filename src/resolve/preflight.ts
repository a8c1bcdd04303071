// Before reading anything: one whoami call tells who the key is, and (with a model filter) that
// every routine's model is reachable. What the key cannot do is reported as one clear error
// instead of a 403 halfway through reading. It also settles whose routines an owner-less routine
// is: the key's own user, which an organization key tied to no user does not have (gaps.md).
import { isNotFound, type ApiError } from '../api/errors.js';
import type { PlatformApi } from '../api/platform.js';
import type { Whoami } from '../api/types.js';
import type { Kind, LoadedConfig, SourceLocation, StewardConfig } from '../config/types.js';
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

/** Calls whoami and checks the key's scope and role against what the config manages. */
export async function preflight(api: PlatformApi, config: StewardConfig, kinds: readonly Kind[], emails: readonly string[]): Promise<Whoami> {
  // `config` has its model names resolved to ids already (src/resolve/models.ts).
  const modelIds = kinds.includes('routines') ? [...new Set((config.routines ?? []).flatMap((routine) => (routine.modelId === undefined ? [] : [routine.modelId])))] : [];
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

/**
 * With an organization key tied to no user, nothing is "the key's own routines": every routine
 * needs an `owner:`, and pruning reaches only the owners the config names. Throws one error that
 * lists every routine without an owner at its file:line:col, or says why a prune has no owner.
 */
export function requireRoutineOwners(
  loaded: Pick<LoadedConfig, 'config' | 'locate'>,
  whoami: Whoami,
  kinds: readonly Kind[],
  /** How the messages name the key: another environment's in a promotion. */
  theKey = 'this organization API key',
): void {
  if (!kinds.includes('routines') || whoami.keyScope !== 'organization' || keyUser(whoami) !== undefined) return;
  const routines = loaded.config.routines ?? [];
  const ownerless = routines.flatMap((routine, index) => (routine.owner === undefined ? [{ name: routine.name, at: loaded.locate(['routines', index]) }] : []));
  if (ownerless.length > 0) {
    const where = (at: SourceLocation | undefined) => (at === undefined ? '' : `${at.file}:${at.line}:${at.col}: `);
    const subject = ownerless.length === 1 ? `routine "${ownerless[0]!.name}" has` : `${ownerless.length} routines have`;
    const list = ownerless.length === 1 ? '' : `:\n${ownerless.map((routine) => `  ${where(routine.at)}routine "${routine.name}"`).join('\n')}`;
    const positions = ownerless.flatMap((routine) => (routine.at === undefined ? [] : [routine.at]));
    throw new StewardError(
      'plan.routine-owner',
      `${subject} no \`owner:\`, and ${theKey} is tied to no user (whoami names none), so steward cannot tell whose ${ownerless.length === 1 ? 'routine it is' : 'they are'}${list}`,
      'user',
      {
        hint: `add \`owner: <e-mail of the user whose routine it is>\` to ${ownerless.length === 1 ? 'it' : 'each'}, or use a personal token of that user`,
        details: { ...(positions[0] === undefined ? {} : { position: positions[0] }), positions, routines: ownerless.map((routine) => routine.name) },
      },
    );
  }
  if (loaded.config.prune?.routines === true && routines.length === 0) {
    throw new StewardError(
      'plan.routine-owner',
      `\`prune: routines: true\` deletes the undeclared routines of the owners the config names, and it names none; ${theKey} is tied to no user, so it has no routines of its own to prune`,
      'user',
      { hint: 'declare the routines to keep, each with `owner: <e-mail>` (their owners\' other routines are pruned), or use a personal token of the user whose routines to prune' },
    );
  }
}

/** What the config asks that this identity may not do. Pure, for tests. */
export function permissionProblems(whoami: Whoami, config: StewardConfig, kinds: readonly Kind[], emails: readonly string[]): string[] {
  const problems: string[] = [];
  const role = whoami.orgRole;
  const personal = whoami.keyScope === 'user';
  const admin = adminProblem(whoami, kinds);
  if (admin !== undefined) problems.push(admin);
  if (role !== 'ORG_ADMIN') {
    const privileged = (config.labels ?? []).filter((label) => label.verified === true || label.homepage === true);
    if (kinds.includes('labels') && privileged.length > 0) {
      problems.push(`only an Organization Admin may set verified or homepage on labels (${privileged.map((label) => label.name).join(', ')})`);
    }
  }
  if (personal && emails.length > 0) {
    problems.push('users named by e-mail are resolved through SCIM, which needs an organization API key; this is a personal (user-scoped) token');
  }
  if (personal && kinds.includes('routines') && (config.routines ?? []).some((routine) => routine.owner !== undefined)) {
    problems.push('routines with an `owner` need an organization API key (a personal token acts only as its own user)');
  }
  if (personal && kinds.includes('routines')) problems.push(...aiPermissionProblems(whoami, config));
  return problems;
}

/**
 * A personal token's routines run as its user, who needs `USE_AI` on each routine's model: read
 * from whoami's permissions, never from a role name (organizations name roles as they like). A
 * model whoami does not list is left to the model check; an organization key's roles are its
 * creator's, not the owners', so they decide nothing here.
 */
function aiPermissionProblems(whoami: Whoami, config: StewardConfig): string[] {
  const lacking = new Map<string, string[]>();
  for (const routine of config.routines ?? []) {
    if (routine.modelId === undefined) continue;
    const permissions = whoami.rolesByModel[routine.modelId]?.permissions;
    if (permissions === undefined || permissions.includes('USE_AI')) continue;
    const model = routine.model ?? routine.modelId;
    lacking.set(model, [...(lacking.get(model) ?? []), routine.name]);
  }
  return [...lacking].map(([model, names]) => `this token's user lacks the USE_AI permission on model ${model}, which ${names.length === 1 ? `routine "${names[0]}" runs` : `routines ${names.map((name) => `"${name}"`).join(', ')} run`} against`);
}

/** Credit controls and every credit limit: Organization Admin only. */
const ADMIN_KINDS: ReadonlySet<Kind> = new Set(['creditControls', 'userCreditLimits', 'userGroupCreditLimits', 'entityGroupCreditLimits']);

/** The kinds only an Organization Admin may read or write, said once for plan and export alike. */
export function adminProblem(whoami: Whoami, kinds: Iterable<Kind>): string | undefined {
  const adminKinds = [...kinds].filter((kind) => ADMIN_KINDS.has(kind));
  if (whoami.orgRole === 'ORG_ADMIN' || adminKinds.length === 0) return undefined;
  const named = adminKinds.length === 1 ? adminKinds[0]! : `${adminKinds.slice(0, -1).join(', ')} and ${adminKinds.at(-1)!}`;
  return `${named} need an Organization Admin key; this key's organization role is ${whoami.orgRole}`;
}
