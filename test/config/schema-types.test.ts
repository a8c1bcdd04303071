// schemas/steward.schema.json, which `npm run generate` assembles from the kinds' declarations
// (test/config/generated.test.ts keeps it and the config types current), agrees with the API
// types the config's values become, is fit for editors, and every example validates.
import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { EmailDestination, SlackDestination } from '../../src/api/types.js';
import { CREDIT_CONTROL_FIELDS } from '../../src/api/types.js';
import { loadConfig, validateConfig } from '../../src/app/config.js';
import { configSchema } from '../../src/config/schema.js';
import { parseSource } from '../../src/config/sources.js';
import type { StewardConfig } from '../../src/config/types.js';

type RequiredKeys<T> = { [K in keyof T]-?: object extends Pick<T, K> ? never : K }[keyof T];
/** Every key of T, written out: the compiler rejects a missing or an extra key. */
type KeySet<T> = Record<keyof T, true>;
type RequiredKeySet<T> = Record<RequiredKeys<T>, true>;

interface SchemaNode {
  [keyword: string]: unknown;
  properties?: Record<string, SchemaNode>;
  required?: string[];
}
const schema = configSchema() as SchemaNode;
const defs = schema.$defs as Record<string, SchemaNode>;
const propertiesOf = (node: SchemaNode | undefined) => Object.keys(node?.properties ?? {}).sort();
const keysOf = (record: object) => Object.keys(record).sort();
const requiredOf = (node: SchemaNode | undefined) => [...(node?.required ?? [])].sort();

const emailKeys: KeySet<EmailDestination> = { type: true, recipientEmails: true, userGroupIds: true };
const slackKeys: KeySet<SlackDestination> = { type: true, recipientId: true, slackRecipientType: true };
const slackRequired: RequiredKeySet<SlackDestination> = { type: true, recipientId: true, slackRecipientType: true };
const slackTypes: Record<SlackDestination['slackRecipientType'], true> = { channel: true, users: true };

describe('the schema and the API types its values become agree', () => {
  it('on the credit controls steward manages', () => {
    expect(propertiesOf(schema.properties!.creditControls)).toEqual([...CREDIT_CONTROL_FIELDS].sort());
  });

  it("on a routine's destinations", () => {
    expect(propertiesOf(defs.emailDestination)).toEqual(keysOf(emailKeys));
    // Both recipient lists may be left out of a file; the API's destination always has them.
    expect(requiredOf(defs.emailDestination)).toEqual(['type']);
    expect(propertiesOf(defs.slackDestination)).toEqual(keysOf(slackKeys));
    expect(requiredOf(defs.slackDestination)).toEqual(keysOf(slackRequired));
    expect([...(defs.slackDestination!.properties!.slackRecipientType!.enum as string[])].sort()).toEqual(keysOf(slackTypes));
  });
});

