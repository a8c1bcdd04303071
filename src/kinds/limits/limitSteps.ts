// The diff shared by the group credit-limit kinds: each declared subject's limit is a number,
// `null` (explicit unlimited) or "default" (no limit of its own); a live limit the config does not
// declare is reset when the kind is pruned, unless protected. A reset is a `delete` step whose
// write is `useDefaultLimit: true`. Pure.
import type { PrunableKind } from '../../config/types.js';
import { unreachable } from '../../errors.js';
import type { KindPresentation } from '../../model/kind.js';
import type { KindSteps, PlanStep } from '../../model/plan.js';
import { formatValue } from '../../model/present.js';
import { protectedError, PRUNED_REASON, resetPaths } from '../protection.js';
import { expiryOf, untilOf, type EntryExpiry } from '../expiry.js';

/** What a credit-limit step compares and writes (KindSteps' `state` of the three limit kinds). */
export type LimitState = { creditLimit: number | null };

/** The credit-limit kinds, whose steps share this file's diff, words and writes. */
export type LimitKind = 'userCreditLimits' | 'userGroupCreditLimits' | 'entityGroupCreditLimits';

/** One declared limit, its subject already an id the API takes. */
export interface DesiredLimit {
  /** Its position in the config's section (errors point at it). */
  index: number;
  /** The subject as the API names it (user group id, entity). */
  id: string;
  /** How people know the subject (group display name, entity). */
  display: string;
  creditLimit: number | null | 'default';
  protect: boolean;
  /** `ignore: [creditLimit]`: the limit is set when created, never changed or reset afterwards. */
  ignoreLimit?: boolean;
  /** `until:` at the plan's instant: in force until a day, or expired (creditLimit is then `then`). */
  expiry?: EntryExpiry;
}

/** A declared limit as of `now`: once its `until` has passed, its limit is `then` (the default when there is none). */
export function limitInForce(entry: { creditLimit: number | null | 'default'; until?: string; then?: number | null | 'default' }, now: Date | undefined): Pick<DesiredLimit, 'creditLimit' | 'expiry'> {
  const expiry = expiryOf(entry, now);
  if (expiry === undefined) return { creditLimit: entry.creditLimit };
  return { creditLimit: expiry.expired ? (entry.then === undefined ? 'default' : entry.then) : entry.creditLimit, expiry };
}

export interface LimitDiffInput<K extends LimitKind> {
  kind: K;
  /** The step's `ref`, which carries the subject's id to the applier. */
  refOf: (id: string) => KindSteps[K]['ref'];
  /** Words for the subject in messages: `the credit limit of user group "Finance"`. */
  describe: (display: string) => string;
  limits: readonly DesiredLimit[];
  prune: boolean;
  isProtected: (id: string) => boolean;
  /** How people know an undeclared live subject. */
  displayOf: (id: string) => string;
}

/** The steps that make `live` (subject id → limit) match the declared limits. */
export function limitSteps<K extends LimitKind>(input: LimitDiffInput<K>, live: ReadonlyMap<string, number | null>): PlanStep<K>[] {
  const steps: PlanStep<K>[] = [];
  const declared = new Set<string>();
  const base = (id: string, key: string) => ({ id: `${input.kind}/${id}`, kind: input.kind, key, dependsOn: [], ref: input.refOf(id) });
  for (const limit of input.limits) {
    declared.add(limit.id);
    const current = live.has(limit.id) ? { creditLimit: live.get(limit.id)! } : undefined;
    const declaredStep = { ...base(limit.id, limit.display), ...untilOf(limit.expiry) };
    const expired = limit.expiry?.expired === true ? limit.expiry.reason : undefined;
    if (limit.creditLimit === 'default') {
      if (current === undefined || limit.ignoreLimit === true) continue;
      if (limit.protect) {
        throw protectedError(input.describe(limit.display), expired === undefined ? 'the config resets it to the default' : `its \`until\` has passed (${expired}), which resets it to the default`, {
          details: { configPaths: resetPaths(input.kind, limit.index, expired !== undefined) },
        });
      }
      steps.push({ ...declaredStep, action: 'delete', before: current, reason: expired === undefined ? 'reset to the default limit' : `${expired}: reset to the default limit` });
      continue;
    }
    const after = { creditLimit: limit.creditLimit };
    const why = expired === undefined ? {} : { reason: `${expired}: back to ${limit.creditLimit === null ? 'unlimited' : limit.creditLimit}` };
    if (current === undefined) steps.push({ ...declaredStep, action: 'create', after, ...(limit.ignoreLimit === true ? { ignore: ['creditLimit'] } : {}), ...why });
    else if (current.creditLimit !== limit.creditLimit && limit.ignoreLimit !== true) {
      steps.push({ ...declaredStep, action: 'update', before: current, after, fields: [{ path: 'creditLimit', before: current.creditLimit, after: limit.creditLimit }], ...why });
    }
  }
  if (input.prune) {
    for (const [id, creditLimit] of live) {
      if (declared.has(id) || input.isProtected(id)) continue;
      steps.push({ ...base(id, input.displayOf(id)), action: 'delete', before: { creditLimit }, reason: `${PRUNED_REASON}; resets to the default limit` });
    }
  }
  return steps;
}

/** The limits of `live` once `steps` are applied (a reset removes its subject's own limit), by the subject each names. */
export function limitsAfter<K extends LimitKind>(live: ReadonlyMap<string, number | null>, steps: readonly PlanStep<K>[], subjectOf: (step: PlanStep<K>) => string): Map<string, number | null> {
  const after = new Map(live);
  for (const step of steps) {
    const id = subjectOf(step);
    if (step.action === 'delete') after.delete(id);
    else after.set(id, step.after.creditLimit);
  }
  return after;
}

/** The bulk-PATCH entry fields that carry out one step: a limit, or back to the default. */
export function limitValue(step: PlanStep<LimitKind>): { creditLimit: number | null } | { useDefaultLimit: true } {
  switch (step.action) {
    case 'delete':
      return { useDefaultLimit: true };
    case 'create':
    case 'update':
    case 'replace':
      return { creditLimit: step.after.creditLimit };
    default:
      return unreachable(step);
  }
}

/**
 * How a credit-limit kind's steps read: the title says it all (`user credit limit
 * grace@acme.example: 500 → 750`), and a null limit is "unlimited".
 */
export function limitPresentation(noun: readonly [string, string], title: (key: string) => string): KindPresentation<LimitKind> {
  const value = (limit: unknown) => formatValue(limit, 'unlimited');
  return {
    noun,
    title(step) {
      switch (step.action) {
        case 'create':
          return `${title(step.key)}: ${value(step.after.creditLimit)}`;
        case 'update':
        case 'replace':
          return `${title(step.key)}: ${value(step.before.creditLimit)} → ${value(step.after.creditLimit)}`;
        case 'delete':
          return `${title(step.key)}: ${value(step.before.creditLimit)} → default`;
        default:
          return unreachable(step);
      }
    },
    nullMeans: () => 'unlimited',
    details: false,
  };
}
