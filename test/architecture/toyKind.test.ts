// A kind the house has never heard of: one module (below) and its place in a registry of this
// test's own. The engine diffs, orders, targets, applies, judges stale steps and describes it,
// and export writes its section, through the facets of ResourceKind alone, without a switch on
// its name anywhere. Its steps' types are declared here too, by adding to KindSteps, so its
// methods read `step.after.size` as a number without a cast and src/model names no toy. Its
// section of the config schema is its own declaration too (a real kind's is
// kinds/<folder>/configSchema.ts): assembled with the registry's, it validates `toys:` as steward
// validates every section, and gives KINDS, the config types and the plan's schema their toy, as
// `npm run generate` does for a registered kind; its checks of what the schema cannot say (a real
// kind's are kinds/<folder>/configChecks.ts) run where the registered kinds' run when a
// configuration is analysed, and what its section says of its entries (the fields `ignore` may
// name, what `until` does, the text that may span lines, the identities lower-cased on load) is
// honoured by that analysis as a registered kind's is. Nothing outside this file is edited for it.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { printConfigTypes } from '../../scripts/configTypes.js';
import { generatedFiles } from '../../scripts/generate-config.js';
import type { PlatformApi } from '../../src/api/platform.js';
import type { Whoami } from '../../src/api/types.js';
import { analyzeConfig } from '../../src/config/analyze.js';
import { assembleConfigSchema, configKinds, type KindConfigSchema } from '../../src/config/assembleSchema.js';
import type { Findings } from '../../src/config/findings.js';
import { checkSchema, checkSchemaWith, findingMessage } from '../../src/config/schema.js';
import { isRecord } from '../../src/config/sources.js';
import { KINDS, type ConfigPath, type Kind, type StewardConfig } from '../../src/config/types.js';
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

/** Its check of what the schema cannot say: each toy declared once, by name. */
function checkToys(config: Record<string, unknown>, findings: Findings): void {
  if (!Array.isArray(config.toys)) return;
  const seen = new Map<string, ConfigPath>();
  config.toys.forEach((toy, index) => {
    if (!isRecord(toy)) return;
    const name = findings.text(toy, 'name', ['toys', index]);
    if (name === undefined) return;
    const first = seen.get(name);
    if (first === undefined) seen.set(name, ['toys', index, 'name']);
    else findings.add('toy.duplicate', ['toys', index, 'name'], `toy \`${name}\` is declared twice; the first is at ${findings.context.describe(first)}`, { hint: 'keep one entry per toy' });
  });
}

