// The CI recipes of examples/ci/, step by step: every `steward ...` line of their `run:` scripts
// and every step of the steward Action (its command composed by action/steward-action.sh from
// the step's inputs) is read from the workflow files, expanded as the runner would (secrets, the
// step summary, the checkout) and run in-process against emulators standing in for production
// and the playground; exit codes, outputs and files are what the next step relies on.
import { readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EXIT } from '../../src/cli/plan.js';
import { removeBashSteps, runBashStep } from './ci/bashStep.js';
import { CiRunner, COMMANDS_RUN, commandKey, invoke, SECRETS, readInTemp, type CommandRun, type Workspace } from './ci/runner.js';
import { actionCommand, actionScript, actionSteps, loadWorkflow, runScripts, stepEnv, stepOf, stewardCommands, WORKFLOW_FILES, type Workflow } from './ci/workflows.js';
import { captureIo, PRODUCTION_TOKEN } from './helpers.js';

const plan = loadWorkflow('plan.yml');
const apply = loadWorkflow('apply.yml');
const drift = loadWorkflow('drift.yml');
const promote = loadWorkflow('promote.yml');

let runner: CiRunner;
beforeEach(async () => {
  runner = await CiRunner.start();
});
afterEach(async () => {
  await runner.close();
});
afterAll(removeBashSteps);

/** The single steward command a step runs (a step with several is run command by command). */
function only(runs: CommandRun[]): CommandRun {
  expect(runs).toHaveLength(1);
  return runs[0]!;
}

/** Where the steward Action keeps the plan file and the Markdown report, in $RUNNER_TEMP. */
const PLAN_FILE = 'steward/plan.json';
const REPORT = 'steward/summary.md';

/** plan.yml on a pull request: validate, then plan into the Action's plan file and report. */
async function planPullRequest(): Promise<Workspace> {
  const checkout = await runner.checkout();
  const validated = only(await runner.runStep(checkout, plan, 'plan', 'Validate'));
  expect(validated.args).toEqual(['validate', '--config', 'steward']);
  expect(validated.code).toBe(0);
  expect(validated.out).toContain('The configuration at steward is valid');
  const planned = only(await runner.runStep(checkout, plan, 'plan', 'plan'));
  expect(planned.args.slice(0, 1)).toEqual(['plan']);
  expect(checkout.outputs.plan).toMatchObject({ 'exit-code': '3', 'has-changes': 'true', 'has-destroys': 'true' });
  // 3: changes that delete or replace something (the demo prunes a routine and a label).
  expect(planned.code).toBe(EXIT.destructive);
  expect(planned.out).toContain('Plan: 10 to add, 7 to change, 1 to replace, 8 to destroy.');
  return checkout;
}

