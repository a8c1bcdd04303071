// The CI recipes of examples/ci/, step by step: every `steward ...` line of their `run:` scripts
// is read from the workflow files, expanded as the runner would (secrets from `env:`, the step
// summary, the checkout) and run in-process against emulators standing in for production and
// the playground; exit codes and files are what the next step of the workflow relies on.
import { readFile, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EXIT } from '../../src/cli/plan.js';
import { CiRunner, COMMANDS_RUN, commandKey, SECRETS, readInCheckout, type CommandRun, type Workspace } from './ci/runner.js';
import { CI_EXAMPLES, jobOf, loadWorkflow, runScripts, stepEnv, stepOf, stewardCommands, stringsOf, WORKFLOW_FILES, type Concurrency, type Workflow } from './ci/workflows.js';
import { PRODUCTION_TOKEN } from './helpers.js';

const plan = loadWorkflow('plan.yml');
const apply = loadWorkflow('apply.yml');
const drift = loadWorkflow('drift.yml');
const promote = loadWorkflow('promote.yml');
const workflows = WORKFLOW_FILES.map(loadWorkflow);

let runner: CiRunner;
beforeEach(async () => {
  runner = await CiRunner.start();
});
afterEach(async () => {
  await runner.close();
});

/** The single steward command a step runs (a step with several is run command by command). */
function only(runs: CommandRun[]): CommandRun {
  expect(runs).toHaveLength(1);
  return runs[0]!;
}

/** plan.yml on a pull request: validate, then plan into plan.json and plan.md. */
async function planPullRequest(): Promise<Workspace> {
  const checkout = await runner.checkout();
  const validated = only(await runner.runStep(checkout, plan, 'plan', 'Validate'));
  expect(validated.code).toBe(0);
  expect(validated.out).toContain('The configuration at steward is valid');
  const planned = only(await runner.runStep(checkout, plan, 'plan', 'plan'));
  expect(planned.args.slice(0, 1)).toEqual(['plan']);
  // 3: changes that delete or replace something (the demo prunes a routine and a label).
  expect(planned.code).toBe(EXIT.destructive);
  expect(planned.out).toContain('Plan: 7 to add, 5 to change, 1 to replace, 5 to destroy.');
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
  return { run, report: existsSync(join(checkout.root, 'drift.md')) ? await readInCheckout(checkout, 'drift.md') : '' };
}

function expectNoSecrets(text: string): void {
  for (const secret of Object.values(SECRETS)) expect(text).not.toContain(secret);
}