describe('the schema serves editors', () => {
  const walk = (node: unknown, path: string, visit: (node: SchemaNode, path: string) => void): void => {
    if (Array.isArray(node)) node.forEach((child, index) => walk(child, `${path}/${index}`, visit));
    else if (node !== null && typeof node === 'object') {
      visit(node as SchemaNode, path);
      for (const [key, child] of Object.entries(node)) walk(child, `${path}/${key}`, visit);
    }
  };

  it('is draft 2020-12 with an $id', () => {
    expect(schema.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
    expect(typeof schema.$id).toBe('string');
  });

  it('describes every property and closes every object', () => {
    const undescribed: string[] = [];
    const open: string[] = [];
    walk(schema, '#', (node, path) => {
      if (node.properties === undefined) return;
      if (node.additionalProperties !== false) open.push(path);
      for (const [name, property] of Object.entries(node.properties)) if (typeof property.description !== 'string') undescribed.push(`${path}/properties/${name}`);
    });
    expect(undescribed).toEqual([]);
    expect(open).toEqual([]);
  });

  it('gives every anyOf/oneOf a message, so one problem is one diagnostic', () => {
    const silent: string[] = [];
    walk(schema, '#', (node, path) => {
      if ((node.anyOf !== undefined || (node.oneOf !== undefined && node.discriminator === undefined)) && typeof node.errorMessage !== 'string') silent.push(path);
    });
    expect(silent).toEqual([]);
  });
});

describe('examples', () => {
  const examples = ['examples/single', 'examples/gitops'];

  it.each(examples)('%s validates without any finding', async (example) => {
    expect(await validateConfig(example, { processEnv: {} })).toEqual([]);
  });

  it.each(['examples/single/steward.yaml', 'examples/gitops/environments.yaml', 'examples/gitops/credit.yaml', 'examples/gitops/routines.yaml', 'examples/gitops/labels.yaml', 'examples/gitops/policies.yaml'])(
    '%s points editors at the schema',
    (file) => {
      const firstLine = readFileSync(file, 'utf8').split('\n')[0]!;
      const match = /^# yaml-language-server: \$schema=(\S+)$/.exec(firstLine);
      expect(match).not.toBeNull();
      expect(fileURLToPath(new URL(match![1]!, new URL(`../../${file}`, import.meta.url)))).toBe(fileURLToPath(new URL('../../schemas/steward.schema.json', import.meta.url)));
    },
  );

  it('the gitops example loads for both deployments, naming models by name and no ids per environment', async () => {
    const production = await loadConfig('examples/gitops', { environment: 'production', processEnv: {} });
    const playground = await loadConfig('examples/gitops', { environment: 'playground', processEnv: {} });
    if (!production.ok || !playground.ok) throw new Error('the gitops example does not load');
    const config: StewardConfig = production.loaded.config;
    expect(config.routines?.map((routine) => routine.model)).toEqual(['Sales', 'Sales', 'Marketing', 'Sales']);
    expect(config.routines?.some((routine) => routine.modelId !== undefined || routine.branchId !== undefined)).toBe(false);
    expect(playground.loaded.config.routines).toEqual(config.routines);
    expect(Object.values(config.environments).some((environment) => environment.variables !== undefined)).toBe(false);
    expect(production.loaded.environment).toMatchObject({ baseUrl: 'https://acme.example.com', tokenEnv: 'STEWARD_PRODUCTION_TOKEN' });
    expect(playground.loaded.environment).toMatchObject({ baseUrl: 'https://acme-playground.example.com', tokenEnv: 'STEWARD_PLAYGROUND_TOKEN' });
  });

  it('the gitops example declares every change the demo plan shows against the demo dataset', async () => {
    const result = await loadConfig('examples/gitops', { environment: 'production', processEnv: {} });
    if (!result.ok) throw new Error('the gitops example does not load');
    const { config } = result.loaded;
    expect(config.prune).toEqual({ userCreditLimits: true, userGroupCreditLimits: true, entityGroupCreditLimits: true, routines: true, labels: true });
    // No entity-group default: the documented credit controls have none, and the demo is the vendor's.
    expect(config.creditControls).toEqual({ downgradeCredits: 8000, shutoffCredits: 12000, userDefaultCredits: 200 });
    const limits = Object.fromEntries((config.userCreditLimits ?? []).map((limit) => [limit.email, limit.creditLimit]));
    expect(limits).toEqual({
      'grace@acme.example': 750,
      'margaret@acme.example': 300,
      'linus@acme.example': null,
      'barbara@acme.example': null,
      'ken@acme.example': 'default',
    });
    // The demo dataset limits Sales Ops and Analysts and no Finance; embed-partners and embed-trial.
    expect(config.userGroupCreditLimits).toEqual([
      { group: 'Finance', creditLimit: 1500 },
      { group: 'Sales Ops', creditLimit: null },
      { group: 'Analysts', creditLimit: 'default' },
    ]);
    expect(config.entityGroupCreditLimits).toEqual([
      { entity: 'embed-partners', creditLimit: 2500 },
      { entity: 'embed-resellers', creditLimit: 800 },
    ]);
    const routines = new Map((config.routines ?? []).map((routine) => [routine.name, routine]));
    expect(routines.has('Old experiment')).toBe(false);
    expect(routines.get('Weekly revenue digest')?.schedule).toBe('0 8 ? * MON *');
    expect(routines.get('Daily pipeline check')?.topicName).toBe('orders');
    expect(routines.get("Grace's weekly KPIs")?.owner).toBe('grace@acme.example');
    expect(routines.get('Monthly marketing recap')?.destination).toEqual({ type: 'slack', recipientId: 'U0MARKETING', slackRecipientType: 'users' });
    const labels = new Map((config.labels ?? []).map((label) => [label.name, label]));
    expect(labels.has('obsolete')).toBe(false);
    expect(labels.get('board-kpis')?.renamedFrom).toEqual(['legacy-kpis']);
    expect(labels.get('certified')).toMatchObject({ verified: true, documents: ['8f2e1d4c', '9d8e7f60'] });
    expect(labels.get('draft')).toMatchObject({ documents: [], pruneDocuments: true });
    expect(labels.get('marketing')?.documents).toEqual(['5e4d3c2b', '3a9b7c6d']);
  });
});

describe('the configuration page', () => {
  it('documents a complete configuration that validates and uses every field of the schema', async () => {
    const page = readFileSync(fileURLToPath(new URL('../../docs/configuration.md', import.meta.url)), 'utf8');
    const example = /## A complete example[\s\S]*?```yaml\n([\s\S]*?)```/.exec(page)?.[1];
    expect(example).toBeDefined();
    const directory = await mkdtemp(join(tmpdir(), 'steward-docs-example-'));
    try {
      await writeFile(join(directory, 'steward.yaml'), example!);
      const diagnostics = await validateConfig(directory, { processEnv: { PLAYGROUND_URL: 'https://acme-playground.example.com' } });
      // The example's `until` dates age: that they expire (soon) is a warning, never a fault of the example.
      expect(diagnostics.filter((diagnostic) => diagnostic.code !== 'until.soon' && diagnostic.code !== 'until.expired')).toEqual([]);
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
    // Every property the schema knows appears in the example.
    const used = new Set<string>();
    const collect = (value: unknown): void => {
      if (Array.isArray(value)) value.forEach(collect);
      else if (value !== null && typeof value === 'object') {
        for (const [key, child] of Object.entries(value)) {
          used.add(key);
          collect(child);
        }
      }
    };
    collect(parseSource(example!, 'configuration.md', 'configuration.md', 'configuration.md').source.value);
    const declared = new Set<string>();
    const gather = (node: unknown): void => {
      if (Array.isArray(node)) node.forEach(gather);
      else if (node !== null && typeof node === 'object') {
        const properties = (node as SchemaNode).properties;
        if (properties !== undefined) Object.keys(properties).forEach((name) => declared.add(name));
        Object.values(node).forEach(gather);
      }
    };
    gather(schema);
    expect([...declared].filter((name) => !used.has(name))).toEqual([]);
  });
});
