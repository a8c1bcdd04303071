// A promotion carries what was tried in the playground, never what the config makes different per
// environment: values from variables that differ by environment (and `paused` under the
// playground's requirePaused) keep production's own value, and the plan says so. A routine that
// does not work in the playground is a warning, and an error under --require-healthy. Both
// emulator profiles, two deployments, the gitops example with per-environment variables.
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { datasetSeed, type EmulatorProfile } from '../../src/emulator/index.js';
import type { Plan } from '../../src/model/plan.js';
import { Deployments } from './deployments.js';
import { creatorRoutineKey, PROFILES } from './helpers.js';

let deployments: Deployments;
afterEach(async () => {
  await deployments.close();
});

const GRACE = 'grace@acme.example';
const PROMPT = 'List deals that moved stage yesterday, with their owner and amount.';

async function edit(file: string, change: (text: string) => string): Promise<void> {
  const path = join(deployments.gitops, file);
  const text = await readFile(path, 'utf8');
  const changed = change(text);
  expect(changed).not.toBe(text);
  await writeFile(path, changed);
}

/**
 * The gitops example with what differs by environment in variables: every routine's `paused`
 * (the playground's are paused) and Grace's limit (750 in production, 10 in the playground).
 */
async function perEnvironmentVariables(): Promise<void> {
  await edit('environments.yaml', (text) =>
    text
      .replace(/(tokenEnv: STEWARD_PRODUCTION_TOKEN\n)/, '$1    variables: { routinesPaused: false, graceLimit: 750 }\n')
      .replace(/(tokenEnv: STEWARD_PLAYGROUND_TOKEN\n)/, '$1    variables: { routinesPaused: true, graceLimit: 10 }\n'),
  );
  await edit('credit.yaml', (text) => text.replace(/creditLimit: 750 .*\n/, 'creditLimit: ${var.graceLimit}\n'));
  await edit('routines.yaml', (text) => text.replace(/^( {2}- name: .*\n)/gm, '$1    paused: ${var.routinesPaused}\n'));
}

async function startWithVariables(profile: EmulatorProfile, playgroundSeed?: ReturnType<typeof datasetSeed>): Promise<void> {
  deployments = await Deployments.start({ profile }, playgroundSeed === undefined ? {} : { data: playgroundSeed });
  await perEnvironmentVariables();
  for (const environment of ['production', 'playground'] as const) expect((await deployments.apply(environment)).code).toBe(0);
}

function graceLimit(environment: 'production' | 'playground'): number | null | undefined {
  const emulator = deployments.emulator(environment);
  return emulator.state.userCreditLimits().find((record) => record.userId === emulator.state.userId(GRACE))?.creditLimit;
}

/** The prompt change tried in the playground: the config changes, and is applied there. */
async function tryPromptInPlayground(): Promise<void> {
  await edit('routines.yaml', (text) => text.replace('prompt: List deals that moved stage yesterday.', `prompt: ${PROMPT}`));
  expect((await deployments.apply('playground')).code).toBe(0);
}

async function promotionPlan(options: { requireHealthy?: boolean } = {}): Promise<Plan> {
  const result = await deployments.diff({ json: true, ...options });
  expect(result.err).toBe('');
  return JSON.parse(result.out) as Plan;
}

/** The promotion is the prompt change alone, and says what it kept at production's value. */
function expectPromptChangeOnly(plan: Plan, profile: EmulatorProfile): void {
  expect(plan.steps.map((step) => [step.action, step.key])).toEqual([['update', creatorRoutineKey({ profile }, 'Daily pipeline check')]]);
  const step = plan.steps[0]!;
  expect(step.action === 'update' && step.fields).toEqual([{ path: 'prompt', before: 'List deals that moved stage yesterday.', after: PROMPT }]);
  const held = plan.promotion?.held ?? [];
  // Each of the four routines is paused in the playground, and Grace has 10 credits there.
  expect(held.filter((entry) => entry.field === 'paused').map((entry) => entry.key).sort()).toEqual(
    ["Daily pipeline check", "Grace's weekly KPIs", 'Monthly marketing recap', 'Weekly revenue digest'],
  );
  expect(held.filter((entry) => entry.field !== 'paused')).toEqual([
    { kind: 'userCreditLimits', key: GRACE, field: 'creditLimit', reason: 'variable graceLimit differs by environment', variables: ['graceLimit'] },
  ]);
  expect(plan.warnings).toContainEqual({
    code: 'promote.held',
    message: "kept production's own value for 5 fields: paused ×4, creditLimit ×1, from variables that differ by environment",
  });
}

