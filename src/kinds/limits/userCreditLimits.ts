// Per-user credit limits. Identity is the user id (the config names users by e-mail, resolved
// through SCIM). A limit is a number, `null` (explicit unlimited override) or "default" (no
// individual limit). Writes go in bulk PATCHes of up to 1000 users, each applied atomically.
import type { PlatformApi } from '../../api/platform.js';
import { StewardError, unreachable } from '../../errors.js';
import type { UserCreditLimitWrite } from '../../api/types.js';
import type { UserCreditLimitConfig } from '../../config/types.js';
import { CREDIT_LIMIT_BATCH_MAX, emailKey } from '../../domain/rules.js';
import type { PlanStep, PlanWarning } from '../../model/plan.js';
import { type KindExport, type ResourceKind } from '../../model/kind.js';
import { compareText, creditLimitValues, expectLimitsTaken, textOf, withOwnFlags } from '../shared.js';
import { requireDistinctUsers } from '../../config/declared.js';
import { limitPresentation, limitsAfter, type LimitState } from './limitSteps.js';
import { liveCreditControls, loweredLimit } from '../lowered.js';
import { protectedError, protectedInEnvironment, PRUNED_REASON, resetPaths } from '../protection.js';
import { expiryOf, type EntryExpiry } from '../expiry.js';

declare module '../../model/plan.js' {
  interface KindSteps {
    /** A user's own limit; `ref.userId` names the user. */
    userCreditLimits: { state: LimitState; ref: { userId: string } };
  }
}

export interface DesiredUserLimit {
  /** Its position in the config's `userCreditLimits` (errors point at it). */
  index: number;
  userId: string;
  /** How people know the user: the e-mail when the config gave one or SCIM knows it. */
  display: string;
  creditLimit: number | null | 'default';
  protect: boolean;
  /** `ignore: [creditLimit]`: the limit is set when created, never changed or reset afterwards. */
  ignoreLimit: boolean;
  /** `until:` at the plan's instant: in force until a day, or expired (creditLimit is then `then`). */
  expiry?: EntryExpiry;
}

export interface DesiredUserLimits {
  users: DesiredUserLimit[];
  prune: boolean;
  /** Whether a live limit of this user must survive pruning. */
  isProtected: (userId: string) => boolean;
  /** E-mail (or id) of a user id, for undeclared live limits. */
  display: (userId: string) => string;
  /** Whether SCIM named this user id (asked only with a key that can use SCIM). */
  named: (userId: string) => boolean;
  /** The key can use SCIM, so an id it does not name is one SCIM does not know. */
  scim: boolean;
}

/** Live individual limits: user id → limit (null = explicit unlimited). */
export type LiveUserLimits = Map<string, number | null>;

// Export: every individual limit, its user named by e-mail where SCIM knows it.

/** One individual credit limit, with the user's e-mail when SCIM knows it. */
export interface LiveUserLimit {
  userId: string;
  email: string | undefined;
  creditLimit: number | null;
}

