// A plan's impacts on this period's usage: what each step that lowers a credit limit does once
// applied (creditLimits.belowUsage judges them). The kinds say what their steps lower (`lowered`);
// the organization's usage comes with the credit controls already read, and per-user usage is
// read only for the users whose own limit goes down, up to 1,000 per request. The usage endpoint
// is known from the vendor's OmniKit and agent skills, not its OpenAPI: a server that answers
// 404 or 403 (or fails otherwise) gets a warning, never a failed plan.
import { ApiError } from '../api/errors.js';
import { unreachable } from '../errors.js';
import type { PlatformApi } from '../api/platform.js';
import type { Kind } from '../config/types.js';
import { grouped } from '../domain/numbers.js';
import type { LoweredLimit, ResourceKind } from '../model/kind.js';
import type { PlanImpact, PlanStep, PlanWarning, StepKind } from '../model/plan.js';

/** A lowered limit with the step that lowers it. */
export interface Lowering extends LoweredLimit {
  step: PlanStep;
}

/** Every limit the steps lower, as their kinds declare them. Pure. */
export function lowerings(steps: readonly PlanStep[], registry: ReadonlyMap<StepKind, ResourceKind>, live: Partial<Record<Kind, unknown>>): Lowering[] {
  return steps.flatMap((step) => (registry.get(step.kind)?.lowered?.(step, live) ?? []).map((lowered) => ({ ...lowered, step })));
}

/** The impacts of `lowered`, given the users' usage read (user id → credits used). Pure. */
export function impactsOf(lowered: readonly Lowering[], usage: ReadonlyMap<string, number>): PlanImpact[] {
  return lowered.flatMap((lowering): PlanImpact[] => {
    const used = lowering.used ?? (lowering.userId === undefined ? undefined : usage.get(lowering.userId));
    if (used === undefined || used < lowering.limit) return [];
    const { step, scope, field, limit, effect } = lowering;
    const certain = scope === 'organization' || scope === 'user';
    return [{ step: step.id, kind: step.kind, scope, subject: step.key, field, limit, used, effect, certain, message: impactMessage(lowering, used) }];
  });
}

/** One sentence: the value, the usage it is below, and what happens as soon as it applies. */
function impactMessage({ step, scope, field, limit, effect }: Lowering, used: number): string {
  const below = limit < used ? 'below' : 'at';
  const estimate = 'an estimate: their own usage is not read';
  switch (scope) {
    case 'organization':
      return `${field} ${grouped(limit)} is ${below} the ${grouped(used)} credits used this period: AI ${effect === 'shutoff' ? 'shuts off' : 'moves to the cheaper model'} for the whole organization as soon as this applies`;
    case 'user':
      return `${step.key} has used ${grouped(used)} credits this period; the new limit of ${grouped(limit)} cuts this user off at once`;
    case 'default':
      return `${field} ${grouped(limit)} is ${below} the ${grouped(used)} credits the organization has used this period: users on the default who have used ${grouped(limit)} or more are cut off at once (${estimate})`;
    case 'userGroup':
    case 'entityGroup':
      return `${scope === 'userGroup' ? 'user group' : 'entity group'} "${step.key}": the new limit of ${grouped(limit)} is ${below} the ${grouped(used)} credits the organization has used this period: members who have used that much are cut off at once (${estimate})`;
    default:
      return unreachable(scope);
  }
}

/** Reads the usage the lowered limits need and returns their impacts, with a warning when usage cannot be read. */
export async function assessImpacts(
  steps: readonly PlanStep[],
  registry: ReadonlyMap<StepKind, ResourceKind>,
  live: Partial<Record<Kind, unknown>>,
  api: Pick<PlatformApi, 'readUserCreditUsage'>,
): Promise<{ impacts: PlanImpact[]; warnings: PlanWarning[] }> {
  const lowered = lowerings(steps, registry, live);
  const userIds = [...new Set(lowered.flatMap((lowering) => (lowering.userId === undefined ? [] : [lowering.userId])))];
  let usage = new Map<string, number>();
  const warnings: PlanWarning[] = [];
  if (userIds.length > 0) {
    try {
      usage = await api.readUserCreditUsage(userIds);
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      warnings.push(usageUnavailable(error, userIds.length));
    }
  }
  return { impacts: impactsOf(lowered, usage), warnings };
}

/** The warning for usage that could not be read: the plan goes on without those impacts. */
function usageUnavailable(error: ApiError, users: number): PlanWarning {
  const absent = error.status === 404 || error.status === 403;
  const why = absent ? `${error.route} answered ${error.status}` : error.message;
  return {
    code: 'usage.unavailable',
    message: `usage not available on this instance (${why}): the plan cannot say whether the lower limits of ${users === 1 ? '1 user cut them' : `${grouped(users)} users cut them`} off this period`,
  };
}
