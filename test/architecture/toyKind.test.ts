// A kind the house has never heard of: one module (below) and one registry line. The engine
// diffs, orders, targets, applies, judges stale steps and describes it through the facets of
// ResourceKind alone, without a switch on its name anywhere; its steps' types are declared here
// too, by adding to KindSteps, so its methods read `step.after.size` as a number without a cast
// and src/model names no toy. What a real kind still declares outside its module is its name in
// config/types.ts (`KINDS`, which `--target` parses) and its section of the config schema: this
// test builds its config directly and selects by value.
import { describe, expect, it } from 'vitest';
import type { PlatformApi } from '../../src/api/platform.js';
import type { Kind, StewardConfig } from '../../src/config/types.js';
import { checkSteps, runSteps } from '../../src/engine/executor.js';
import { orderSteps } from '../../src/engine/order.js';
import { diffAll } from '../../src/engine/planner.js';
import { filterSteps } from '../../src/engine/targeting.js';
import { createRegistry, REGISTRY } from '../../src/kinds/registry.js';
import { changedFields } from '../../src/model/fields.js';
import type { ResourceKind } from '../../src/model/kind.js';
import type { PlanStep } from '../../src/model/plan.js';
import { stepDetails, stepTitle } from '../../src/render/describe.js';

/** A deployment's toys: name → size. */
type Toys = Map<string, number>;

// What a toy's steps hold: its size; the applier needs no id beyond the step's key.
declare module '../../src/model/plan.js' {
  interface KindSteps {
    toys: { state: { size: number }; ref: Record<string, never> };
  }
}

/** The `toys:` section a config of this test declares (a real kind's lives in the schema). */
function declaredToys(config: StewardConfig): { name: string; size: number }[] {
  return (config as StewardConfig & { toys?: { name: string; size: number }[] }).toys ?? [];
}

// The toy kind's module: everything about toys, and nothing about anything else.
const TOYS = 'toys' as Kind;
function toyKind(shelf: Toys): ResourceKind<Toys, Toys, 'toys'> {
  const base = (name: string) => ({ id: `toys/${name}`, kind: 'toys' as const, key: name, dependsOn: [], ref: {} });
  return {
    kind: TOYS,
    presentation: { noun: ['toy', 'toys'], title: (step) => `toy "${step.key}"`, nullMeans: () => 'no size' },
    order: { level: 1 },
    targeting: { noun: 'toy', names: (config) => declaredToys(config).map((toy) => toy.name), pruned: () => true },
    readAfter: [],
    declared: (config) => declaredToys(config).length > 0,
    emails: () => [],
    desired: ({ config }) => new Map(declaredToys(config).map((toy) => [toy.name, toy.size])),
    read: async () => new Map(shelf),
    diff(desired, live) {
      const steps: PlanStep<'toys'>[] = [];
      for (const [name, size] of desired) {
        const current = live.get(name);
        if (current === undefined) steps.push({ ...base(name), action: 'create', after: { size } });
        else if (current !== size) steps.push({ ...base(name), action: 'update', before: { size: current }, after: { size }, fields: changedFields({ size: current }, { size }) });
      }
      for (const [name, size] of live) if (!desired.has(name)) steps.push({ ...base(name), action: 'delete', before: { size }, reason: 'not declared' });
      return { steps, warnings: [] };
    },
    current: (step, live) => (live.has(step.key) ? { size: live.get(step.key) } : undefined),
    async apply(steps, context) {
      for (const step of steps) {
        await context.attempt([step], async () => {
          if (step.action === 'delete') shelf.delete(step.key);
          else shelf.set(step.key, step.after.size);
        });
      }
    },
    writeRequests: (steps) => steps.length,
  };
}

const CONFIG = {
  version: 1,
  environments: { test: { baseUrl: 'http://127.0.0.1:1', tokenEnv: 'TOKEN' } },
  toys: [{ name: 'ball', size: 3 }, { name: 'kite', size: 5 }],
} as StewardConfig;

describe('a toy kind registered beside the others', () => {
  it('is planned, ordered, targeted, described and applied, and converges', async () => {
    const shelf: Toys = new Map([['kite', 4], ['yo-yo', 1]]);
    const toys = toyKind(shelf);
    const registry = createRegistry([...REGISTRY.values(), toys]);
    const live = { [TOYS]: await toys.read({ api: {} as PlatformApi, directory: undefined as never, live: {} }, new Map()) };

    const { steps } = diffAll([toys], { [TOYS]: toys.desired({ config: CONFIG, environment: CONFIG.environments.test!, directory: undefined as never }) }, live, registry);
    const ordered = orderSteps(steps, registry);
    // Creates and changes before deletes, as for every kind of its level.
    expect(ordered.map((step) => `${step.action} ${step.key}`)).toEqual(['create ball', 'update kite', 'delete yo-yo']);
    expect(ordered.map((step) => stepTitle(step, registry))).toEqual(['toy "ball"', 'toy "kite"', 'toy "yo-yo"']);
    expect(stepDetails(ordered[1]!, undefined, registry)).toEqual(['size: 4 → 5']);

    const targeted = filterSteps(ordered, { include: [{ kind: TOYS, name: 'kite' }], exclude: [] }, registry);
    expect(targeted.steps.map((step) => step.key)).toEqual(['kite']);

    const results = await runSteps(ordered, { api: {} as PlatformApi, live }, registry);
    expect(results.map((result) => result.outcome.status)).toEqual(['done', 'done', 'done']);
    expect([...shelf]).toEqual([['kite', 5], ['ball', 3]]);
    expect(diffAll([toys], { [TOYS]: toys.desired({ config: CONFIG, environment: CONFIG.environments.test!, directory: undefined as never }) }, { [TOYS]: new Map(shelf) }, registry).steps).toEqual([]);
  });

  it('has a saved step judged stale when its object changed since the plan', () => {
    const toys = toyKind(new Map());
    const registry = createRegistry([...REGISTRY.values(), toys]);
    const step: PlanStep<'toys'> = { id: 'toys/kite', kind: 'toys', key: 'kite', dependsOn: [], ref: {}, action: 'update', before: { size: 4 }, after: { size: 5 }, fields: [{ path: 'size', before: 4, after: 5 }] };
    const checked = checkSteps([step], { [TOYS]: new Map([['kite', 9]]) }, registry);
    expect(checked.stale.map((stale) => stale.detail)).toEqual(['it changed since the plan (size is now 9, the plan expected 4)']);
  });
});