const userCreditLimitsExport: KindExport<DesiredUserLimits, LiveUserLimits, LiveUserLimit[]> = {
  // The listing needs no identity: it runs while routine owners are looked up.
  start: (api, signal) => listLimits(api, signal),
  // Its users are named after that, so when some limits are live, even one owner is looked up by
  // the SCIM listing's page 1, which may name them too (a listing that failed says no: its error is
  // its own read's, and an unknown owner is still told as such).
  namesUsers: (started) => (started as Promise<LiveUserLimits>).then((live) => live.size > 0, () => false),
  async read(context) {
    const everyone = { users: [], prune: false, isProtected: () => false, display: (userId: string) => userId, named: () => true, scim: false };
    const live = await context.read(everyone);
    // Export names every user it can by e-mail (reading resolves only those a prune would touch),
    // and the key's own user with them (whoami gives no e-mail), in the same lookups.
    const caller = context.directory.caller;
    await context.directory.resolveIds([...live.keys(), ...(caller === undefined || live.size === 0 ? [] : [caller.id])]);
    return [...live].map(([userId, creditLimit]) => ({ userId, email: context.directory.emailOf(userId), creditLimit }));
  },
  section: userCreditLimitsConfig,
  holds: () => 'individual user credit limits',
  refusePromotion(live, source) {
    // Users are matched across environments by e-mail.
    const unnamed = live.filter((limit) => limit.email === undefined).map((limit) => limit.userId);
    if (unnamed.length === 0) return;
    throw new StewardError('promote.unnamed-user', `${source} has individual credit limits for users whose e-mail SCIM does not give (${unnamed.join(', ')}); users are matched across environments by e-mail`, 'user', {
      hint: `use an organization key for ${source} (SCIM needs one), or remove those limits there`,
    });
  },
  promoted: {
    // By e-mail (in any case) where the promoted limit names its user by one, else by user id: an
    // e-mail is never taken for a declared user id that spells it, as `entries.hasKey` would.
    declaredFor: (entry: UserCreditLimitConfig, declared: readonly UserCreditLimitConfig[]) =>
      declared.find((candidate) =>
        entry.email !== undefined ? candidate.email !== undefined && emailKey(candidate.email) === emailKey(entry.email) : candidate.userId === entry.userId,
      ),
    withFlags: withOwnFlags<UserCreditLimitConfig>,
  },
};

/** One entry per individual limit: by e-mail when known, else by user id; sorted. */
export function userCreditLimitsConfig(live: readonly LiveUserLimit[]): UserCreditLimitConfig[] {
  return live
    .map((limit): UserCreditLimitConfig =>
      limit.email === undefined ? { userId: limit.userId, creditLimit: limit.creditLimit } : { email: limit.email, creditLimit: limit.creditLimit },
    )
    .sort((a, b) => compareText(a.email ?? a.userId ?? '', b.email ?? b.userId ?? ''));
}

