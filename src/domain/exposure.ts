// The most credits a configuration allows per period, as an estimate. No vendor source says how an
// individual limit, the limits of a user's groups and the default combine, so steward chooses one
// rule and says it (docs/api-contract.md, open points): a user's own limit when she has one, else
// the highest limit among her groups that have one, else the default; null (unlimited) is above
// every number. The sum over every user is the exposure; unlimited anywhere makes it unlimited.
// A part the caller could not know (no live limits read, no user count) is named, and the sum is
// then a lower bound. Pure.

export const EXPOSURE_RULE = "a user's own limit, else the highest limit among her groups, else the default";

export interface ExposureInput {
  /** Individual limits after the plan, by user id (null = unlimited); undefined = not known. */
  individual: ReadonlyMap<string, number | null> | undefined;
  /** User group limits after the plan, with each limited group's members (user ids); undefined = not known. */
  groups: { limits: ReadonlyMap<string, number | null>; members: (groupId: string) => readonly string[] | undefined } | undefined;
  /** The user default after the plan (null = unlimited); undefined = not known. */
  userDefault: number | null | undefined;
  /** How many users the organization has; undefined = not known. */
  users: number | undefined;
  /** The account's limit, when it has one (0 and null: none). */
  accountCreditLimit?: number | null | undefined;
}

/** One part of the sum: how many users it covers and what they may spend (null = unlimited; undefined = not known). */
export interface ExposurePart {
  users: number;
  credits: number | null;
}

export interface Exposure {
  /** The most credits per period: null = unlimited. A lower bound when `notCounted` is not empty. */
  credits: number | null;
  individual: ExposurePart;
  groups?: ExposurePart;
  default?: ExposurePart & { perUser: number | null };
  /** What the estimate could not count (`the default: …`); empty when complete. */
  notCounted: string[];
  /** The account's limit, when it has one. */
  accountCreditLimit?: number;
  /** How the limits were combined (an estimate: the vendor does not say). */
  rule: string;
}

/** Adds credit values where null (unlimited) absorbs everything. */
function plus(a: number | null, b: number | null): number | null {
  return a === null || b === null ? null : a + b;
}

/** The higher of two limits, null (unlimited) being the highest. */
function higher(a: number | null | undefined, b: number | null): number | null {
  return a === undefined ? b : a === null || b === null ? null : Math.max(a, b);
}

/** The estimate for `input`. */
export function estimateExposure(input: ExposureInput): Exposure {
  const notCounted: string[] = [];
  const individual = input.individual ?? new Map<string, number | null>();
  if (input.individual === undefined) notCounted.push('individual user limits (not read: the config does not manage them)');
  let individualCredits: number | null = 0;
  for (const limit of individual.values()) individualCredits = plus(individualCredits, limit);
  const exposure: Exposure = { credits: 0, individual: { users: individual.size, credits: individualCredits }, notCounted, rule: EXPOSURE_RULE };

  // Members without a limit of their own take the highest limit among their limited groups.
  const byGroup = new Map<string, number | null>();
  if (input.groups === undefined) notCounted.push('user group limits (not read: the config does not manage them)');
  else {
    const unknownMembers: string[] = [];
    for (const [groupId, limit] of input.groups.limits) {
      const members = input.groups.members(groupId);
      if (members === undefined) {
        unknownMembers.push(groupId);
        continue;
      }
      for (const userId of members) if (!individual.has(userId)) byGroup.set(userId, higher(byGroup.get(userId), limit));
    }
    if (unknownMembers.length > 0) notCounted.push(`the members of user group${unknownMembers.length === 1 ? '' : 's'} ${unknownMembers.join(', ')} (not known)`);
    let groupCredits: number | null = 0;
    for (const limit of byGroup.values()) groupCredits = plus(groupCredits, limit);
    exposure.groups = { users: byGroup.size, credits: groupCredits };
  }

  if (input.userDefault === undefined) notCounted.push('the default (credit controls are not in the config)');
  else if (input.users === undefined) notCounted.push('the users on the default (the number of users is not known)');
  else {
    const onDefault = Math.max(0, input.users - individual.size - byGroup.size);
    exposure.default = { users: onDefault, perUser: input.userDefault, credits: onDefault === 0 ? 0 : input.userDefault === null ? null : onDefault * input.userDefault };
  }

  // A part absent adds nothing; a part that is null (unlimited) makes the whole unlimited.
  const parts = [exposure.individual, exposure.groups, exposure.default].flatMap((part) => (part === undefined ? [] : [part.credits]));
  exposure.credits = parts.reduce<number | null>(plus, 0);
  if (typeof input.accountCreditLimit === 'number' && input.accountCreditLimit > 0) exposure.accountCreditLimit = input.accountCreditLimit;
  return exposure;
}
