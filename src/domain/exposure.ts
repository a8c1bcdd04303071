// The most credits a configuration allows per period, as an estimate. No vendor source says how an
// individual limit, the limits of a user's groups and the default combine, so steward chooses one
// rule and says it (docs/api-contract.md, open points): a user's own limit when she has one, else
// the highest limit among her groups that have one, else the default; null (unlimited) is above
// every number. The sum over every user is the exposure; unlimited anywhere makes it unlimited.
// A part the caller could not know (no live limits read, no user count) is named, and the sum is
// then a lower bound. Pure.
import { arrayOf, definition, described, objectOf, scalar, type Schema, type Static, type Typed } from '../typedSchema.js';

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

/** Credits, or null where a limit is unlimited. */
const credits = scalar(['number', 'null'], { minimum: 0 });

/** One part of the sum (`$defs/exposurePart` of the plan's schema). */
export const exposurePart = definition(
  'exposurePart',
  described(
    'One part of the exposure: how many users it covers and what they may spend (null = unlimited).',
    objectOf({ users: scalar('integer', { minimum: 0 }), credits }, ['users', 'credits']),
  ),
);
export type ExposurePart = Static<typeof exposurePart.ref>;

/** `base` with more fields, as a JSON Schema extends an object (`allOf`). */
function extended<A, B>(base: Typed<A>, more: Typed<B>): Typed<A & B> {
  const fields: Schema = more;
  return { allOf: [base], ...fields };
}

/**
 * The estimate, declared once: its schema (a plan's `exposure`, schemas/plan.schema.json, which
 * lists `exposurePart` among its definitions) and its type (Exposure).
 */
export const exposureSchema = objectOf(
  {
    credits: described('The sum; null = unlimited.', credits),
    individual: exposurePart.ref,
    groups: exposurePart.ref,
    default: extended(exposurePart.ref, objectOf({ perUser: described('The default; null = unlimited.', credits) }, ['perUser'])),
    notCounted: described('What the estimate could not count, in words; empty when complete.', arrayOf(scalar('string'))),
    accountCreditLimit: described("The account's limit, when it has one.", scalar('number', { minimum: 0 })),
    rule: described('How the limits were combined, in words.', scalar('string', { minLength: 1 })),
  },
  ['credits', 'individual', 'notCounted', 'rule'],
);
/** The most credits per period, a lower bound when `notCounted` is not empty; null = unlimited. */
export type Exposure = Static<typeof exposureSchema>;

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