export const userCreditLimits: ResourceKind<DesiredUserLimits, LiveUserLimits, 'userCreditLimits'> = {
  kind: 'userCreditLimits',
  presentation: limitPresentation(['user credit limit', 'user credit limits'], (key) => `user credit limit ${key}`),
  order: { level: 1, deletesAreResets: true },
  entries: {
    keyOf: (entry) => textOf(entry.email) ?? textOf(entry.userId),
    hasKey: (entry, key) => (typeof entry.email === 'string' ? emailKey(entry.email) === emailKey(key) : entry.userId === key),
    identityFields: ['email', 'userId'],
  },
  targeting: {
    noun: 'user credit limit for',
    names: (config) => (config.userCreditLimits ?? []).map((limit) => limit.email ?? limit.userId ?? ''),
    pruned: (config) => config.prune?.userCreditLimits === true,
    // A limit declared by user id may be targeted by its user's e-mail, known only once resolved.
    mayName: (name, config) => name.includes('@') && (config.userCreditLimits ?? []).some((limit) => limit.userId !== undefined),
  },
  access: { adminOnly: true },
  export: userCreditLimitsExport,
  readAfter: [],

  declared: (config) => config.userCreditLimits !== undefined || config.prune?.userCreditLimits === true,

  emails(config) {
    return (config.userCreditLimits ?? []).flatMap((entry) => (entry.email === undefined ? [] : [entry.email]));
  },

  userIds(config) {
    return (config.userCreditLimits ?? []).flatMap((entry) => (entry.userId === undefined ? [] : [entry.userId]));
  },

  desired({ config, environment, directory, now }) {
    const ignoredByKind = config.ignore?.userCreditLimits?.includes('creditLimit') === true;
    const users = (config.userCreditLimits ?? []).map((entry, index): DesiredUserLimit => {
      const userId = entry.email === undefined ? entry.userId! : directory.idOf(entry.email);
      const user: DesiredUserLimit = {
        index,
        userId,
        display: entry.email ?? directory.display(userId),
        creditLimit: entry.creditLimit,
        protect: entry.protect === true,
        ignoreLimit: ignoredByKind || entry.ignore?.includes('creditLimit') === true,
      };
      const expiry = expiryOf(entry, now);
      if (expiry !== undefined) {
        user.expiry = expiry;
        // Once expired, the limit goes back to `then` (the default when there is none).
        if (expiry.expired) user.creditLimit = entry.then === undefined ? 'default' : entry.then;
      }
      return user;
    });
    return {
      users,
      prune: config.prune?.userCreditLimits === true,
      isProtected: (userId) =>
        protectedInEnvironment(environment, 'userCreditLimits', [userId, directory.emailOf(userId)]),
      display: (userId) => directory.display(userId),
      named: (userId) => directory.emailOf(userId) !== undefined,
      scim: directory.keyScope === 'organization',
    };
  },

  liveUserIds: (live) => live.keys(),

  // A plan that prunes user limits names the users of the undeclared ones: when more limits are
  // live than the config declares, some are undeclared. A listing that failed says no here: its
  // error is its own read's.
  namesUndeclaredUsers: async (config, started) =>
    config.prune?.userCreditLimits === true && (await (started as Promise<LiveUserLimits>).then((live) => live.size > (config.userCreditLimits ?? []).length, () => false)),

  checkResolved: requireDistinctUsers,

  // The listing needs no e-mail resolved: it runs alongside SCIM, the longest chain of a large plan.
  start: (api, signal) => listLimits(api, signal),

  async read({ api, directory, started }, desired) {
    const live = ((await started) as LiveUserLimits | undefined) ?? (await listLimits(api));
    if (desired.prune) {
      // Only limits that pruning will reset need a name in the plan; the others cost nothing.
      const declared = new Set(desired.users.map((user) => user.userId));
      await directory.resolveIds([...live.keys()].filter((userId) => !declared.has(userId) && !desired.isProtected(userId)));
    }
    return live;
  },

  diff(desired, live) {
    const steps: PlanStep<'userCreditLimits'>[] = [];
    const declared = new Set<string>();
    for (const user of desired.users) {
      const { userId } = user;
      declared.add(userId);
      // One lookup: a live limit is a number or null (unlimited), never undefined.
      const liveLimit = live.get(userId);
      const id = `userCreditLimits/${userId}`;
      // Steps are built as plain literals, their optional fields set only where present: a plan
      // of ten thousand limits makes ten thousand of them.
      let step: PlanStep<'userCreditLimits'>;
      if (user.creditLimit === 'default') {
        if (liveLimit === undefined || user.ignoreLimit) continue;
        if (user.protect) {
          const expired = user.expiry?.expired === true ? user.expiry.reason : undefined;
          throw protectedError(`the credit limit of ${user.display}`, expired === undefined ? 'the config resets it to the default' : `its \`until\` has passed (${expired}), which resets it to the default`, {
            details: { configPaths: resetPaths('userCreditLimits', user.index, expired !== undefined) },
          });
        }
        step = { id, kind: 'userCreditLimits', key: user.display, dependsOn: [], ref: { userId }, action: 'delete', before: { creditLimit: liveLimit }, reason: 'reset to the default limit' };
      } else if (liveLimit === undefined) {
        step = { id, kind: 'userCreditLimits', key: user.display, dependsOn: [], ref: { userId }, action: 'create', after: { creditLimit: user.creditLimit } };
        if (user.ignoreLimit) step.ignore = ['creditLimit'];
      } else if (liveLimit !== user.creditLimit && !user.ignoreLimit) {
        step = {
          id,
          kind: 'userCreditLimits',
          key: user.display,
          dependsOn: [],
          ref: { userId },
          action: 'update',
          before: { creditLimit: liveLimit },
          after: { creditLimit: user.creditLimit },
          fields: [{ path: 'creditLimit', before: liveLimit, after: user.creditLimit }],
        };
      } else continue;
      if (user.expiry !== undefined) {
        if (!user.expiry.expired) step.until = user.expiry.until;
        else step.reason = `${user.expiry.reason}: ${step.action === 'delete' ? 'reset to the default limit' : `back to ${user.creditLimit === null ? 'unlimited' : String(user.creditLimit)}`}`;
      }
      steps.push(step);
    }
    const unnamed: string[] = [];
    if (desired.prune) {
      for (const [userId, creditLimit] of live) {
        if (declared.has(userId) || desired.isProtected(userId)) continue;
        if (desired.scim && !desired.named(userId)) unnamed.push(userId);
        steps.push({
          id: `userCreditLimits/${userId}`,
          kind: 'userCreditLimits',
          key: desired.display(userId),
          action: 'delete',
          dependsOn: [],
          ref: { userId },
          before: { creditLimit },
          reason: `${PRUNED_REASON}; resets to the default limit`,
        });
      }
    }
    return { steps, warnings: unnamed.length === 0 ? [] : [unnamedWarning(unnamed)] };
  },

  current(step, live) {
    const userId = step.ref.userId;
    return live.has(userId) ? { creditLimit: live.get(userId)! } : undefined;
  },

  /** Bulk PATCHes of at most 1000 users; a batch succeeds or fails as a whole (the server is atomic). */
  async apply(steps, { api, attempt }) {
    for (let start = 0; start < steps.length; start += CREDIT_LIMIT_BATCH_MAX) {
      const batch = steps.slice(start, start + CREDIT_LIMIT_BATCH_MAX);
      await attempt(batch, async () => {
        const { users } = await api.patchUserCreditLimits({ users: batch.map(limitWrite) });
        expectLimitsTaken('the credit limit', batch, new Map(users.map((user) => [user.userId, user])), (step) => step.ref.userId);
      });
    }
  },

  writeRequests: (steps) => Math.ceil(steps.length / CREDIT_LIMIT_BATCH_MAX),

  credits: creditLimitValues,

  allowance: (live, steps) => ({ scope: 'users', limits: limitsAfter(live, steps, (step) => step.ref.userId) }),

  // The user's own usage decides; the default a new limit replaces is known where credit controls were read.
  lowered(step, allLive) {
    const limit = loweredLimit(step, liveCreditControls(allLive)?.userDefaultCredits);
    return limit === undefined ? [] : [{ scope: 'user', field: 'creditLimit', limit, effect: 'cutoff', userId: step.ref.userId }];
  },
};

