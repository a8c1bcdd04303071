// Before reading anything: one whoami call tells who the key is, and (with a model filter) that
// every routine's model is reachable. What the key cannot do is reported as one clear error
// instead of a 403 halfway through reading.
import { isNotFound, type ApiError } from '../api/errors.js';
import type { PlatformApi } from '../api/platform.js';
import type { Whoami } from '../api/types.js';
import type { Kind, StewardConfig } from '../config/types.js';
import { StewardError } from '../errors.js';

/** Calls whoami and checks the key's scope and role against what the config manages. */
export async function preflight(api: PlatformApi, config: StewardConfig, kinds: readonly Kind[], emails: readonly string[]): Promise<Whoami> {
  const modelIds = kinds.includes('routines') ? [...new Set((config.routines ?? []).map((routine) => routine.modelId))] : [];
  let whoami: Whoami;
  try {
    whoami = await api.whoami(modelIds.length > 0 ? modelIds : undefined);
  } catch (error) {
    if (!isNotFound(error)) throw error;
    throw new StewardError(
      'preflight.model',
      `a model that a routine names is missing or not accessible with this API key (${(error as ApiError).serverMessage ?? 'not found'}); models asked for: ${modelIds.join(', ')}`,
      'user',
      { hint: 'check the modelId values (per environment variables) and the key\'s model roles' },
    );
  }
  const problems = permissionProblems(whoami, config, kinds, emails);
  if (problems.length > 0) {
    throw new StewardError('preflight.permissions', `this API key cannot do what the config asks:\n  - ${problems.join('\n  - ')}`, 'user');
  }
  return whoami;
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
  return problems;
}

/** The kinds only an Organization Admin may read or write, said once for plan and export alike. */
export function adminProblem(whoami: Whoami, kinds: Iterable<Kind>): string | undefined {
  const adminKinds = [...kinds].filter((kind) => kind === 'creditControls' || kind === 'userCreditLimits');
  if (whoami.orgRole === 'ORG_ADMIN' || adminKinds.length === 0) return undefined;
  return `${adminKinds.join(' and ')} need an Organization Admin key; this key's organization role is ${whoami.orgRole}`;
}
