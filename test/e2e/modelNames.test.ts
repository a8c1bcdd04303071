// End-to-end: routines name their model by name, and each deployment resolves it to its own id.
// The demo deployments give "Sales" and "Marketing" different ids; one config applies to both,
// promotion maps nothing by hand, a rename keeps the routine's id, what a deployment lacks stops
// the plan at its position, and the JSON plan says when each routine runs next. Against both
// emulator profiles (in the other one, `name=` matches names containing it in any case).
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runExport } from '../../src/cli/export.js';
import { runPlan } from '../../src/cli/plan.js';
import { datasetSeed, startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import type { Plan } from '../../src/model/plan.js';
import { Deployments, type EnvironmentName } from './deployments.js';
import { captureIo, copyExample, creatorRoutineKey, KEY_CREATOR, keyHasUser, PROFILES, Steward } from './helpers.js';

const modelId = (dataset: 'demo' | 'demo-playground', name: string) => datasetSeed(dataset).models!.find((model) => model.name === name)!.id;
const DATASET: Record<EnvironmentName, 'demo' | 'demo-playground'> = { production: 'demo', playground: 'demo-playground' };

describe.each(PROFILES)('routines name their model (%s profile)', (profile) => {
  let deployments: Deployments | undefined;
  let emulator: RunningEmulator | undefined;
  afterEach(async () => {
    await deployments?.close();
    await emulator?.close();
    deployments = undefined;
    emulator = undefined;
  });

  const routinesFile = () => join(deployments!.gitops, 'routines.yaml');
  const editRoutines = async (edit: (text: string) => string) => writeFile(routinesFile(), edit(await readFile(routinesFile(), 'utf8')));
  /** `file:line:col` of the value on the line that reads `line` exactly. */
  const at = async (line: string) => {
    const lines = (await readFile(routinesFile(), 'utf8')).split('\n');
    const index = lines.indexOf(line);
    expect(index).toBeGreaterThanOrEqual(0);
    return `${routinesFile()}:${index + 1}:${line.indexOf(': ') + 3}`;
  };

  it('one config applies to both deployments, each with its own model ids, and both then plan empty', async () => {
    deployments = await Deployments.start({ profile });
    for (const environment of ['production', 'playground'] as const) {
      const before = deployments!.emulator(environment).stats();
      expect(before.byRoute['GET /api/v1/models'] ?? 0).toBe(0);
      const applied = await deployments!.apply(environment);
      expect(applied.code).toBe(0);
      // One filtered query per distinct model name (Sales, Marketing); one topics request per model.
      const stats = deployments!.emulator(environment).stats();
      expect(stats.byRoute['GET /api/v1/models']).toBe(2);
      expect(stats.byRoute['GET /api/v1/models/{modelId}/topic']).toBe(2);
      const routines = deployments!.emulator(environment).state.routines(KEY_CREATOR);
      const byName = new Map(routines.map((routine) => [routine.name, routine.modelId]));
      expect(byName.get('Weekly revenue digest')).toBe(modelId(DATASET[environment], 'Sales'));
      expect(byName.get('Monthly marketing recap')).toBe(modelId(DATASET[environment], 'Marketing'));
      const again = await deployments!.plan(environment);
      expect(again.out).toContain('No changes.');
      expect(again.code).toBe(0);
    }
    expect(modelId('demo', 'Sales')).not.toBe(modelId('demo-playground', 'Sales'));
  });

  it('promotion between the deployments proposes nothing for models: the same name is the same model', async () => {
    deployments = await Deployments.start({ profile });
    expect((await deployments!.apply('production')).code).toBe(0);
    expect((await deployments!.apply('playground')).code).toBe(0);
    const promotion = await deployments!.diff({ json: true });
    expect(promotion.err).toBe('');
    const plan = JSON.parse(promotion.out) as Plan;
    const routineSteps = plan.steps.filter((step) => step.kind === 'routines');
    // "Monthly marketing recap" is on each deployment's own Marketing model: nothing to change,
    // nothing replaced. ("Old experiment", which only the playground keeps, is not declared, and
    // production prunes undeclared routines: the promotion leaves it to production's own plan.)
    expect(routineSteps).toEqual([]);
    expect(plan.warnings.map((warning) => warning.code)).toEqual(['promote.undeclared']);
    const recap = (emulator: RunningEmulator) => emulator.state.routines().find((routine) => routine.name === 'Monthly marketing recap')?.modelId;
    expect([recap(deployments!.production), recap(deployments!.playground)]).toEqual([modelId('demo', 'Marketing'), modelId('demo-playground', 'Marketing')]);
  });

  it('a model changed in place says that it clears the topic the config does not manage, and converges', async () => {
    deployments = await Deployments.start({ profile });
    expect((await deployments!.apply('production')).code).toBe(0);
    const digest = () => deployments!.production.state.routines(KEY_CREATOR).find((routine) => routine.name === 'Weekly revenue digest')!;
    const id = digest().id;
    expect(digest().topicName).toBe('orders');
    await editRoutines((text) => text.replace('    model: Sales\n    topicName: orders\n', '    model: Marketing\n'));
    const plan = await deployments!.plan('production', { json: true });
    const step = (JSON.parse(plan.out) as Plan).steps.find((candidate) => candidate.key === creatorRoutineKey({ profile }, 'Weekly revenue digest'))!;
    expect(step).toMatchObject({
      action: 'update',
      fields: [
        { path: 'modelId', before: modelId('demo', 'Sales'), after: modelId('demo', 'Marketing') },
        { path: 'topicName', before: 'orders', after: null },
      ],
      reason: 'the new model clears its topic, which the config does not manage (declare `topicName` to keep one: the routine is then replaced)',
    });
    const text = await deployments!.plan('production');
    expect(text.out).toContain('      topicName: "orders" → null\n');
    const applied = await deployments!.apply('production');
    expect(applied.err).toBe('');
    expect(applied.code).toBe(0);
    expect(digest()).toMatchObject({ id, modelId: modelId('demo', 'Marketing'), topicName: null });
    expect((await deployments!.plan('production')).code).toBe(0);
  });

  it('a rename keeps the routine\'s id, and the next plan is empty', async () => {
    deployments = await Deployments.start({ profile });
    expect((await deployments!.apply('production')).code).toBe(0);
    const before = deployments!.production.state.routines(KEY_CREATOR).find((routine) => routine.name === 'Weekly revenue digest')!;
    await editRoutines((text) => text.replace('  - name: Weekly revenue digest\n', '  - name: Revenue digest (weekly)\n    renamedFrom: [Weekly revenue digest]\n'));
    const plan = await deployments!.plan('production');
    expect(plan.code).toBe(2);
    expect(plan.out).toContain(`~   routine "${creatorRoutineKey({ profile }, 'Revenue digest (weekly)')}" (renamed from "Weekly revenue digest")\n      name: "Weekly revenue digest" → "Revenue digest (weekly)"\n`);
    expect(plan.out).toContain('Plan: 0 to add, 1 to change, 0 to replace, 0 to destroy.');
    const applied = await deployments!.apply('production');
    expect(applied.code).toBe(0);
    const after = deployments!.production.state.routines(KEY_CREATOR);
    expect(after.find((routine) => routine.name === 'Revenue digest (weekly)')?.id).toBe(before.id);
    expect(after.some((routine) => routine.name === 'Weekly revenue digest')).toBe(false);
    // A rename is the documented PUT, in both profiles.
    expect(deployments!.production.stats().byRoute['PUT /api/v1/ai/routines/{routineId}']).toBeGreaterThan(0);
    const again = await deployments!.plan('production');
    expect(again.out).toContain('No changes.');
    expect(again.code).toBe(0);
  });

  it('the plan shows a routine\'s model and branch by the names the config gives them, its JSON by id', async () => {
    deployments = await Deployments.start({ profile });
    await editRoutines((text) => text.replace('    model: Sales\n    topicName: orders\n    destination:\n      type: slack', '    model: Sales\n    branch: forecast-v2\n    topicName: orders\n    destination:\n      type: slack'));
    const marketing = modelId('demo', 'Marketing');
    const branch = datasetSeed('demo').models!.find((model) => model.name === 'Sales')!.branches!.find((candidate) => candidate.name === 'forecast-v2')!.id;
    const text = await deployments!.plan('production');
    expect(text.out).toContain('\n      model: Marketing\n');
    expect(text.out).toContain('\n      branch: null → forecast-v2\n');
    expect(text.out).not.toContain(marketing);
    expect(text.out).not.toContain(branch);
    const markdown = await deployments!.plan('production', { markdown: true });
    expect(markdown.out).toContain('model: Marketing');
    expect(markdown.out).not.toContain(marketing);
    const json = await deployments!.plan('production', { json: true });
    const steps = (JSON.parse(json.out) as Plan).steps;
    const created = steps.find((step) => step.key === creatorRoutineKey({ profile }, 'Monthly marketing recap'));
    expect(created?.kind === 'routines' && created.action === 'create' ? created.after.modelId : undefined).toBe(marketing);
    expect(json.out).not.toContain('"model": "Marketing"');
  });

  it('a model, branch or topic the deployment lacks stops the plan at its position, listing what it has', async () => {
    deployments = await Deployments.start({ profile });
    // "Sale" is contained in "Sales": a server whose name= matches loosely answers with it, and
    // steward still compares exactly.
    await editRoutines((text) =>
      text
        .replace('    model: Sales\n    topicName: orders\n    destination:\n      type: email\n      recipientEmails:\n        - ada', '    model: Sale\n    topicName: orders\n    destination:\n      type: email\n      recipientEmails:\n        - ada')
        .replace('    model: Sales\n    topicName: orders\n    destination:\n      type: slack', '    model: Sales\n    branch: forecast-v3\n    topicName: orders\n    destination:\n      type: slack')
        .replace('topicName: campaigns', 'topicName: campaign'),
    );
    const plan = await deployments!.plan('production');
    expect(plan.code).toBe(1);
    expect(plan.out).toBe('');
    expect(plan.err).toContain('3 routines name models, branches or topics this deployment does not have:');
    expect(plan.err).toContain(`${await at('    model: Sale')}: routine "Weekly revenue digest": model "Sale" is not a shared model of this deployment; its shared models: "Marketing", "Sales"`);
    expect(plan.err).toContain(`${await at('    branch: forecast-v3')}: routine "Daily pipeline check": branch "forecast-v3" is not an active branch of model "Sales"; its branches: "forecast-v2"`);
    expect(plan.err).toContain(`${await at('    topicName: campaign')}: routine "Monthly marketing recap": topic "campaign" is not a topic of model "Marketing"; its topics: "campaigns"`);
    // Nothing was written, and only the one bad-name path listed every shared model.
    expect(deployments!.production.stats().writes).toBe(0);
  });

  it('a branch given by a literal id the model lacks stops the plan at `branchId:`; one it has plans', async () => {
    deployments = await Deployments.start({ profile });
    const slackRoutine = '    model: Sales\n    topicName: orders\n    destination:\n      type: slack';
    const missing = '7e57b0a1-0000-4000-8000-00000000b0a1';
    await editRoutines((text) => text.replace(slackRoutine, slackRoutine.replace('    model: Sales\n', `    model: Sales\n    branchId: ${missing}\n`)));
    const plan = await deployments!.plan('production');
    expect(plan.code).toBe(1);
    expect(plan.err).toContain(`${await at(`    branchId: ${missing}`)}: routine "Daily pipeline check": branch ${missing} is not an active branch of model "Sales"; its branches: "forecast-v2 (`);
    expect(plan.err).toContain('name the branch by `branch:` (its name)');
    expect(deployments!.production.stats().writes).toBe(0);

    const existing = datasetSeed('demo').models!.find((model) => model.name === 'Sales')!.branches!.find((candidate) => candidate.name === 'forecast-v2')!.id;
    await editRoutines((text) => text.replace(`branchId: ${missing}`, `branchId: ${existing}`));
    const fixed = await deployments!.plan('production');
    expect(fixed.err).not.toContain('is not an active branch');
    expect([0, 2, 3]).toContain(fixed.code);
  });

  it('a topic is checked when a routine is created with it, and not read again once the routine is live', async () => {
    deployments = await Deployments.start({ profile });
    await editRoutines((text) => text.replace('topicName: campaigns', 'topicName: campaign'));
    const plan = await deployments!.plan('production');
    expect(plan.code).toBe(1);
    expect(plan.err).toContain(`${await at('    topicName: campaign')}: routine "Monthly marketing recap": topic "campaign" is not a topic of model "Marketing"; its topics: "campaigns"`);
    expect(plan.err).toContain('Hint: did you mean "campaigns"?');
    expect(deployments!.production.stats().writes).toBe(0);

    await editRoutines((text) => text.replace('topicName: campaign', 'topicName: campaigns'));
    expect((await deployments!.apply('production')).code).toBe(0);
    const before = deployments!.production.stats().byRoute['GET /api/v1/models/{modelId}/topic'] ?? 0;
    const again = await deployments!.plan('production');
    expect(again.out).toContain('No changes.');
    // Nothing is created, so no topic needs checking: no topics request.
    expect(deployments!.production.stats().byRoute['GET /api/v1/models/{modelId}/topic'] ?? 0).toBe(before);
  });

  it('one unknown model is said at its position with a suggestion, in the JSON envelope too', async () => {
    deployments = await Deployments.start({ profile });
    await editRoutines((text) => text.replace('model: Marketing', 'model: Marketting'));
    const plan = await deployments!.plan('production', { json: true });
    expect(plan.code).toBe(1);
    const envelope = JSON.parse(plan.out || plan.err) as { error: { code: string; message: string; hint?: string; position?: { file: string; line: number; col: number } } };
    expect(envelope.error.code).toBe('plan.unknown-model');
    expect(envelope.error.message).toBe('routine "Monthly marketing recap": model "Marketting" is not a shared model of this deployment; its shared models: "Marketing", "Sales"');
    expect(envelope.error.hint).toBe('did you mean "Marketing"?');
    const [file, line, col] = (await at('    model: Marketting')).split(/:(?=\d)/);
    expect(envelope.error.position).toEqual({ file, line: Number(line), col: Number(col) });
  });

  it('the JSON plan carries each changed routine\'s next runs, exact across the end of summer time', async () => {
    deployments = await Deployments.start({ profile });
    const io = captureIo(deployments!.env, deployments!.gitops);
    // Sunday 18 October 2026, noon UTC: Berlin leaves summer time on Sunday 25 October.
    io.now = () => new Date('2026-10-18T12:00:00.000Z');
    const connection = { config: deployments!.gitops, env: 'production', baseUrl: deployments!.production.url };
    const code = await runPlan({ ...connection, json: true, detailedExitcode: true }, io);
    const { out } = io.result(code);
    const plan = JSON.parse(out) as Plan;
    expect(plan.createdAt).toBe('2026-10-18T12:00:00.000Z');
    const step = (name: string) => plan.steps.find((candidate) => candidate.kind === 'routines' && candidate.action !== 'delete' && candidate.after.name === name)!;
    // "0 8 ? * MON *" in Europe/Berlin: 08:00 CEST is 06:00 UTC, 08:00 CET 07:00 UTC.
    expect(step('Weekly revenue digest').nextRuns).toEqual(['2026-10-19T06:00:00.000Z', '2026-10-26T07:00:00.000Z', '2026-11-02T07:00:00.000Z']);
    // "0 8 ? * MON-FRI *" in America/New_York (replaced: its topic changes), still on summer time.
    expect(step('Daily pipeline check').nextRuns).toEqual(['2026-10-19T12:00:00.000Z', '2026-10-20T12:00:00.000Z', '2026-10-21T12:00:00.000Z']);
    expect(plan.steps.filter((candidate) => candidate.action === 'delete').every((candidate) => candidate.nextRuns === undefined)).toBe(true);

    const human = captureIo(deployments!.env, deployments!.gitops);
    human.now = io.now;
    const text = human.result(await runPlan({ ...connection, detailedExitcode: true }, human)).out;
    expect(text).toContain('      next runs: Mon 19 Oct 08:00 Europe/Berlin (06:00 UTC), Mon 26 Oct 08:00 Europe/Berlin (07:00 UTC), Mon 2 Nov 08:00 Europe/Berlin (07:00 UTC)\n');
    expect(keyHasUser({ profile }) || text.includes(`${KEY_CREATOR}/`)).toBe(true);
  });

  it('a name two shared models carry stops the plan at every routine naming it; a namesake of another kind is no candidate; export falls back to the id', async () => {
    const seed = datasetSeed('demo');
    const twin = 'f1e2d3c4-b5a6-4978-8695-a4b3c2d1e0f9';
    seed.models!.push(
      { id: twin, name: 'Sales', defaultRole: 'QUERIER', topics: ['orders'] },
      { id: '0f9e8d7c-6b5a-4493-8271-605f4e3d2c1b', name: 'Marketing', modelKind: 'SCHEMA', defaultRole: 'QUERIER' },
    );
    emulator = await startEmulator({ profile, data: seed });
    const steward = new Steward(emulator, await copyExample('gitops', { namedOwners: !keyHasUser({ profile }) }));
    const plan = await steward.plan();
    expect(plan.code).toBe(1);
    expect(plan.err).toContain('3 routines name models, branches or topics this deployment does not have:');
    const ambiguity = `model "Sales" names 2 shared models of this deployment (ids ${[modelId('demo', 'Sales'), twin].sort().join(', ')})`;
    for (const name of ['Weekly revenue digest', 'Daily pipeline check', "Grace's weekly KPIs"]) expect(plan.err).toContain(`routine "${name}": ${ambiguity}`);
    expect(plan.err).not.toContain('"Marketing"');

    const io = captureIo(steward.env, steward.directory);
    const owners = keyHasUser({ profile }) ? ['grace@acme.example'] : [KEY_CREATOR, 'grace@acme.example'];
    const exported = io.result(await runExport({ config: steward.directory, env: 'production', baseUrl: emulator.url, kind: ['routines'], owner: owners }, io));
    expect(exported.code).toBe(0);
    expect(exported.out).toContain(`    modelId: ${modelId('demo', 'Sales')}\n    branchId: null\n`);
    expect(exported.out).toContain('    model: Marketing\n    branch: null\n');
    expect(exported.out).not.toContain('model: Sales');
  });
});