/**
 * Live limits of user ids SCIM does not know: users gone since, or an instance whose limits name
 * users by another id than SCIM's (an open point of the API), where every declared user would
 * look new and every live limit undeclared. Said before anyone approves resetting them.
 */
function unnamedWarning(ids: readonly string[]): PlanWarning {
  const shown = ids.slice(0, 3).join(', ');
  return {
    code: 'userCreditLimits.unknown-ids',
    message:
      `${ids.length === 1 ? '1 live user credit limit belongs' : `${ids.length} live user credit limits belong`} to user ids SCIM does not know (${shown}${ids.length > 3 ? `, and ${ids.length - 3} more` : ''}), and pruning resets ${ids.length === 1 ? 'it' : 'them'}. ` +
      "If they are users deleted since, that is right; if this instance's limits name users by other ids than SCIM's, the declared users' limits are shown as new and their live ones as undeclared: check an id in the app before applying",
  };
}

/** Every live limit; stops asking for pages once `signal` is aborted. */
async function listLimits(api: PlatformApi, signal?: AbortSignal): Promise<LiveUserLimits> {
  const live: LiveUserLimits = new Map();
  for await (const record of api.listUserCreditLimits()) {
    signal?.throwIfAborted();
    live.set(record.userId, record.creditLimit);
  }
  return live;
}

/** The bulk-PATCH entry that carries out one step. */
export function limitWrite(step: PlanStep<'userCreditLimits'>): UserCreditLimitWrite {
  const userId = step.ref.userId;
  switch (step.action) {
    case 'delete':
      return { userId, useDefaultLimit: true };
    case 'create':
    case 'update':
    case 'replace':
      return { userId, creditLimit: step.after.creditLimit };
    default:
      return unreachable(step);
  }
}
