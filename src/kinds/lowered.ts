// What a credit step lowers, for the plan's impacts on this period's usage (engine/impacts.ts):
// the comparisons the credit kinds share. null is unlimited (a limit) or off (a threshold): every
// number is lower than it. A subject without a limit of its own follows a default, known only
// where the plan read the credit controls; where it did not, a new limit is not judged.
import type { CreditControls } from '../api/types.js';
import { unreachable } from '../errors.js';
import type { Kind } from '../config/types.js';
import type { LoweredLimit } from '../model/kind.js';
import type { PlanStep } from '../model/plan.js';
import type { LimitKind } from './limits/limitSteps.js';

/** Whether `after` is a number below `before` (a number, or null: unlimited or off). */
export function isLower(after: unknown, before: unknown): after is number {
  return typeof after === 'number' && (before === null || (typeof before === 'number' && after < before));
}

/** The live credit controls, when the plan read them. */
export function liveCreditControls(allLive: Partial<Record<Kind, unknown>>): CreditControls | undefined {
  return allLive.creditControls as CreditControls | undefined;
}

/** The organization's usage this period, when the plan read the credit controls and they say it. */
export function organizationUsage(allLive: Partial<Record<Kind, unknown>>): number | undefined {
  return liveCreditControls(allLive)?.creditsUsed ?? undefined;
}

/**
 * The limit a limit step lowers, if it lowers one: an update to a lower value, a new limit below
 * the default it replaces, a reset to a default below the limit it had. `fallback` is that
 * default (undefined: not read, so not judged).
 */
export function loweredLimit(step: PlanStep<LimitKind>, fallback: number | null | undefined): number | undefined {
  switch (step.action) {
    case 'update':
    case 'replace':
      return isLower(step.after.creditLimit, step.before.creditLimit) ? step.after.creditLimit : undefined;
    case 'create':
      return fallback !== undefined && isLower(step.after.creditLimit, fallback) ? step.after.creditLimit : undefined;
    case 'delete':
      return fallback !== undefined && isLower(fallback, step.before.creditLimit) ? (fallback as number) : undefined;
    default:
      return unreachable(step);
  }
}

/** The lowering of a group's or entity group's limit: judged against the organization's usage (an estimate). */
export function groupLowered(step: PlanStep<LimitKind>, scope: 'userGroup' | 'entityGroup', fallback: number | null | undefined, allLive: Partial<Record<Kind, unknown>>): LoweredLimit[] {
  const limit = loweredLimit(step, fallback);
  const used = organizationUsage(allLive);
  return limit === undefined ? [] : [{ scope, field: 'creditLimit', limit, effect: 'cutoff', ...(used === undefined ? {} : { used }) }];
}