/** Its part of the config: the `toys:` section, whether a toy may be pruned, ignored, protected, and its checks. */
const TOYS_CONFIG_SCHEMA: KindConfigSchema = {
  kinds: ['toys'],
  sections: {
    toys: {
      schema: { description: 'Toys on the shelf, one entry per toy.', type: 'array', items: { $ref: '#/$defs/toy' } },
      prunable: {
        prune: 'Delete toys that are not declared.',
        ignore: 'Ignored fields of every toy: `size`.',
        protect: 'true, or the names of toys never deleted.',
        ignoreRules: { noun: 'toy', fields: ['size'], refused: { name: 'it identifies the toy' } },
      },
      expiry: { companion: 'then', undo: () => 'puts the toy away', entry: (entry) => `toy "${String(entry.name)}"` },
      normalize: (entry) => (typeof entry.owner === 'string' ? { ...entry, owner: entry.owner.toLowerCase() } : entry),
      multiline: ['note'],
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
        owner: { description: 'The e-mail of whose toy it is.', type: 'string' },
        note: { description: 'What to know of it, on as many lines as it takes.', type: 'string' },
        until: { description: 'When it goes back in the box.', $ref: '#/$defs/until' },
        then: { description: 'Where it goes then.', const: 'box' },
        ignore: { description: 'Fields of this toy steward never changes once it is made: `size`.', $ref: '#/$defs/ignoreList' },
      },
    },
  },
  checks: [checkToys],
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
  // What kinds/configRegistry.ts lists, and the toy: a list of this test's own.
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

  it("runs the toy's check with the registered kinds', with its finding at its place", async () => {
    const directory = await mkdtemp(join(tmpdir(), 'steward-toys-'));
    try {
      const environments = 'version: 1\nenvironments:\n  test:\n    baseUrl: https://acme.example.com\n    tokenEnv: TOKEN\n';
      await writeFile(join(directory, 'steward.yaml'), `${environments}toys:\n  - name: ball\n    size: 3\n  - name: ball\n    size: 5\nuserCreditLimits:\n  - email: not-an-address\n    creditLimit: 5\n`);
      // As app/config.ts hands every registered kind's declaration to the analysis.
      const { diagnostics } = await analyzeConfig(directory, declarations, { processEnv: {}, selectionRequired: false, cwd: directory });
      expect(diagnostics.map((diagnostic) => [diagnostic.code, diagnostic.summary, `${diagnostic.location?.file}:${diagnostic.location?.line}:${diagnostic.location?.col}`])).toEqual([
        // The schema steward ships has no `toys:` (above); the checks run all the same.
        ['schema.unknownKey', 'unknown key `toys` at the top level', 'steward.yaml:6:1'],
        ['toy.duplicate', 'toy `ball` is declared twice; the first is at steward.yaml:7:11', 'steward.yaml:9:11'],
        ['email.format', 'user `not-an-address` is not a valid e-mail address', 'steward.yaml:12:12'],
      ]);
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  });

  it("honours what the toy's section declares of its entries: `ignore`, `until`, text on several lines, identities on load", async () => {
    const directory = await mkdtemp(join(tmpdir(), 'steward-toys-'));
    try {
      const environments = 'version: 1\nenvironments:\n  test:\n    baseUrl: https://acme.example.com\n    tokenEnv: TOKEN\n';
      const toys = [
        'toys:',
        '  - name: ball',
        '    size: 3',
        '    owner: Grace@ACME.example',
        '    note: "rolls\\tfar\\nand bounces"',
        '    until: "2020-01-01"',
        '    ignore: [size, name, sise]',
        '  - name: kite',
        '    size: 5',
        '    note: "flies\\u0007"',
        '    then: box',
        '',
      ].join('\n');
      await writeFile(join(directory, 'steward.yaml'), `${environments}${toys}`);
      const analysis = await analyzeConfig(directory, declarations, { environment: 'test', processEnv: {}, selectionRequired: true, cwd: directory });
      expect(analysis.diagnostics.map((diagnostic) => [diagnostic.code, diagnostic.summary, diagnostic.hint, `${diagnostic.location?.line}:${diagnostic.location?.col}`])).toEqual([
        // The schema steward ships has no `toys:`; the analysis honours the declaration all the same.
        ['schema.unknownKey', 'unknown key `toys` at the top level', expect.stringContaining('allowed keys:'), '6:1'],
        ['until.expired', 'expired on 1 Jan 2020: the next apply puts the toy away', 'remove the entry (or its `until`) once that is applied', '11:12'],
        ['ignore.refused', '`name` cannot be ignored: it identifies the toy', 'a toy may ignore `size`', '12:20'],
        ['ignore.unknown', '`sise` is not a field of a toy', 'did you mean `size`? a toy may ignore `size`', '12:26'],
        ['text.controlCharacter', '`toys[1].note` holds a control character U+0007 (BEL)', 'prompts, descriptions and notes may hold tabs and line breaks, nothing else invisible', '15:11'],
        ['until.missing', '`then` says what happens once `until` has passed, but this entry has no `until`', 'add `until: YYYY-MM-DD`, or remove it', '16:5'],
      ]);
      expect(analysis.selected?.config.toys).toEqual([
        { name: 'ball', size: 3, owner: 'grace@acme.example', note: 'rolls\tfar\nand bounces', until: '2020-01-01', ignore: ['size', 'name', 'sise'] },
        { name: 'kite', size: 5, note: 'flies\u0007', then: 'box' },
      ]);
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  });

  it('gives KINDS, the Kind type and the config types their toy', () => {
    const types = printConfigTypes(assembleConfigSchema(declarations), configKinds(declarations), '');
    expect(types).toContain("  'folderLabels',\n  'toys',\n] as const;\nexport type Kind = (typeof KINDS)[number];");
    expect(types).toContain("  'labels',\n  'toys',\n] as const;\nexport type PrunableKind");
    expect(types).toContain('  /** Toys on the shelf, one entry per toy. */\n  toys?: ToyConfig[];\n');
    expect(types).toContain('export type ToyConfig = {\n  /** Its name. */\n  name: string;\n  /** Its size. */\n  size: number;\n  /** The e-mail of whose toy it is. */\n  owner?: string;\n');
  });

  it("is a kind the plan's schema names, as `npm run generate` writes it", () => {
    const planSchema = generatedFiles(declarations).find((file) => file.path === 'schemas/plan.schema.json')!;
    expect((JSON.parse(planSchema.text) as { $defs: { kind: { enum: string[] } } }).$defs.kind.enum).toEqual([...KINDS, 'toys']);
  });
});
