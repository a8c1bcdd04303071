// Applying a plan. First every step is checked against the live state (already applied, safe to
// run, or stale); a stale step means someone changed the object since the plan, and nothing is
// written. Then the runnable steps go to their kinds in plan order; a failed step's dependents
// are skipped while independent steps go on. Dry-run is `checkSteps` without `runSteps`.
import type { PlatformApi } from '../api/platform.js';
import type { Kind } from '../config/types.js';
import type { ResourceKind, StepOutcome } from '../kinds/kind.js';
import { REGISTRY } from '../kinds/registry.js';
import { changedFields, matches } from '../plan/fields.js';
import type { LiveState } from '../plan/planner.js';
import type { PlanStep } from '../plan/types.js';

export interface StaleStep {
  step: PlanStep;
  /** What changed since the plan, in words. */
  detail: string;
}

export interface CheckedSteps {
  runnable: PlanStep[];
  alreadyApplied: PlanStep[];
  stale: StaleStep[];
}

/** Sorts a plan's steps by comparing each object's current state with the step's before/after. */
export function checkSteps(steps: readonly PlanStep[], live: LiveState, registry: ReadonlyMap<Kind, ResourceKind> = REGISTRY): CheckedSteps {
  const checked: CheckedSteps = { runnable: [], alreadyApplied: [], stale: [] };
  for (const step of steps) {
    const current = registry.get(step.kind)!.current(step, live[step.kind]);
    const verdict = judge(step, current);
    if (verdict === 'run') checked.runnable.push(step);
    else if (verdict === 'applied') checked.alreadyApplied.push(step);
    else checked.stale.push({ step, detail: verdict.stale });
  }
  return checked;
}

function judge(step: PlanStep, current: Record<string, unknown> | undefined): 'run' | 'applied' | { stale: string } {
  switch (step.action) {
    case 'create':
      if (current === undefined) return 'run';
      return matches(current, step.after) ? 'applied' : { stale: `it was created meanwhile with other values (${describe(step.after, current)})` };
    case 'update':
    case 'replace':
      if (current === undefined) return { stale: 'it no longer exists' };
      if (matches(current, step.after)) return 'applied';
      return matches(current, step.before) ? 'run' : { stale: `it changed since the plan (${describe(step.before, current)})` };
    case 'delete':
      if (current === undefined) return 'applied';
      return matches(current, step.before) ? 'run' : { stale: `it changed since the plan (${describe(step.before, current)})` };
  }
}

function describe(expected: Record<string, unknown>, current: Record<string, unknown>): string {
  return changedFields(expected, current)
    .map((field) => `${field.path} is now ${JSON.stringify(field.after)}, the plan expected ${JSON.stringify(field.before)}`)
    .join('; ');
}

export interface StepResult {
  step: PlanStep;
  outcome: StepOutcome;
}

/** Runs steps in order, grouping consecutive steps of one kind so the kind can batch them. */
export async function runSteps(
  steps: readonly PlanStep[],
  context: { api: PlatformApi; live: LiveState },
  registry: ReadonlyMap<Kind, ResourceKind> = REGISTRY,
): Promise<StepResult[]> {
  const outcomes = new Map<string, StepOutcome>();
  let index = 0;
  while (index < steps.length) {
    const kind = steps[index]!.kind;
    const group: PlanStep[] = [];
    for (; index < steps.length && steps[index]!.kind === kind; index += 1) {
      const step = steps[index]!;
      const blocker = step.dependsOn.find((id) => {
        const status = outcomes.get(id)?.status;
        return status === 'failed' || status === 'skipped';
      });
      if (blocker === undefined) group.push(step);
      else outcomes.set(step.id, { status: 'skipped', reason: `depends on ${blocker}, which did not succeed` });
    }
    if (group.length === 0) continue;
    const results = await registry.get(kind)!.apply(group, { api: context.api, live: context.live[kind] });
    for (const step of group) outcomes.set(step.id, results.get(step.id) ?? { status: 'failed', error: 'no outcome was reported' });
  }
  return steps.map((step) => ({ step, outcome: outcomes.get(step.id)! }));
}
