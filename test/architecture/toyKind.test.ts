// A kind the house has never heard of: one module (below) and its place in a registry of this
// test's own. The engine diffs, orders, targets, applies, judges stale steps and describes it,
// and export writes its section, through the facets of ResourceKind alone, without a switch on
// its name anywhere. Its steps' types are declared here too, by adding to KindSteps, so its
// methods read `step.after.size` as a number without a cast and src/model names no toy. Its
// section of the config schema is its own declaration too (a real kind's is
// kinds/<folder>/configSchema.ts): assembled with the registry's, it validates `toys:` as steward
// validates every section, and gives KINDS and the config types their toy, as `npm run generate`
// does for a registered kind. Nothing outside this file is edited for it.
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { printConfigTypes } from '../../scripts/configTypes.js';
import type { PlatformApi } from '../../src/api/platform.js';
import type { Whoami } from '../../src/api/types.js';
import { assembleConfigSchema, configKinds, type KindConfigSchema } from '../../src/config/assembleSchema.js';
import { checkSchema, checkSchemaWith, findingMessage } from '../../src/config/schema.js';
import type { Kind, StewardConfig } from '../../src/config/types.js';
import { checkSteps, runSteps } from '../../src/engine/executor.js';
import { orderSteps } from '../../src/engine/order.js';
import { diffAll } from '../../src/engine/planner.js';
import { exportLive } from '../../src/export/exporter.js';
import { filterSteps } from '../../src/engine/targeting.js';
import { CONFIG_SCHEMAS } from '../../src/kinds/configRegistry.js';
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

/** The `toys:` section of a config, as TOYS_CONFIG_SCHEMA declares it. */
function declaredToys(config: StewardConfig): { name: string; size: number }[] {
  return (config as StewardConfig & { toys?: { name: string; size: number }[] }).toys ?? [];
}

// The toy kind's module: everything about toys, and nothing about anything else.
const TOYS = 'toys' as Kind;

/** Its part of the config schema: the `toys:` section, and whether a toy may be pruned, ignored, protected. */
const TOYS_CONFIG_SCHEMA: KindConfigSchema = {
  kinds: ['toys'],
  sections: {
    toys: {
      schema: { description: 'Toys on the shelf, one entry per toy.', type: 'array', items: { $ref: '#/$defs/toy' } },
      prunable: { prune: 'Delete toys that are not declared.', ignore: 'Ignored fields of every toy: `size`.', protect: 'true, or the names of toys never deleted.' },
    },
  },
  definitions: {
    toy: {
      description: 'One toy, identified by its name.',
      type: 'object',
      additionalProperties: false,
      required: ['name', 'size'],
      properties: {
        name: { description: 'Its name.', type: 'string', minLength: 1 },
        size: { description: 'Its size.', anyOf: [{ type: 'integer', minimum: 1 }, { $ref: '#/$defs/reference' }], errorMessage: 'must be a whole number ≥ 1' },
      },
    },
  },
  checks: [],
};

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
    export: {
      read: (context) => context.read(new Map()),
      section: (live: Toys) => [...live].map(([name, size]) => ({ name, size })).sort((a, b) => (a.name < b.name ? -1 : 1)),
      holds: () => 'toys',
    },
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

  it('is exported: its section in the file and its words in the header, which then plan nothing', async () => {
    const shelf: Toys = new Map([['kite', 5], ['ball', 3]]);
    const toys = toyKind(shelf);
    const registry = createRegistry([...REGISTRY.values(), toys]);
    const whoami: Whoami = { keyScope: 'user', orgRole: 'MEMBER', rolesByModel: {}, user: { id: 'u-1', membershipId: 'm-1' } };
    const api = { whoami: async () => whoami } as unknown as PlatformApi;
    const exported = await exportLive({
      api,
      kinds: [TOYS],
      owners: [],
      environment: { name: 'test', baseUrl: 'http://127.0.0.1:1' },
      schema: undefined,
      stewardVersion: '0.0.0',
      now: new Date('2026-01-05T09:00:00.000Z'),
      registry,
    });
    expect(exported.warnings).toEqual([]);
    expect(exported.yaml).toContain('# It holds toys.\n');
    expect(exported.yaml).toContain('version: 1\n\ntoys:\n  - name: ball\n    size: 3\n  - name: kite\n    size: 5\n');

    const config = { ...CONFIG, ...(parse(exported.yaml) as object) } as StewardConfig;
    const desired = toys.desired({ config, environment: CONFIG.environments.test!, directory: undefined as never });
    expect(diffAll([toys], { [TOYS]: desired }, { [TOYS]: new Map(shelf) }, registry).steps).toEqual([]);
  });
});

describe("the toy kind's section of the config", () => {
  // What kinds/registry.ts lists, and the toy: a registry of this test's own.
  const declarations = [...CONFIG_SCHEMAS, TOYS_CONFIG_SCHEMA];
  const check = checkSchemaWith(assembleConfigSchema(declarations));

  it('is validated by the config schema assembled with the toy kind, as steward validates every section', () => {
    expect(check(CONFIG)).toEqual([]);
    const environment = { ...CONFIG.environments.test, protect: { toys: ['kite'] } };
    expect(check({ ...CONFIG, environments: { test: environment }, prune: { toys: true }, ignore: { toys: ['size'] } })).toEqual([]);

    const findings = check({ version: 1, toys: [{ name: 'ball', size: 0 }, { name: 'kite', sise: 5 }], prune: { toy: true } });
    expect(findings.map((finding) => [findingMessage(finding), finding.hint])).toEqual([
      ['`toys[0].size` must be a whole number ≥ 1, found 0', undefined],
      ['unknown key `sise` in `toys[1]`', 'did you mean `size`?'],
      ['unknown key `toy` in `prune`', 'did you mean `toys`?'],
    ]);
  });

  it('is no section of the schema steward ships, which no registered kind declares it in', () => {
    expect(checkSchema(CONFIG).map((finding) => findingMessage(finding))).toEqual(['unknown key `toys` at the top level']);
  });

  it('gives KINDS, the Kind type and the config types their toy', () => {
    const types = printConfigTypes(assembleConfigSchema(declarations), configKinds(declarations), '');
    expect(types).toContain("  'folderLabels',\n  'toys',\n] as const;\nexport type Kind = (typeof KINDS)[number];");
    expect(types).toContain("  'labels',\n  'toys',\n] as const;\nexport type PrunableKind");
    expect(types).toContain('  /** Toys on the shelf, one entry per toy. */\n  toys?: ToyConfig[];\n');
    expect(types).toContain('export type ToyConfig = {\n  /** Its name. */\n  name: string;\n  /** Its size. */\n  size: number;\n};\n');
  });
});
