// schemas/plan.schema.json describes the plan JSON that teams feed their own policy engines: it
// is versioned with the plan format, refuses what a plan never holds, and every plan of these
// scenarios fits it (test/setup/planSchema.ts checks every other plan the end-to-end suite makes).
// It is generated from its declaration (src/model/planFormat.ts), with the kinds' and the policy
// rules' own names: test/config/generated.test.ts fails when the file is stale.
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runDrift } from '../../src/cli/drift.js';
import { PLAN_SCHEMA_FILE, planSchema, planSchemaErrors } from '../../src/engine/planSchema.js';
import { PLAN_SCHEMA_FILE as SHIPPED_PLAN_SCHEMA } from '../../src/cli/schema.js';
import { buildProgram } from '../../src/cli/program.js';
import { PLAN_FORMAT_VERSION, type Plan } from '../../src/model/plan.js';
import { plansChecked } from '../setup/planSchema.js';
import { Deployments } from './deployments.js';
import { captureIo, PROFILES } from './helpers.js';

describe('the plan schema', () => {
  const schema = planSchema() as { $id: string; properties: Record<string, { const?: unknown }> };

  it('is the schema of the current plan format', () => {
    expect(schema.properties.formatVersion!.const).toBe(PLAN_FORMAT_VERSION);
    expect(schema.$id).toBe(`urn:steward:schema:plan:${PLAN_FORMAT_VERSION}`);
  });

  it('is printed by `steward schema --plan`, as shipped', async () => {
    const io = captureIo({}, process.cwd());
    await buildProgram(() => io).parseAsync(['node', 'steward', 'schema', '--plan']);
    expect(SHIPPED_PLAN_SCHEMA).toBe(PLAN_SCHEMA_FILE);
    expect(io.result(0).out).toBe(await readFile(PLAN_SCHEMA_FILE, 'utf8'));
  });

  it('refuses what no plan holds: an unknown action, a create with a before, an update without its fields', () => {
    const base = { formatVersion: 1, stewardVersion: '1.0.0', environment: 'production', baseUrl: 'https://acme.example.com', configDigest: 'sha256:0', createdAt: '2026-01-01T00:00:00.000Z', kinds: ['labels'], summary: { create: 1, update: 0, replace: 0, delete: 0 }, warnings: [], requests: 2 };
    const step = { id: 'labels/finance', kind: 'labels', key: 'finance', dependsOn: [], ref: {} };
    expect(planSchemaErrors({ ...base, steps: [{ ...step, action: 'create', after: { name: 'finance' } }] })).toEqual([]);
    expect(planSchemaErrors({ ...base, steps: [{ ...step, action: 'rename', after: {} }] })).toContain('/steps/0/action: must be equal to one of the allowed values (create, update, replace, delete)');
    expect(planSchemaErrors({ ...base, steps: [{ ...step, action: 'create', before: {}, after: {} }] })).not.toEqual([]);
    expect(planSchemaErrors({ ...base, steps: [{ ...step, action: 'update', before: {}, after: {} }] })).toContain("/steps/0: must have required property 'fields'");
    expect(planSchemaErrors({ ...base, formatVersion: 2, steps: [] })).toContain('/formatVersion: must be equal to constant');
    expect(planSchemaErrors({ ...base, steps: [], policyViolations: [{ rule: 'maxDeletes', message: 'm', objects: [], setting: 'policies.maxDeletes' }] })).not.toEqual([]);
  });
});

describe.each(PROFILES)('every plan fits the schema (%s profile)', (profile) => {
  let deployments: Deployments;
  afterEach(async () => {
    await deployments.close();
  });

  it('plan, plan file, drift, promotion, a plan that breaks a policy, and the empty plan after apply', async () => {
    deployments = await Deployments.start({ profile });
    await writeFile(join(deployments.gitops, 'policies.yaml'), 'version: 1\npolicies:\n  maxDestroy: 1\n  creditLimits: { max: 1000 }\n');
    const checkedBefore = plansChecked();
    const plans: Plan[] = [];
    const json = async (result: Promise<{ out: string }>) => plans.push(JSON.parse((await result).out) as Plan);

    await json(deployments.plan('production', { json: true }));
    await deployments.plan('production', { out: 'plan.json' });
    plans.push(JSON.parse(await readFile(join(deployments.gitops, 'plan.json'), 'utf8')) as Plan);
    const io = captureIo(deployments.env, deployments.gitops);
    await runDrift({ config: deployments.gitops, env: 'production', baseUrl: deployments.production.url, json: true }, io);
    plans.push(JSON.parse(io.result(0).out) as Plan);
    expect((await deployments.apply('playground', undefined, { overridePolicy: ['maxDestroy', 'creditLimits'] })).code).toBe(0);
    await json(deployments.plan('playground', { json: true }));
    await json(deployments.diff({ json: true }));

    expect(plans.map((plan) => [plan.environment, plan.steps.length > 0, (plan.policyViolations ?? []).length > 0, plan.promotion !== undefined])).toEqual([
      ['production', true, true, false],
      ['production', true, true, false],
      ['production', true, true, false],
      ['playground', false, false, false],
      ['production', true, true, true],
    ]);
    for (const plan of plans) expect(planSchemaErrors(plan)).toEqual([]);
    // The suite-wide check saw these plans too.
    expect(plansChecked()).toBeGreaterThan(checkedBefore);
  });
});