describe.each(PROFILES)('a promotion keeps per-environment values home (%s profile)', (profile) => {
  it('promotes a prompt tried in the playground and nothing else; production keeps its routines running and Grace at 750', async () => {
    await startWithVariables(profile);
    expect(deployments.playground.state.routines().every((routine) => routine.disabled)).toBe(true);
    expect(graceLimit('playground')).toBe(10);
    await tryPromptInPlayground();

    const plan = await promotionPlan();
    expectPromptChangeOnly(plan, profile);
    const text = await deployments.diff();
    expect(text.code).toBe(2);
    expect(text.out).toContain(`~   routine "${creatorRoutineKey({ profile }, 'Daily pipeline check')}"\n      prompt: "List deals that moved stage yesterday." → "${PROMPT}"\n`);
    expect(text.out).toContain('Plan: 0 to add, 1 to change, 0 to replace, 0 to destroy.');
    expect(text.out).toContain("kept production's own value for 5 fields: paused ×4, creditLimit ×1, from variables that differ by environment");

    const saved = join(deployments.gitops, 'promotion.json');
    expect((await deployments.diff({ out: saved })).code).toBe(2);
    const applied = await deployments.apply('production', saved);
    expect(applied.err).toBe('');
    expect(applied.code).toBe(0);

    const routines = deployments.production.state.routines();
    expect(routines.filter((routine) => routine.disabled).map((routine) => routine.name)).toEqual([]);
    expect(routines.find((routine) => routine.name === 'Daily pipeline check')?.prompt).toBe(PROMPT);
    expect(graceLimit('production')).toBe(750);
    const again = await deployments.diff();
    expect(again.code).toBe(0);
    expect(again.out).toContain('No changes. production matches the live state of playground.');
    // And production's own plan agrees: the promotion wrote what its config says.
    expect((await deployments.plan('production')).code).toBe(0);
  });

  it("plans the same single change under the playground's requirePaused", async () => {
    await startWithVariables(profile);
    await edit('environments.yaml', (text) => text.replace(/( +)maxDestroy: null\n/, '$1maxDestroy: null\n$1routines: { requirePaused: true }\n'));
    await tryPromptInPlayground();
    expectPromptChangeOnly(await promotionPlan(), profile);
  });

  it('warns of a routine the platform disabled in the playground, and refuses to promote it under --require-healthy', async () => {
    const seed = datasetSeed('demo-playground');
    seed.routines = seed.routines!.map((routine) =>
      // Its topic as the config has it, so applying the config updates it in place (a replacement would be a new, working routine).
      routine.name === 'Daily pipeline check' ? { ...routine, topicName: 'orders', systemDisabled: true, systemDisabledReason: 'Slack channel not found' } : routine,
    );
    await startWithVariables(profile, seed);
    await tryPromptInPlayground();

    const plan = await promotionPlan();
    expect(plan.steps.map((step) => step.key)).toEqual([creatorRoutineKey({ profile }, 'Daily pipeline check')]);
    expect(plan.warnings).toContainEqual({
      code: 'promote.routine-disabled',
      message: expect.stringContaining(`playground's routine "Daily pipeline check"`) as unknown as string,
    });
    expect(plan.warnings.find((warning) => warning.code === 'promote.routine-disabled')?.message).toContain('is disabled by the platform (Slack channel not found)');

    const refused = await deployments.diff({ requireHealthy: true });
    expect(refused.code).toBe(1);
    expect(refused.out).toBe('');
    expect(refused.err).toContain(`Error: --require-healthy: a routine does not work in playground, so nothing is promoted: playground's routine "Daily pipeline check"`);
    expect(refused.err).toContain('is disabled by the platform (Slack channel not found)');
    expect(deployments.production.stats().writes).toBeGreaterThan(0); // the first apply's, none since
    const writes = deployments.production.stats().writes;
    const json = await deployments.diff({ requireHealthy: true, json: true });
    expect(json.code).toBe(1);
    expect(JSON.parse(json.out)).toMatchObject({ error: { code: 'promote.unhealthy' } });
    expect(deployments.production.stats().writes).toBe(writes);
  });

  it('warns of a routine whose last run failed in the playground', async () => {
    const seed = datasetSeed('demo-playground');
    seed.routines = seed.routines!.map((routine) =>
      routine.name === 'Weekly revenue digest' ? { ...routine, lastRun: { completedAt: '2026-11-23T08:00:00.000Z', label: 'Scheduled run', state: 'failed' } } : routine,
    );
    await startWithVariables(profile, seed);
    const plan = await promotionPlan();
    expect(plan.steps).toEqual([]);
    expect(plan.warnings).toContainEqual({
      code: 'promote.routine-failed',
      message: expect.stringContaining(`playground's routine "Weekly revenue digest"`) as unknown as string,
    });
    expect(plan.warnings.find((warning) => warning.code === 'promote.routine-failed')?.message).toContain('its last run (2026-11-23T08:00:00.000Z) ended `failed`');
    expect((await deployments.diff({ requireHealthy: true })).code).toBe(1);
  });

  it('applies a plan made with --require-healthy only while the playground routines still work', async () => {
    await startWithVariables(profile);
    await tryPromptInPlayground();
    const saved = join(deployments.gitops, 'promotion.json');
    expect((await deployments.diff({ out: saved, requireHealthy: true })).code).toBe(2);
    expect((JSON.parse(await readFile(saved, 'utf8')) as Plan).promotion?.requireHealthy).toBe(true);
    const applied = await deployments.apply('production', saved);
    expect(applied.code).toBe(0);
  });
});
