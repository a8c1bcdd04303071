import { describe, expect, it } from 'vitest';
import { checkSteps, runSteps } from '../../src/apply/executor.js';
import type { PlatformApi } from '../../src/api/platform.js';
import { LEVELS, orderSteps } from '../../src/kinds/order.js';
import type { PlanStep } from '../../src/plan/types.js';
import { everyActionPlan } from './everyAction.js';

describe('order', () => {
  it('runs changes top-down and deletes bottom-up, document unlinks right before label deletes', () => {
    const order = everyActionPlan().plan.steps.map((step) => `${step.action} ${step.kind}`);
    expect(order).toEqual([
      'update creditControls',
      'update labels',
      'create labels',
      'create userCreditLimits',
      'update userCreditLimits',
      'create routines',
      'replace routines',
      'update routines',
      'create documentLabels',
      'delete documentLabels',
      'delete labels',
      'delete userCreditLimits',
      'delete routines',
    ]);
  });

  it('places every kind on a level', () => {
    expect(Object.keys(LEVELS).sort()).toEqual(['creditControls', 'documentLabels', 'labels', 'routines', 'userCreditLimits']);
    const shuffled = [...everyActionPlan().plan.steps].reverse();
    expect(orderSteps(shuffled).map((step) => step.id)).toEqual(everyActionPlan().plan.steps.map((step) => step.id));
  });
});

describe('checking a saved plan against the live state', () => {
  it('runs every step when live is as planned', () => {
    const { plan, live } = everyActionPlan();
    const checked = checkSteps(plan.steps, live);
    expect(checked.stale).toEqual([]);
    expect(checked.alreadyApplied).toEqual([]);
    expect(checked.runnable).toHaveLength(plan.steps.length);
  });

  it('skips what is already applied and refuses what someone else changed', () => {
    const { plan, live } = everyActionPlan();
    const controls = live.creditControls as Record<string, unknown>;
    live.creditControls = { ...controls, shutoffCredits: 12000, entityGroupDefaultCredits: 500 };
    const limits = live.userCreditLimits as Map<string, number | null>;
    limits.set('u-grace', 650);
    limits.delete('u-ken');
    const checked = checkSteps(plan.steps, live);
    expect(checked.alreadyApplied.map((step) => step.id)).toEqual(['creditControls/settings', 'userCreditLimits/u-ken']);
    expect(checked.stale.map(({ step, detail }) => `${step.id}: ${detail}`)).toEqual([
      'userCreditLimits/u-grace: it changed since the plan (creditLimit is now 650, the plan expected 500)',
    ]);
  });
});

describe('running steps', () => {
  const fakeApi = (failing: Set<string>) => {
    const calls: string[] = [];
    const api = new Proxy({}, {
      get: (_target, method: string) => async (...args: unknown[]) => {
        calls.push(`${method} ${JSON.stringify(args[0])}`);
        if (failing.has(method)) throw new Error(`${method}: 409 Conflict`);
        if (method === 'createRoutine') return { id: 'r-created' };
        return {};
      },
    }) as PlatformApi;
    return { api, calls };
  };

  it('goes on with independent steps and skips the dependents of a failed one', async () => {
    const { plan, live } = everyActionPlan();
    const { api, calls } = fakeApi(new Set(['patchDocumentLabels']));
    const results = await runSteps(plan.steps, { api, live });
    const status = Object.fromEntries(results.map(({ step, outcome }) => [step.id, outcome.status]));
    expect(status['documentLabels/d9/obsolete']).toBe('failed');
    expect(status['labels/obsolete']).toBe('skipped');
    expect(status['routines//Old experiment']).toBe('done');
    expect(calls.filter((call) => call.startsWith('deleteLabel'))).toEqual([]);
    const failed = results.find(({ step }) => step.id === 'documentLabels/d9/obsolete')!.outcome;
    expect(failed).toEqual({ status: 'failed', error: 'patchDocumentLabels: 409 Conflict' });
  });

  it('sends one bulk PATCH per batch of user limits and one PATCH per document', async () => {
    const { plan, live } = everyActionPlan();
    const { api, calls } = fakeApi(new Set());
    await runSteps(plan.steps, { api, live });
    expect(calls.filter((call) => call.startsWith('patchUserCreditLimits'))).toEqual([
      'patchUserCreditLimits {"users":[{"userId":"u-ada","creditLimit":300},{"userId":"u-grace","creditLimit":null}]}',
      'patchUserCreditLimits {"users":[{"userId":"u-ken","useDefaultLimit":true}]}',
    ]);
    expect(calls.filter((call) => call.startsWith('patchDocumentLabels'))).toEqual(['patchDocumentLabels "d1"', 'patchDocumentLabels "d9"']);
  });

  it('replaces a routine by creating the new one before deleting the old', async () => {
    const { plan, live } = everyActionPlan();
    const { api, calls } = fakeApi(new Set());
    await runSteps(plan.steps.filter((step: PlanStep) => step.action === 'replace'), { api, live });
    expect(calls).toEqual([
      expect.stringMatching(/^createRoutine \{"name":"Pipeline check",.*"topicName":"orders"\}$/),
      'deleteRoutine "r-pipeline-check"',
    ]);
  });
});
