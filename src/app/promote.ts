// The promotion use case, below `steward diff`: what the target environment would change to match
// the source's live state, as a plan that `steward apply --env TARGET FILE` applies.
import type { ApiClient } from '../api/client.js';
import type { PlatformApi } from '../api/platform.js';
import type { LoadedConfig } from '../config/types.js';
import { makePlan } from '../engine/planner.js';
import { refuseUnderStrict } from '../engine/strict.js';
import { PRUNED_REASON, UNLISTED_DOCUMENT_REASON, UNLISTED_FOLDER_REASON } from '../kinds/protection.js';
import type { Plan, PlanModel } from '../model/plan.js';
import { readPromotion } from '../promote/source.js';

/** One side of a promotion: its client (for the request count) and API. */
export interface PromotionSide {
  client: ApiClient;
  api: PlatformApi;
}

export interface PromotionRequest {
  /** The target's config, as loaded for the target environment. */
  loaded: LoadedConfig;
  source: PromotionSide & { name: string; baseUrl: string };
  target: PromotionSide & { baseUrl: string };
  stewardVersion: string;
  /** Refuse while a routine carried is disabled by the platform or its last run failed in the source. */
  requireHealthy: boolean;
  /** Whether the plan carries the ids it resolved (a plan file, JSON). */
  recordIdentities: boolean;
  /** Warnings that the config names something missing are an error. */
  strict: boolean;
}

/** The promotion plan, and the models it resolved (shown by name). */
export async function planPromotion(request: PromotionRequest): Promise<{ plan: Plan; models: PlanModel[] }> {
  const { source, target, requireHealthy } = request;
  const promotion = await readPromotion(request.loaded, { name: source.name, api: source.api }, { requireHealthy });
  const { plan: targetPlan, models } = await makePlan({
    loaded: promotion.loaded,
    api: target.api,
    baseUrl: target.baseUrl,
    requestsPerMinute: target.client.requestsPerMinute,
    stewardVersion: request.stewardVersion,
    requestCount: () => source.client.stats().requests + target.client.stats().requests,
    recordIdentities: request.recordIdentities,
  });
  const plan: Plan = {
    ...targetPlan,
    // The desired state here is the source's, so "not in the config" would mislead an approver.
    steps: targetPlan.steps.map((step) => ({ ...step, ...(step.reason === undefined ? {} : { reason: sourceWorded(step.reason, source.name) }) })),
    warnings: [...promotion.warnings, ...targetPlan.warnings],
    promotion: {
      from: source.name,
      fromBaseUrl: source.baseUrl,
      sourceDigest: promotion.sourceDigest,
      ...(requireHealthy ? { requireHealthy } : {}),
      ...(promotion.held.length === 0 ? {} : { held: promotion.held }),
    },
  };
  if (request.strict) refuseUnderStrict(plan.warnings, promotion.loaded);
  return { plan, models };
}

/**
 * A step's reason as a promotion says it: what the target loses, it loses because the source
 * lacks it, not because the config does not list it.
 */
function sourceWorded(reason: string, source: string): string {
  return reason
    .replace(PRUNED_REASON, `not in ${source}`)
    .replace(UNLISTED_DOCUMENT_REASON, `pruneDocuments: not on this label in ${source}`)
    .replace(UNLISTED_FOLDER_REASON, `pruneFolders: not on this label in ${source}`);
}
