// Per-user credit limits. Identity is the user id (the config names users by e-mail, resolved
// through SCIM). A limit is a number, `null` (explicit unlimited override) or "default" (no
// individual limit). Writes go in bulk PATCHes of up to 1000 users, each applied atomically.
import type { PlatformApi } from '../api/platform.js';
import type { UserCreditLimitWrite } from '../api/types.js';
import { CREDIT_LIMIT_BATCH_MAX } from '../domain/rules.js';
import type { PlanStep } from '../plan/types.js';
import { creditLimitValues, type ResourceKind } from './kind.js';
import { protectedError, protectedInEnvironment, PRUNED_REASON } from './protection.js';

export interface DesiredUserLimit {
  userId: string;
  /** How people know the user: the e-mail when the config gave one or SCIM knows it. */
  display: string;
  creditLimit: number | null | 'default';
  protect: boolean;
}

export interface DesiredUserLimits {
  users: DesiredUserLimit[];
  prune: boolean;
  /** Whether a live limit of this user must survive pruning. */
  isProtected: (userId: string) => boolean;
  /** E-mail (or id) of a user id, for undeclared live limits. */
  display: (userId: string) => string;
}

/** Live individual limits: user id → limit (null = explicit unlimited). */
export type LiveUserLimits = Map<string, number | null>;

export const userCreditLimits: ResourceKind<DesiredUserLimits, LiveUserLimits> = {
  kind: 'userCreditLimits',
  readAfter: [],

  declared: (config) => config.userCreditLimits !== undefined || config.prune?.userCreditLimits === true,

  emails(config) {
    return (config.userCreditLimits ?? []).flatMap((entry) => (entry.email === undefined ? [] : [entry.email]));
  },

  userIds(config) {
    return (config.userCreditLimits ?? []).flatMap((entry) => (entry.userId === undefined ? [] : [entry.userId]));
  },

  desired({ config, environment, directory }) {
    const users = (config.userCreditLimits ?? []).map((entry): DesiredUserLimit => {
      const userId = entry.email === undefined ? entry.userId! : directory.idOf(entry.email);
      return {
        userId,
        display: entry.email ?? directory.display(userId),
        creditLimit: entry.creditLimit,
        protect: entry.protect === true,
      };
    });
    return {
      users,
      prune: config.prune?.userCreditLimits === true,
      isProtected: (userId) =>
        protectedInEnvironment(environment, 'userCreditLimits', [userId, directory.emailOf(userId)]),
      display: (userId) => directory.display(userId),
    };
  },

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
    const steps: PlanStep[] = [];
    const declared = new Set<string>();
    for (const user of desired.users) {
      const { userId } = user;
      declared.add(userId);
      // One lookup: a live limit is a number or null (unlimited), never undefined.
      const liveLimit = live.get(userId);
      const id = `userCreditLimits/${userId}`;
      if (user.creditLimit === 'default') {
        if (liveLimit === undefined) continue;
        if (user.protect) throw protectedError(`the credit limit of ${user.display}`, 'the config resets it to the default');
        steps.push({ id, kind: 'userCreditLimits', key: user.display, dependsOn: [], ref: { userId }, action: 'delete', before: { creditLimit: liveLimit }, reason: 'reset to the default limit' });
        continue;
      }
      if (liveLimit === undefined) {
        steps.push({ id, kind: 'userCreditLimits', key: user.display, dependsOn: [], ref: { userId }, action: 'create', after: { creditLimit: user.creditLimit } });
      } else if (liveLimit !== user.creditLimit) {
        steps.push({
          id,
          kind: 'userCreditLimits',
          key: user.display,
          dependsOn: [],
          ref: { userId },
          action: 'update',
          before: { creditLimit: liveLimit },
          after: { creditLimit: user.creditLimit },
          fields: [{ path: 'creditLimit', before: liveLimit, after: user.creditLimit }],
        });
      }
    }
    if (desired.prune) {
      for (const [userId, creditLimit] of live) {
        if (declared.has(userId) || desired.isProtected(userId)) continue;
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
    return { steps, warnings: [] };
  },

  current(step, live) {
    const userId = step.ref.userId!;
    return live.has(userId) ? { creditLimit: live.get(userId)! } : undefined;
  },

  /** Bulk PATCHes of at most 1000 users; a batch succeeds or fails as a whole (the server is atomic). */
  async apply(steps, { api, attempt }) {
    for (let start = 0; start < steps.length; start += CREDIT_LIMIT_BATCH_MAX) {
      const batch = steps.slice(start, start + CREDIT_LIMIT_BATCH_MAX);
      await attempt(batch, () => api.patchUserCreditLimits({ users: batch.map(limitWrite) }));
    }
  },

  writeRequests: (steps) => Math.ceil(steps.length / CREDIT_LIMIT_BATCH_MAX),

  credits: creditLimitValues,
};

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
export function limitWrite(step: PlanStep): UserCreditLimitWrite {
  const userId = step.ref.userId!;
  switch (step.action) {
    case 'delete':
      return { userId, useDefaultLimit: true };
    case 'create':
    case 'update':
    case 'replace':
      return { userId, creditLimit: step.after.creditLimit as number | null };
  }
}
