import { describe, expect, it } from 'vitest';
import { applyCost, writeRequests } from '../../src/engine/cost.js';
import type { PlanStep } from '../../src/model/plan.js';
import { applyCostLine } from '../../src/render/human.js';
import { everyActionPlan } from './everyAction.js';

/** `count` user-limit creates, as a bulk change would plan them. */
function limitCreates(count: number): PlanStep[] {
  return Array.from({ length: count }, (_, index) => ({
    id: `userCreditLimits/u-${index}`,
    kind: 'userCreditLimits' as const,
    key: `u${index}@acme.example`,
    action: 'create' as const,
    dependsOn: [],
    ref: { userId: `u-${index}` },
    after: { creditLimit: 50 },
  }));
}

describe('what applying costs', () => {
  it('counts one request per write the kinds send: batches of user limits, one PATCH per document, two for a replacement', () => {
    // every-action plan: controls 1, labels 3, limits 1 batch (sets and resets together),
    // routines create 1 + replace 2 + update 1 + delete 1 + one list of their owner after the
    // creates (to settle a race with a concurrent apply), documents d1 and d9 one PATCH each,
    // folders finance and sandbox one PATCH each.
    expect(writeRequests(everyActionPlan().plan.steps)).toBe(1 + 3 + 1 + 6 + 2 + 2);
  });

  it('sends user credit limits in PATCHes of at most 1000', () => {
    expect(writeRequests(limitCreates(1000))).toBe(1);
    expect(writeRequests(limitCreates(2001))).toBe(3);
  });

  it('says the time under the request budget, with the re-reading of a saved plan', () => {
    const cost = applyCost(limitCreates(2001), { estimateMs: (requests) => requests * 1000, requestsPerMinute: 60 }, 286);
    expect(cost).toEqual({ requests: 289, ms: 289_000, requestsPerMinute: 60 });
    expect(applyCostLine(cost)).toBe('Applying makes about 289 requests: about 5 minutes at 60 requests/minute.');
  });
});
