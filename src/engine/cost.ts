// What applying steps will cost before anyone approves it: the write requests each kind needs
// (batched where the API allows) and how long they take under the key's request budget.
import type { ResourceKind } from '../model/kind.js';
import { REGISTRY } from '../kinds/registry.js';
import type { PlanStep, StepKind } from '../model/plan.js';

/**
 * Write requests carrying out these steps takes, counted by each kind (batches, two-request
 * steps) over the runs of consecutive steps of one kind, the units the executor hands a kind.
 */
export function writeRequests(steps: readonly PlanStep[], registry: ReadonlyMap<StepKind, ResourceKind> = REGISTRY): number {
  let requests = 0;
  let index = 0;
  while (index < steps.length) {
    const kind = steps[index]!.kind;
    const run: PlanStep[] = [];
    for (; index < steps.length && steps[index]!.kind === kind; index += 1) run.push(steps[index]!);
    requests += registry.get(kind)!.writeRequests(run);
  }
  return requests;
}

/** The pacing facts a cost needs, from the client that will send the requests. */
export interface RequestBudget {
  estimateMs(requests: number): number;
  readonly requestsPerMinute: number;
}

/** What applying is expected to cost: requests, and time at the deployment's request budget. */
export interface ApplyCost {
  requests: number;
  ms: number;
  requestsPerMinute: number;
}

/** The cost of applying `steps`, plus `rereads` requests of reading the live state again first. */
export function applyCost(steps: readonly PlanStep[], budget: RequestBudget, rereads = 0): ApplyCost {
  const requests = writeRequests(steps) + rereads;
  return { requests, ms: budget.estimateMs(requests), requestsPerMinute: budget.requestsPerMinute };
}