/** Someone changes grace's credit limit in production, outside git. */
async function changeProductionByHand(limit: number): Promise<void> {
  const production = runner.emulators.production;
  const response = await fetch(`${production.url}/api/v1/ai/credit-controls/users`, {
    method: 'PATCH',
    headers: { authorization: `Bearer ${PRODUCTION_TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify({ users: [{ userId: production.state.userId('grace@acme.example'), creditLimit: limit }] }),
  });
  expect(response.status).toBe(200);
}

/** drift.yml: the one steward command of its check, with the report it wrote. */
async function nightlyDrift(secrets: Record<string, string> = {}): Promise<{ run: CommandRun; report: string }> {
  const checkout = await runner.checkout();
  const run = only(await runner.runStep(checkout, drift, 'drift', 'drift', { secrets }));
  return { run, report: existsSync(join(checkout.env.RUNNER_TEMP!, REPORT)) ? await readInTemp(checkout, REPORT) : '' };
}

function expectNoSecrets(text: string): void {
  for (const secret of Object.values(SECRETS)) expect(text).not.toContain(secret);
}

describe('plan on a pull request, apply on merge, drift every night', () => {
  it('plans, hands the plan file to the apply run, applies exactly it, and then finds no drift', async () => {
    // GIVEN the plan job of the pull request
    const pullRequest = await planPullRequest();
    const planFile = await readInTemp(pullRequest, PLAN_FILE);
    const markdown = await readInTemp(pullRequest, REPORT);
    expect(await readFile(pullRequest.summary, 'utf8')).toBe(markdown);
    expectNoSecrets(planFile);
    expectNoSecrets(markdown);
    expect(JSON.parse(planFile)).toMatchObject({ environment: 'production', summary: { create: 10, update: 7, replace: 1, delete: 8 } });
    expect(markdown).toMatch(/^### steward plan for `production`/);
    expect(markdown).toContain('**Plan: 10 to add, 7 to change, 1 to replace, 8 to destroy.**');
    expect(runner.emulators.production.stats().writes).toBe(0);

    // WHEN the pull request is merged: the apply run downloads the artifact of the plan run
    const main = await runner.checkout();
    const downloaded = await runner.handOff(
      { workspace: pullRequest, workflow: plan, job: 'plan', step: 'plan' },
      { workspace: main, workflow: apply, job: 'apply', step: 'Download the reviewed plan' },
    );
    expect(downloaded).toBe(join(main.root, 'reviewed', 'plan.json'));
    const [dryRun] = runner.commands(main, apply, 'apply', 'check');
    const checked = await runner.run(main, dryRun!);
    expect(checked.args.slice(0, 6)).toEqual(['apply', 'reviewed/plan.json', '--config', 'steward', '--dry-run', '--json']);
    expect(checked.code).toBe(0);
    expect(JSON.parse(checked.out)).toMatchObject({ dryRun: true, alreadyApplied: [] });
    expect(JSON.parse(checked.out).wouldApply).toHaveLength(26);
    expect(runner.emulators.production.stats().writes).toBe(0);

    // THEN the reviewed plan is applied, step for step
    const applied = only(await runner.runStep(main, apply, 'apply', 'Apply the reviewed plan'));
    expect(applied.args).toEqual(['apply', 'reviewed/plan.json', '--config', 'steward', '--env', 'production', '--base-url', runner.emulators.production.url]);
    expect(applied.err).toBe('');
    expect(applied.code).toBe(0);
    expect(applied.out).toContain('Apply: 26 done, 0 already applied, 0 failed, 0 skipped.');

    // AND the nightly drift check finds production as git describes it
    const night = await nightlyDrift();
    expect(night.run.code).toBe(0);
    expect(night.report).toMatch(/^### steward drift check for `production`/);
    expect(night.report).toContain('**No drift.** The live state matches the configuration.');
  });

  it('reports drift (exit 2) once someone changes production outside git, and an error as 1', async () => {
    const main = await runner.checkout();
    const [planMain, applyPlan] = await planAndApplyMain(main);
    expect([planMain.code, applyPlan.code]).toEqual([EXIT.destructive, 0]);

    await changeProductionByHand(650);
    const night = await nightlyDrift();
    expect(night.run.code).toBe(2);
    expect(night.run.out).toContain('grace@acme.example');
    expect(night.report).toContain('**Drift:** the live state differs from the configuration in 1 place.');
    expect(night.report).toContain('user credit limit grace@acme.example: 650 → 750');
    expectNoSecrets(night.report);

    // A token that no longer works is an error, not drift.
    const revoked = await nightlyDrift({ STEWARD_PRODUCTION_TOKEN: 'revoked-token' });
    expect(revoked.run.code).toBe(1);
    expect(revoked.run.err).toContain('401 Missing or invalid API key');
    expect(revoked.report).toBe('');
  });
});

/** apply.yml's fresh branch: plan main (into the job summary), then apply exactly that plan. */
async function planAndApplyMain(main: Workspace): Promise<[CommandRun, CommandRun]> {
  const planned = only(await runner.runStep(main, apply, 'apply', 'replan'));
  expect(planned.code).toBeLessThanOrEqual(EXIT.destructive);
  const applied = only(await runner.runStep(main, apply, 'apply', 'Apply that plan'));
  return [planned, applied];
}

/** The check step of apply.yml, in bash, fed what the real dry run printed and its exit code. */
function checkStepGiven(dryRun: CommandRun, vars: Record<string, string> = {}) {
  return runBashStep(apply, 'apply', 'check', {
    files: { 'reviewed/plan.json': '{}' },
    stubs: { stewardExit: { apply: dryRun.code }, stewardPrints: { apply: { stdout: dryRun.out, stderr: dryRun.err } } },
    context: { steps: { reviewed: { outputs: { pr: '12', 'run-id': '99' } } } },
    vars,
  });
}

/** The merged pull request's plan, handed to a fresh checkout of main as apply.yml downloads it. */
async function handToMain(pullRequest: Workspace, main?: Workspace): Promise<Workspace> {
  const checkout = main ?? (await runner.checkout());
  await runner.handOff(
    { workspace: pullRequest, workflow: plan, job: 'plan', step: 'plan' },
    { workspace: checkout, workflow: apply, job: 'apply', step: 'Download the reviewed plan' },
  );
  return checkout;
}

describe('apply on merge refuses a reviewed plan that no longer fits', () => {
  it('refuses a plan of a configuration that main no longer has, and shows the plan of main instead', async () => {
    const pullRequest = await planPullRequest();
    // GIVEN another pull request changed the credit controls on main after this plan was made
    const main = await runner.checkout();
    const credit = join(main.root, 'steward', 'credit.yaml');
    await writeFile(credit, (await readFile(credit, 'utf8')).replace('shutoffCredits: 12000', 'shutoffCredits: 13000'));
    await handToMain(pullRequest, main);

    // WHEN the check step dry-runs the reviewed plan, THEN steward refuses it and writes nothing
    const [dryRun, planOfMain] = runner.commands(main, apply, 'apply', 'check');
    const checked = await runner.run(main, dryRun!);
    expect(checked.code).toBe(1);
    expect(JSON.parse(checked.out)).toMatchObject({ error: { code: 'plan-file.config-changed', message: 'the configuration has changed since this plan was made' } });
    // AND the shell reads that as a refusal: it fails, says why, and puts the plan of main in the job summary
    const step = await checkStepGiven(checked);
    expect(step.code).toBe(1);
    expect(step.stdout).toContain('::error title=Reviewed plan refused::steward refused the plan reviewed on the pull request (plan-file.config-changed: the configuration has changed since this plan was made)');
    expect(step.calls.steward.map((call) => call[0])).toEqual(['apply', 'plan']);
    expect(planOfMain!.args).toEqual(['plan', '--config', 'steward', '--env', 'production', '--markdown', main.summary]);
    const shown = await runner.run(main, planOfMain!);
    expect(shown.code).toBe(0);
    const summary = await readFile(main.summary, 'utf8');
    expect(summary).toContain('shutoffCredits: 10,000 → 13,000');
    expect(runner.emulators.production.stats().writes).toBe(0);

    // WHEN the repository opted in (STEWARD_REPLAN_IF_REFUSED=true), main is planned and applied
    expect((await checkStepGiven(checked, { STEWARD_REPLAN_IF_REFUSED: 'true' })).outputs).toEqual({ mode: 'fresh' });
    const [replanned, appliedMain] = await planAndApplyMain(main);
    const temp = main.env.RUNNER_TEMP!;
    expect(replanned.args).toEqual(['plan', '--config', 'steward', '--env', 'production', '--detailed-exitcode', '--out', `${temp}/${PLAN_FILE}`, '--markdown', `${temp}/${REPORT}`, '--base-url', runner.emulators.production.url]);
    expect(appliedMain.args.slice(0, 6)).toEqual(['apply', `${temp}/${PLAN_FILE}`, '--config', 'steward', '--env', 'production']);
    expect([replanned.code, appliedMain.code]).toEqual([EXIT.destructive, 0]);
    expect(appliedMain.out).toContain('Apply: 26 done');
    expect(runner.emulators.production.state.creditControls().shutoffCredits).toBe(13000);
    expectNoSecrets(await readFile(main.summary, 'utf8'));
  });

  it('refuses a plan whose objects changed in production since it was made (stale), as a refusal', async () => {
    const pullRequest = await planPullRequest();
    await changeProductionByHand(650);
    const main = await handToMain(pullRequest);
    const writes = runner.emulators.production.stats().writes;
    const checked = await runner.run(main, runner.commands(main, apply, 'apply', 'check')[0]!);
    expect(checked.code).toBe(1);
    expect(JSON.parse(checked.out)).toMatchObject({ error: { code: 'plan.stale', message: 'the plan is stale: 1 object changed since it was made; nothing was applied' } });
    expect(runner.emulators.production.stats().writes).toBe(writes);

    const step = await checkStepGiven(checked);
    expect(step.code).toBe(1);
    expect(step.stdout).toContain('::error title=Reviewed plan refused::steward refused the plan reviewed on the pull request (plan.stale: the plan is stale: 1 object changed since it was made; nothing was applied)');
    expect((await checkStepGiven(checked, { STEWARD_REPLAN_IF_REFUSED: 'true' })).outputs).toEqual({ mode: 'fresh' });
  });

  it('refuses a plan file whose steps were edited after the plan run (the artifact is the pull request author\'s)', async () => {
    const pullRequest = await planPullRequest();
    // GIVEN the artifact says something other than what was reviewed: a bigger shutoff
    const file = join(pullRequest.env.RUNNER_TEMP!, PLAN_FILE);
    const saved = JSON.parse(await readFile(file, 'utf8')) as { steps: { kind: string; after?: Record<string, unknown> }[] };
    const credit = saved.steps.find((step) => step.kind === 'creditControls')!;
    credit.after = { ...credit.after, shutoffCredits: 99000 };
    await writeFile(file, JSON.stringify(saved));
    const main = await handToMain(pullRequest);

    const checked = await runner.run(main, runner.commands(main, apply, 'apply', 'check')[0]!);
    expect(checked.code).toBe(1);
    expect(JSON.parse(checked.out)).toMatchObject({ error: { code: 'plan-file.unfounded' } });
    expect(runner.emulators.production.stats().writes).toBe(0);
    const step = await checkStepGiven(checked);
    expect(step.code).toBe(1);
    expect(step.stdout).toContain('::error title=Reviewed plan refused::steward refused the plan reviewed on the pull request (plan-file.unfounded: ');
  });

  it('fails without planning main again when the reviewed plan cannot be checked (a token that no longer works)', async () => {
    const main = await handToMain(await planPullRequest());
    const checked = await runner.run(main, runner.commands(main, apply, 'apply', 'check', { secrets: { STEWARD_PRODUCTION_TOKEN: 'revoked-token' } })[0]!);
    expect(checked.code).toBe(1);
    expect(JSON.parse(checked.out)).toMatchObject({ error: { code: 'api.unauthorized' } });

    // Even where the repository opted in to planning main after a refusal: this is no refusal.
    const step = await checkStepGiven(checked, { STEWARD_REPLAN_IF_REFUSED: 'true', STEWARD_APPLY_UNREVIEWED: 'true' });
    expect(step.code).toBe(1);
    expect(step.stdout).toContain('::error title=Could not check the reviewed plan::steward could not check the reviewed plan (api.unauthorized: ');
    expect(step.outputs).toEqual({});
    expect(step.calls.steward.map((call) => call[0])).toEqual(['apply']);
    expect(step.summary).toBe('');
  });

  it('with STEWARD_APPLY_UNREVIEWED, a direct push plans main into the job summary and applies that plan; the next plan is empty', async () => {
    const main = await runner.checkout();
    const decided = await runBashStep(apply, 'apply', 'check', { vars: { STEWARD_APPLY_UNREVIEWED: 'true' } });
    expect(decided.outputs).toEqual({ mode: 'fresh' });
    const [planned, applied] = await planAndApplyMain(main);
    expect(planned.code).toBe(EXIT.destructive);
    expect(await readFile(main.summary, 'utf8')).toContain('**Plan: 10 to add, 7 to change, 1 to replace, 8 to destroy.**');
    expect(applied.args.slice(0, 4)).toEqual(['apply', `${main.env.RUNNER_TEMP}/${PLAN_FILE}`, '--config', 'steward']);
    expect(applied.code).toBe(0);
    // The apply report follows the plan in the job summary.
    expect(await readFile(main.summary, 'utf8')).toContain('### steward apply to `production`');
    expectNoSecrets(await readFile(main.summary, 'utf8'));
    expectNoSecrets(await readInTemp(main, PLAN_FILE));

    // The next pull request's plan says: no changes (exit 0).
    const next = await runner.checkout();
    const again = only(await runner.runStep(next, plan, 'plan', 'plan'));
    expect(again.code).toBe(EXIT.ok);
    expect(await readInTemp(next, REPORT)).toContain('**No changes.** The live state matches the configuration.');
    expect(next.outputs.plan).toMatchObject({ 'exit-code': '0', 'has-changes': 'false', 'has-destroys': 'false' });
  });
});

/** Someone tries a higher shutoff and a bigger limit for grace in the playground. */
async function changePlayground(graceLimit: number): Promise<void> {
  const playground = runner.emulators.playground;
  const headers = { authorization: `Bearer ${SECRETS.STEWARD_PLAYGROUND_TOKEN}`, 'content-type': 'application/json' };
  const controls = await fetch(`${playground.url}/api/v1/ai/credit-controls`, { method: 'PATCH', headers, body: JSON.stringify({ shutoffCredits: 15000 }) });
  expect(controls.status).toBe(200);
  const users = JSON.stringify({ users: [{ userId: playground.state.userId('grace@acme.example'), creditLimit: graceLimit }] });
  expect((await fetch(`${playground.url}/api/v1/ai/credit-controls/users`, { method: 'PATCH', headers, body: users })).status).toBe(200);
}

/** promote.yml's diff job; returns its checkout and the one steward command it ran. */
async function promotionDiff(): Promise<{ checkout: Workspace; run: CommandRun }> {
  const checkout = await runner.checkout();
  return { checkout, run: only(await runner.runStep(checkout, promote, 'diff', 'diff')) };
}

describe('promotion from the playground to production', () => {
  it('shows what production would change in the job summary, and applies exactly that once approved', async () => {
    // GIVEN the playground was changed by hand; production is as the demo left it
    await changePlayground(900);
    // WHEN the diff job compares production with the playground
    const { checkout: diffRun, run: diff } = await promotionDiff();
    const temp = diffRun.env.RUNNER_TEMP!;
    expect(diff.args.slice(0, 12)).toEqual([
      'diff', '--config', 'steward', '--env', 'production', '--detailed-exitcode', '--out', `${temp}/${PLAN_FILE}`, '--markdown', `${temp}/${REPORT}`, '--against', 'playground',
    ]);
    expect(diff.code).toBe(EXIT.changes);
    const summary = await readFile(diffRun.summary, 'utf8');
    expect(summary).toMatch(/^### steward promotion from `playground` to `production`/);
    expect(summary).toContain('**Plan: 0 to add, 2 to change, 0 to replace, 0 to destroy.**');
    expect(summary).toContain('shutoffCredits: 10,000 → 15,000');
    expect(summary).toContain('user credit limit grace@acme.example: 500 → 900');
    expectNoSecrets(summary);
    expectNoSecrets(await readInTemp(diffRun, PLAN_FILE));
    expect(diffRun.outputs.diff).toMatchObject({ 'exit-code': '2', 'has-changes': 'true', 'has-destroys': 'false' });
    expect(runner.emulators.production.stats().writes).toBe(0);

    // THEN once a reviewer approves the production deployment, the promote job applies that plan
    const promoteRun = await runner.checkout();
    await runner.handOff(
      { workspace: diffRun, workflow: promote, job: 'diff', step: 'diff' },
      { workspace: promoteRun, workflow: promote, job: 'promote', step: 'Download the promotion plan' },
    );
    const applied = only(await runner.runStep(promoteRun, promote, 'promote', 'Apply the promotion plan'));
    expect(applied.err).toBe('');
    expect(applied.code).toBe(0);
    expect(applied.out).toContain('Apply: 2 done, 0 already applied, 0 failed, 0 skipped.');
    const production = runner.emulators.production.state;
    expect(production.creditControls().shutoffCredits).toBe(15000);
    expect(production.userCreditLimits()).toContainEqual({ userId: production.userId('grace@acme.example'), creditLimit: 900 });

    // AND the next promotion has nothing to promote
    expect((await promotionDiff()).run.code).toBe(EXIT.ok);
  });

  it('refuses the approved plan when the playground changed while it waited for approval', async () => {
    await changePlayground(900);
    const { checkout: diffRun } = await promotionDiff();
    await changePlayground(950);
    const promoteRun = await runner.checkout();
    await runner.handOff(
      { workspace: diffRun, workflow: promote, job: 'diff', step: 'diff' },
      { workspace: promoteRun, workflow: promote, job: 'promote', step: 'Download the promotion plan' },
    );
    const refused = only(await runner.runStep(promoteRun, promote, 'promote', 'Apply the promotion plan'));
    expect(refused.code).toBe(1);
    expect(refused.err).toContain('playground has changed since this promotion plan was made; nothing was applied');
    expect(runner.emulators.production.stats().writes).toBe(0);
  });
});

describe('fleet.yml: one job per deployment', () => {
  const fleet = loadWorkflow('fleet.yml');
  const FLEET_CONFIG = `version: 1
environments:
  eu-west:
    baseUrl: https://eu-west.acme.example.com
    tokenEnv: STEWARD_EU_WEST_TOKEN
    requestsPerMinute: 6000
  us-east:
    baseUrl: https://us-east.acme.example.com
    tokenEnv: STEWARD_US_EAST_TOKEN
    requestsPerMinute: 6000
creditControls:
  shutoffCredits: 12000
`;

  it("plans and applies each deployment with its own key and budget, as the Action composes the command", async () => {
    // eu-west is the demo instance, us-east the playground one: each key opens only its own.
    const deployments = { 'eu-west': { emulator: runner.emulators.production, key: SECRETS.STEWARD_PRODUCTION_TOKEN! }, 'us-east': { emulator: runner.emulators.playground, key: SECRETS.STEWARD_PLAYGROUND_TOKEN! } };
    const planStep = stepOf(fleet, 'deployment', 'plan');
    const applyStep = stepOf(fleet, 'deployment', 'Apply that plan');
    for (const [deployment, { emulator, key }] of Object.entries(deployments)) {
      // One job: its own checkout and RUNNER_TEMP, its GitHub environment's STEWARD_TOKEN.
      const job = await runner.checkout();
      // The fleet's config: two deployments and one setting, in place of the gitops example.
      for (const file of await readdir(join(job.root, 'steward'))) await rm(join(job.root, 'steward', file), { recursive: true, force: true });
      await writeFile(join(job.root, 'steward', 'environments.yaml'), FLEET_CONFIG);
      const budget = deployment === 'us-east' ? '--requests-per-minute 120' : '';
      const inputs = (step: typeof planStep, extra: Record<string, string> = {}) => ({
        INPUT_COMMAND: String(step.with!.command), INPUT_CONFIG: 'steward', INPUT_ENVIRONMENT: deployment, INPUT_ARGS: budget, INPUT_TOKEN: key, ...extra,
      });
      const run = async (step: typeof planStep, extra: Record<string, string> = {}) => {
        actionScript(['prepare'], { ...inputs(step, extra), RUNNER_TEMP: job.env.RUNNER_TEMP! });
        const command = actionCommand(step, inputs(step, extra), job.env.RUNNER_TEMP!)!;
        const io = captureIo({ ...job.env, [command.tokenVariable]: key }, job.root);
        const code = await invoke([...command.args, '--base-url', emulator.url], io);
        return { command, ...io.result(code) };
      };
      const before = emulator.stats().writes;
      const planned = await run(planStep);
      expect(planned.command.tokenVariable).toBe(`STEWARD_${deployment.toUpperCase().replace('-', '_')}_TOKEN`);
      expect(planned.command.args).toEqual(expect.arrayContaining(['--env', deployment]));
      if (deployment === 'us-east') expect(planned.command.args.slice(-2)).toEqual(['--requests-per-minute', '120']);
      expect(planned.code, planned.err).toBe(EXIT.changes);
      expect(planned.out).toContain('shutoffCredits: 10,000 → 12,000');
      const applied = await run(applyStep, { INPUT_PLAN_FILE: `${job.env.RUNNER_TEMP}/${PLAN_FILE}` });
      expect(applied.code, applied.err).toBe(0);
      expect(emulator.stats().writes).toBe(before + 1);
      expect(emulator.state.creditControls().shutoffCredits).toBe(12000);
      expect((await run(planStep)).code).toBe(EXIT.ok);
    }
  });
});

/** The runner's variables a script may use, as placeholders. */
const RUNNER_VARIABLES = Object.fromEntries(
  ['GITHUB_STEP_SUMMARY', 'GITHUB_OUTPUT', 'GITHUB_PATH', 'GITHUB_WORKSPACE', 'GITHUB_REPOSITORY', 'GITHUB_SHA', 'GITHUB_RUN_ID', 'GITHUB_SERVER_URL', 'GITHUB_EVENT_NAME', 'RUNNER_TEMP'].map((name) => [name, `<${name}>`]),
);

/** Where each steward command of a workflow comes from (run scripts and Action steps), as COMMANDS_RUN records it. */
function stewardKeys(workflow: Workflow): string[] {
  const context = { secrets: SECRETS, vars: {}, github: { token: '<token>' } };
  const scripts = runScripts(workflow).flatMap(({ job, step, script }) =>
    stewardCommands(script, { ...RUNNER_VARIABLES, ...stepEnv(workflow, job, step, context) }).map((_, index) => commandKey(workflow, job, step, index)),
  );
  const actions = actionSteps(workflow).filter(({ step }) => step.with?.command !== 'install').map(({ job, step }) => commandKey(workflow, job, step, 0));
  return [...scripts, ...actions];
}

// Last: the scenarios above ran every steward line of every workflow (the structure of the files
// is checked in ci-recipes-structure.test.ts).
describe('the workflow files', () => {
  it('ran every steward command of every workflow in the scenarios above', () => {
    const all = WORKFLOW_FILES.map(loadWorkflow).flatMap(stewardKeys);
    expect(all.length).toBeGreaterThanOrEqual(10);
    expect(all.filter((key) => !COMMANDS_RUN.has(key))).toEqual([]);
  });
});
