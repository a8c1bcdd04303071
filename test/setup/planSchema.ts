// Every plan the end-to-end suite makes is checked against the published plan schema
// (schemas/plan.schema.json): each plan made (plan, drift, apply without a plan file, the base of
// a promotion) and each plan saved (plan --out, diff --out), as JSON, whichever command made it.
// A misfit fails the test that made the plan, naming the field.
import { afterEach, expect, vi } from 'vitest';
import type { Plan } from '../../src/model/plan.js';

const misfits: string[] = [];

/** How many plans this test file had checked so far (a test asserts the hook is live). */
export function plansChecked(): number {
  return (globalThis as { __stewardPlansChecked?: number }).__stewardPlansChecked ?? 0;
}

async function check(plan: Plan, where: string): Promise<void> {
  if (!(expect.getState().testPath ?? '').includes('/test/e2e/')) return;
  const { planSchemaErrors } = await import('../../src/engine/planSchema.js');
  const errors = planSchemaErrors(JSON.parse(JSON.stringify(plan)));
  const state = globalThis as { __stewardPlansChecked?: number };
  state.__stewardPlansChecked = plansChecked() + 1;
  if (errors.length > 0) misfits.push(`${where} for ${plan.environment} misfits schemas/plan.schema.json: ${errors.join('; ')}`);
}

vi.mock('../../src/engine/planner.js', async (importOriginal) => {
  const original = await importOriginal<typeof import('../../src/engine/planner.js')>();
  return {
    ...original,
    makePlan: async (request: Parameters<typeof original.makePlan>[0]) => {
      const result = await original.makePlan(request);
      await check(result.plan, 'a plan made');
      return result;
    },
  };
});

vi.mock('../../src/engine/planFile.js', async (importOriginal) => {
  const original = await importOriginal<typeof import('../../src/engine/planFile.js')>();
  return {
    ...original,
    savePlan: async (plan: Plan, path: string, token?: string) => {
      await check(plan, `the plan saved to ${path}`);
      return original.savePlan(plan, path, token);
    },
  };
});

afterEach(() => {
  const found = misfits.splice(0);
  expect(found, 'every plan fits schemas/plan.schema.json').toEqual([]);
});
