// The plan use case, below the command line: the plan of a loaded config against a deployment,
// with what applying it will cost, returned as data for `cli/plan.ts` to save and show.
import type { ApiClient } from '../api/client.js';
import { applyCost, type ApplyCost } from '../engine/cost.js';
import { makePlan, type PlanRequest } from '../engine/planner.js';
import { refuseUnderStrict } from '../engine/strict.js';
import type { Plan, PlanModel } from '../model/plan.js';
import { RESOLUTION_ROUTES } from '../resolve/identities.js';

export interface MadePlan {
  /** The plan, with its apply cost recorded (so that `steward show FILE` says what the plan run said). */
  plan: Plan;
  /** The models (and branches) the config names, as resolved: shown by name in text and Markdown. */
  models: PlanModel[];
  cost: ApplyCost;
}

/**
 * Plans; `saved` says the plan goes to a file, whose apply skips the name lookups whose ids it
 * holds (so they are not counted in its cost). Under `strict`, a warning that the config names
 * something missing throws.
 */
export async function planChanges(request: Omit<PlanRequest, 'requestCount'>, client: ApiClient, options: { saved: boolean; strict: boolean }): Promise<MadePlan> {
  const made = await makePlan({ ...request, requestCount: () => client.stats().requests });
  // Applying reads the live state again (a saved plan is checked against it), then writes;
  // applying the saved file skips the name lookups whose ids it holds.
  const { byRoute } = client.stats();
  const spared = options.saved ? RESOLUTION_ROUTES.reduce((sum, route) => sum + (byRoute[route] ?? 0), 0) : 0;
  const cost = applyCost(made.plan.steps, client, made.plan.requests - spared);
  // Identities last, as a plan file reads.
  const { identities, ...plan } = made.plan;
  if (options.strict) refuseUnderStrict(plan.warnings, request.loaded);
  return { plan: { ...plan, applyCost: { requests: cost.requests, ms: cost.ms }, ...(identities === undefined ? {} : { identities }) }, models: made.models, cost };
}
