// A plan's exposure: the most credits the configuration allows per period once applied, stated
// when the plan changes a credit value (creditLimits.maxExposure judges it). The kinds say what
// they allow after the plan (`allowance`); the estimate's rule is domain/exposure.ts's. It reads
// only what it lacks and the plan has not read already: the groups' members (the SCIM groups
// listing, usually read already to resolve their names) and the number of users (page 1 of the
// SCIM users listing, unless read already), each only when the part it counts is there to count.
import type { PlatformApi } from '../api/platform.js';
import type { Kind, StewardConfig } from '../config/types.js';
import { estimateExposure, type Exposure } from '../domain/exposure.js';
import type { Allowance, ResourceKind } from '../model/kind.js';
import type { PlanStep } from '../model/plan.js';
import type { Directory } from '../resolve/directory.js';

export async function assessExposure(
  steps: readonly PlanStep[],
  kinds: readonly ResourceKind[],
  live: Partial<Record<Kind, unknown>>,
  directory: Directory,
  api: PlatformApi,
): Promise<Exposure | undefined> {
  const changesCredits = steps.some((step) => kinds.find((kind) => kind.kind === step.kind)?.credits !== undefined);
  if (!changesCredits) return undefined;
  const allowances: Allowance[] = kinds.flatMap((kind) =>
    kind.allowance === undefined || !(kind.kind in live) ? [] : [kind.allowance(live[kind.kind], steps.filter((step) => step.kind === kind.kind))],
  );
  const users = allowances.find((allowance) => allowance.scope === 'users');
  const groups = allowances.find((allowance) => allowance.scope === 'userGroups');
  const organization = allowances.find((allowance) => allowance.scope === 'organization');
  let members: (groupId: string) => readonly string[] | undefined = () => undefined;
  if (groups !== undefined && 'limits' in groups && groups.limits.size > 0 && directory.keyScope === 'organization') {
    const listing = directory.groups(api);
    await listing.listAll();
    members = (groupId) => listing.membersOf(groupId);
  }
  const userDefault = organization !== undefined && 'userDefault' in organization ? organization.userDefault : undefined;
  // The users on the default count only where there is a default to multiply.
  const userCount = userDefault === undefined || userDefault === 0 ? undefined : await directory.userCount();
  return estimateExposure({
    individual: users !== undefined && 'limits' in users ? users.limits : undefined,
    groups: groups !== undefined && 'limits' in groups ? { limits: groups.limits, members } : undefined,
    userDefault,
    users: userDefault === 0 ? 0 : userCount,
    accountCreditLimit: organization !== undefined && 'accountCreditLimit' in organization ? organization.accountCreditLimit : undefined,
  });
}

/**
 * The exposure `steward validate --env X` can state offline, from the config alone: the declared
 * individual and group limits and the default; what only the deployment knows (users, group
 * members, live limits the config does not declare) is named as not counted. Undefined when the
 * config declares no credit limits and no default. Pure.
 */
export function offlineExposure(config: StewardConfig): Exposure | undefined {
  const users = config.userCreditLimits;
  const groups = config.userGroupCreditLimits;
  const userDefault = config.creditControls?.userDefaultCredits;
  if (users === undefined && groups === undefined && userDefault === undefined) return undefined;
  const own = (limits: readonly { creditLimit: number | null | 'default' }[], key: (index: number) => string) =>
    new Map(limits.flatMap((limit, index) => (limit.creditLimit === 'default' ? [] : [[key(index), limit.creditLimit] as const])));
  const exposure = estimateExposure({
    individual: users === undefined ? undefined : own(users, (index) => users[index]!.email ?? users[index]!.userId ?? String(index)),
    groups: groups === undefined ? undefined : { limits: own(groups, (index) => groups[index]!.group ?? groups[index]!.userGroupId ?? String(index)), members: () => undefined },
    userDefault,
    users: userDefault === 0 ? 0 : undefined,
  });
  if (users !== undefined && config.prune?.userCreditLimits !== true) exposure.notCounted.push('live individual limits the config does not declare (offline)');
  return exposure;
}