describe('plan on a pull request, apply on merge, drift every night', () => {
  it('plans, hands the plan file to the apply run, applies exactly it, and then finds no drift', async () => {
    // GIVEN the plan job of the pull request
    const pullRequest = await planPullRequest();
    const planFile = await readInCheckout(pullRequest, 'plan.json');
    const markdown = await readInCheckout(pullRequest, 'plan.md');
    expectNoSecrets(planFile);
    expectNoSecrets(markdown);
    expect(JSON.parse(planFile)).toMatchObject({ environment: 'production', summary: { create: 7, update: 5, replace: 1, delete: 5 } });
    expect(markdown).toMatch(/^### steward plan for `production`/);
    expect(markdown).toContain('**Plan: 7 to add, 5 to change, 1 to replace, 5 to destroy.**');
    expect(runner.emulators.production.stats().writes).toBe(0);

    // WHEN the pull request is merged: the apply run downloads the artifact of the plan run
    const main = await runner.checkout();
    const downloaded = await runner.handOff(
      { workspace: pullRequest, workflow: plan, job: 'plan', step: 'Upload the plan file' },
      { workspace: main, workflow: apply, job: 'apply', step: 'Download the reviewed plan' },
    );
    expect(downloaded).toBe(join(main.root, 'reviewed', 'plan.json'));
    const [dryRun] = runner.commands(main, apply, 'apply', 'check');
    const checked = await runner.run(main, dryRun!);
    expect(checked.args.slice(0, 4)).toEqual(['apply', 'reviewed/plan.json', '--config', 'steward']);
    expect(checked.code).toBe(0);
    expect(checked.out).toContain('Dry run: 18 steps would be applied, 0 already applied. Nothing was written.');
    expect(runner.emulators.production.stats().writes).toBe(0);

    // THEN the reviewed plan is applied, step for step
    const applied = only(await runner.runStep(main, apply, 'apply', 'Apply the reviewed plan'));
    expect(applied.err).toBe('');
    expect(applied.code).toBe(0);
    expect(applied.out).toContain('Apply: 18 done, 0 already applied, 0 failed, 0 skipped.');

    // AND the nightly drift check finds production as git describes it
    const night = await nightlyDrift();
    expect(night.run.code).toBe(0);
    expect(night.report).toMatch(/^### steward drift check for `production`/);
    expect(night.report).toContain('**No drift.** The live state matches the configuration.');
  });

  it('reports drift (exit 2) once someone changes production outside git, and an error as 1', async () => {
    const main = await runner.checkout();
    const [planMain, applyPlan] = await runner.runStep(main, apply, 'apply', 'Plan main and apply that plan');
    expect([planMain!.code, applyPlan!.code]).toEqual([0, 0]);

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

describe('apply on merge refuses a reviewed plan that no longer fits', () => {
  it('refuses a plan of a configuration that main no longer has, and shows the plan of main instead', async () => {
    const pullRequest = await planPullRequest();
    // GIVEN another pull request changed the credit controls on main after this plan was made
    const main = await runner.checkout();
    const credit = join(main.root, 'steward', 'credit.yaml');
    await writeFile(credit, (await readFile(credit, 'utf8')).replace('shutoffCredits: 12000', 'shutoffCredits: 13000'));
    await runner.handOff(
      { workspace: pullRequest, workflow: plan, job: 'plan', step: 'Upload the plan file' },
      { workspace: main, workflow: apply, job: 'apply', step: 'Download the reviewed plan' },
    );

    // WHEN the check step dry-runs the reviewed plan, THEN steward refuses it and writes nothing
    const [dryRun, planOfMain] = runner.commands(main, apply, 'apply', 'check');
    const checked = await runner.run(main, dryRun!);
    expect(checked.code).toBe(1);
    expect(checked.err).toContain('the configuration has changed since this plan was made');
    // AND the refusal branch puts the plan of main in the job summary for whoever decides next
    expect(planOfMain!.args).toEqual(['plan', '--config', 'steward', '--env', 'production', '--markdown', main.summary]);
    const shown = await runner.run(main, planOfMain!);
    expect(shown.code).toBe(0);
    const summary = await readFile(main.summary, 'utf8');
    expect(summary).toContain('shutoffCredits: 10,000 → 13,000');
    expect(runner.emulators.production.stats().writes).toBe(0);

    // WHEN the repository opted in (STEWARD_REPLAN_IF_REFUSED=true), main is planned and applied
    const [replanned, appliedMain] = await runner.runStep(main, apply, 'apply', 'Plan main and apply that plan', { vars: { STEWARD_REPLAN_IF_REFUSED: 'true' } });
    expect(replanned!.args).toEqual(['plan', '--config', 'steward', '--env', 'production', '--out', 'plan.json', '--markdown', main.summary, '--base-url', runner.emulators.production.url]);
    expect([replanned!.code, appliedMain!.code]).toEqual([0, 0]);
    expect(appliedMain!.out).toContain('Apply: 18 done');
    expect(runner.emulators.production.state.creditControls().shutoffCredits).toBe(13000);
    expectNoSecrets(await readFile(main.summary, 'utf8'));
  });

  it('refuses a plan whose objects changed in production since it was made', async () => {
    const pullRequest = await planPullRequest();
    await changeProductionByHand(650);
    const main = await runner.checkout();
    await runner.handOff(
      { workspace: pullRequest, workflow: plan, job: 'plan', step: 'Upload the plan file' },
      { workspace: main, workflow: apply, job: 'apply', step: 'Download the reviewed plan' },
    );
    const writes = runner.emulators.production.stats().writes;
    const checked = await runner.run(main, runner.commands(main, apply, 'apply', 'check')[0]!);
    expect(checked.code).toBe(1);
    expect(checked.err).toContain('The plan is stale: 1 object changed since it was made. Nothing was applied.');
    expect(runner.emulators.production.stats().writes).toBe(writes);
  });

  it('without a reviewed plan, plans main into the job summary and applies that plan; the next plan is empty', async () => {
    const main = await runner.checkout();
    const [planned, applied] = await runner.runStep(main, apply, 'apply', 'Plan main and apply that plan');
    expect(planned!.code).toBe(0);
    expect(await readFile(main.summary, 'utf8')).toContain('**Plan: 7 to add, 5 to change, 1 to replace, 5 to destroy.**');
    expect(applied!.args.slice(0, 4)).toEqual(['apply', 'plan.json', '--config', 'steward']);
    expect(applied!.code).toBe(0);
    expectNoSecrets(await readInCheckout(main, 'plan.json'));

    // The next pull request's plan says: no changes (exit 0).
    const next = await runner.checkout();
    const again = only(await runner.runStep(next, plan, 'plan', 'plan'));
    expect(again.code).toBe(EXIT.ok);
    expect(await readInCheckout(next, 'plan.md')).toContain('**No changes.** The live state matches the configuration.');
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
    expect(diff.args.slice(0, 7)).toEqual(['diff', '--config', 'steward', '--env', 'production', '--against', 'playground']);
    expect(diff.code).toBe(EXIT.changes);
    const summary = await readFile(diffRun.summary, 'utf8');
    expect(summary).toMatch(/^### steward promotion from `playground` to `production`/);
    expect(summary).toContain('**Plan: 0 to add, 2 to change, 0 to replace, 0 to destroy.**');
    expect(summary).toContain('shutoffCredits: 10,000 → 15,000');
    expect(summary).toContain('user credit limit grace@acme.example: 500 → 900');
    expectNoSecrets(summary);
    expectNoSecrets(await readInCheckout(diffRun, 'promotion.json'));
    expect(runner.emulators.production.stats().writes).toBe(0);

    // THEN once a reviewer approves the production deployment, the promote job applies that plan
    const promoteRun = await runner.checkout();
    await runner.handOff(
      { workspace: diffRun, workflow: promote, job: 'diff', step: 'Upload the promotion plan' },
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
      { workspace: diffRun, workflow: promote, job: 'diff', step: 'Upload the promotion plan' },
      { workspace: promoteRun, workflow: promote, job: 'promote', step: 'Download the promotion plan' },
    );
    const refused = only(await runner.runStep(promoteRun, promote, 'promote', 'Apply the promotion plan'));
    expect(refused.code).toBe(1);
    expect(refused.err).toContain('playground has changed since this promotion plan was made; nothing was applied');
    expect(runner.emulators.production.stats().writes).toBe(0);
  });
});

function concurrencyOf(value: Concurrency | undefined): { group: string; cancel: boolean } | undefined {
  if (value === undefined) return undefined;
  return typeof value === 'string' ? { group: value, cancel: false } : { group: value.group, cancel: value['cancel-in-progress'] === true };
}

/** The runner's variables a script may use, as placeholders. */
const RUNNER_VARIABLES = Object.fromEntries(
  ['GITHUB_STEP_SUMMARY', 'GITHUB_OUTPUT', 'GITHUB_PATH', 'GITHUB_WORKSPACE', 'GITHUB_REPOSITORY', 'GITHUB_SHA', 'GITHUB_RUN_ID', 'GITHUB_SERVER_URL', 'RUNNER_TEMP'].map((name) => [name, `<${name}>`]),
);

/** The steward commands of every run script of a workflow, with the step they belong to. */
function stewardLines(workflow: Workflow) {
  const context = { secrets: SECRETS, vars: { STEWARD_PACKAGE: '<package>' }, github: { token: '<token>' } };
  return runScripts(workflow).flatMap(({ job, step, script }) =>
    stewardCommands(script, { ...RUNNER_VARIABLES, ...stepEnv(workflow, job, step, context) }).map((command, index) => ({
      job,
      step,
      command,
      key: commandKey(workflow, job, step, index),
    })),
  );
}

describe('the workflow files', () => {
  it.each(workflows.map((workflow) => [workflow.file, workflow] as const))('%s never puts a GitHub expression, let alone a secret, in a script', (_, workflow) => {
    for (const { script } of runScripts(workflow)) expect(script).not.toContain('${{');
    // Secrets reach steps only as environment variables, one variable per secret.
    for (const { path, text } of stringsOf(workflow)) {
      if (!text.includes('secrets.')) continue;
      expect(path.at(-2), path.join('.')).toBe('env');
      expect(text).toMatch(/^\$\{\{ secrets\.[A-Z_]+ \}\}$/);
    }
  });

  it.each(workflows.map((workflow) => [workflow.file, workflow] as const))('%s asks for the least permissions, pins its actions and bounds its jobs', (_, workflow) => {
    expect(typeof workflow.permissions).toBe('object');
    const granted = Object.entries(workflow.permissions as Record<string, string>);
    for (const [scope, level] of granted) expect(['read', 'write'], scope).toContain(level);
    expect(granted.filter(([, level]) => level === 'write').map(([scope]) => scope)).toEqual(
      { 'plan.yml': ['pull-requests'], 'apply.yml': [], 'drift.yml': ['issues'], 'promote.yml': [] }[workflow.file]!,
    );
    expect(workflow.defaults?.run?.shell).toBe('bash');
    for (const [id, job] of Object.entries(workflow.jobs)) {
      expect(job['timeout-minutes'], id).toBeGreaterThan(0);
      for (const step of job.steps) if (step.uses !== undefined) expect(step.uses).toMatch(/^actions\/[a-z-]+@v\d+$/);
    }
  });

  it('gives every steward command that talks to an instance the tokens it needs, and the config in steward/', () => {
    const tokenOf = { production: 'STEWARD_PRODUCTION_TOKEN', playground: 'STEWARD_PLAYGROUND_TOKEN' } as const;
    for (const workflow of workflows) {
      for (const { job, step, command } of stewardLines(workflow)) {
        const [subcommand] = command.args;
        if (subcommand === 'validate') {
          expect(command.args).toEqual(['validate', 'steward']);
          continue;
        }
        const where = `${workflow.file} ${step.name ?? step.id}: ${command.source}`;
        expect(command.args, where).toContain('--config');
        expect(command.args[command.args.indexOf('--config') + 1], where).toBe('steward');
        const needs = subcommand === 'diff' || (subcommand === 'apply' && workflow.file === 'promote.yml') ? ['production', 'playground'] : ['production'];
        for (const environment of needs as (keyof typeof tokenOf)[]) {
          const variable = tokenOf[environment];
          expect(stepOf(workflow, job, step.id ?? step.name!).env?.[variable], where).toBe(`\${{ secrets.${variable} }}`);
        }
      }
    }
  });

  it('never runs two applies to production at once: apply.yml and the promote job share one queue', () => {
    const applyQueue = concurrencyOf(apply.concurrency);
    const promoteQueue = concurrencyOf(jobOf(promote, 'promote').concurrency);
    expect(applyQueue).toEqual({ group: 'steward-apply-production', cancel: false });
    expect(promoteQueue).toEqual(applyQueue);
    expect(promote.concurrency).toBeUndefined();
    // Plans and drift checks only read: a newer one may replace an older one.
    expect(concurrencyOf(plan.concurrency)?.cancel).toBe(true);
    expect(concurrencyOf(drift.concurrency)?.cancel).toBe(true);
  });

  it('waits for approval before promoting, and applies each plan only in its branch', () => {
    expect(jobOf(promote, 'promote').environment).toBe('production');
    expect(jobOf(promote, 'promote').needs).toBe('diff');
    expect(jobOf(promote, 'promote').if).toBe("needs.diff.outputs.exitcode == '2' || needs.diff.outputs.exitcode == '3'");
    expect(stepOf(apply, 'apply', 'Apply the reviewed plan').if).toBe("steps.check.outputs.mode == 'reviewed'");
    expect(stepOf(apply, 'apply', 'Plan main and apply that plan').if).toBe("steps.check.outputs.mode == 'fresh'");
    expect(stepOf(apply, 'apply', 'Download the reviewed plan')['continue-on-error']).toBe(true);
    expect(stepOf(drift, 'drift', 'Open or update the drift issue').if).toBe("steps.drift.outputs.exitcode == '2'");
    expect(Object.keys(drift.on).sort()).toEqual(['schedule', 'workflow_dispatch']);
    expect(Object.keys(plan.on)).toEqual(['pull_request']);
    expect(Object.keys(apply.on).sort()).toEqual(['push', 'workflow_dispatch']);
  });

  it('documents every workflow, secret and variable in the recipes README', async () => {
    const readme = await readFile(join(CI_EXAMPLES, 'README.md'), 'utf8');
    for (const file of WORKFLOW_FILES) expect(readme).toContain(`\`${file}\``);
    for (const name of [...Object.keys(SECRETS), 'STEWARD_PACKAGE', 'STEWARD_REPLAN_IF_REFUSED']) expect(readme).toContain(name);
  });

  // Last: the scenarios above ran every steward line of every workflow.
  it('ran every steward command of every workflow in the scenarios above', () => {
    const all = workflows.flatMap((workflow) => stewardLines(workflow).map(({ key }) => key));
    expect(all.length).toBeGreaterThanOrEqual(9);
    expect(all.filter((key) => !COMMANDS_RUN.has(key))).toEqual([]);
  });
});
