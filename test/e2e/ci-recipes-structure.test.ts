// The promises the CI recipes of examples/ci/ make by their structure, read from the parsed YAML:
// where each token lives and which jobs can reach it, which triggers run what, approvals that
// hold nothing while they wait, least permissions, and a README that says the same.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SECRETS } from './ci/runner.js';
import {
  actionCommand,
  actionInputs,
  actionSteps,
  CI_EXAMPLES,
  jobOf,
  loadWorkflow,
  runScripts,
  STEWARD_ACTION,
  stepEnv,
  stepOf,
  stewardCommands,
  stringsOf,
  WORKFLOW_FILES,
  type Concurrency,
  type Job,
  type Step,
  type Workflow,
} from './ci/workflows.js';

const plan = loadWorkflow('plan.yml');
const apply = loadWorkflow('apply.yml');
const drift = loadWorkflow('drift.yml');
const promote = loadWorkflow('promote.yml');
const workflows = WORKFLOW_FILES.map(loadWorkflow);
const eachWorkflow = workflows.map((workflow) => [workflow.file, workflow] as const);

/** Which environment each job that holds a token runs in: the whole list, nothing else has one. */
const TOKEN_JOBS: Record<string, Record<string, string>> = {
  'plan.yml': { plan: 'production-plan' },
  'apply.yml': { apply: 'production' },
  'drift.yml': { drift: 'production' },
  'promote.yml': { diff: 'production', promote: 'production' },
};

function environmentOf(job: Job): string | undefined {
  return typeof job.environment === 'string' ? job.environment : job.environment?.name;
}

function concurrencyOf(value: Concurrency | undefined): { group: string; cancel: boolean } | undefined {
  if (value === undefined) return undefined;
  return typeof value === 'string' ? { group: value, cancel: false } : { group: value.group, cancel: value['cancel-in-progress'] === true };
}

/** The secrets a job refers to, anywhere in it. */
function secretsOf(job: Job): string[] {
  return [...new Set(stringsOf(job).flatMap(({ text }) => [...text.matchAll(/secrets\.([A-Za-z_][A-Za-z0-9_]*)/g)].map((match) => match[1]!)))];
}

/** The runner's variables a script may use, as placeholders. */
const RUNNER_VARIABLES = Object.fromEntries(
  ['GITHUB_STEP_SUMMARY', 'GITHUB_OUTPUT', 'GITHUB_PATH', 'GITHUB_WORKSPACE', 'GITHUB_REPOSITORY', 'GITHUB_SHA', 'GITHUB_RUN_ID', 'GITHUB_SERVER_URL', 'GITHUB_EVENT_NAME', 'RUNNER_TEMP'].map((name) => [name, `<${name}>`]),
);

/** Outputs of earlier steps that the steps of the recipes read, as placeholders. */
const STEP_OUTPUTS = { replan: { outputs: { 'plan-file': '<RUNNER_TEMP>/steward/plan.json' } } };

/**
 * The steward commands of a workflow, with the step they belong to and the variables they get:
 * those of run scripts, and the one each step of the steward Action composes from its inputs
 * (with its token input exported under the variable the script names).
 */
function stewardLines(workflow: Workflow): { job: string; step: Step; command: { source: string; args: string[] }; variables: string[] }[] {
  const context = { secrets: SECRETS, vars: {}, github: { token: '<token>' }, steps: STEP_OUTPUTS };
  const scripts = runScripts(workflow).flatMap(({ job, step, script }) => {
    const env = stepEnv(workflow, job, step, context);
    return stewardCommands(script, { ...RUNNER_VARIABLES, ...env }).map((command) => ({ job, step, command, variables: Object.keys(step.env ?? {}) }));
  });
  const actions = actionSteps(workflow).flatMap(({ job, step }) => {
    const command = actionCommand(step, actionInputs(step, context), '<RUNNER_TEMP>');
    if (command === undefined) return [];
    return [{ job, step, command, variables: [...Object.keys(step.env ?? {}), ...(command.tokenVariable === '' ? [] : [command.tokenVariable])] }];
  });
  return [...scripts, ...actions];
}

/** The secret a variable of a steward command gets: from `env:`, or the Action's `token` input. */
function secretFor(step: Step, variable: string): string | undefined {
  return step.env?.[variable] ?? (variable.startsWith('STEWARD_') ? String(step.with?.token ?? '') : undefined);
}

describe('where the tokens live', () => {
  it('keeps every token in a GitHub environment: production for the jobs of main, production-plan for pull requests', () => {
    for (const workflow of workflows) {
      const holders: Record<string, string | undefined> = {};
      for (const [id, job] of Object.entries(workflow.jobs)) {
        if (secretsOf(job).length > 0) holders[id] = environmentOf(job);
      }
      expect(holders, workflow.file).toEqual(TOKEN_JOBS[workflow.file]);
      // Nothing outside the jobs (workflow-level env) may name a secret: every job would get it.
      expect(stringsOf({ ...workflow, jobs: {} }).filter(({ text }) => /\bsecrets\.[A-Za-z_]/.test(text)), workflow.file).toEqual([]);
    }
  });

  it.each(eachWorkflow)('%s runs a job in production only from main (push to main, schedule, by hand)', (_, workflow) => {
    const inProduction = Object.values(workflow.jobs).some((job) => environmentOf(job) === 'production' || environmentOf(job) === 'production-promotion');
    const triggers = Object.keys(workflow.on);
    // pull_request_target and workflow_run run with main's ref, so they would pass the branch rule.
    expect(triggers).not.toContain('pull_request_target');
    expect(triggers).not.toContain('workflow_run');
    if (!inProduction) return;
    expect(triggers).not.toContain('pull_request');
    for (const trigger of triggers) expect(['push', 'schedule', 'workflow_dispatch']).toContain(trigger);
    if (triggers.includes('push')) expect((workflow.on.push as { branches: string[] }).branches).toEqual(['main']);
  });

  it('plans pull requests in production-plan only, and only from branches of this repository', () => {
    expect(Object.keys(plan.on)).toEqual(['pull_request']);
    const job = jobOf(plan, 'plan');
    expect(environmentOf(job)).toBe('production-plan');
    expect(job.if).toContain('github.event.pull_request.head.repo.full_name == github.repository');
  });

  it('gives every steward command that talks to an instance the tokens it needs, and the config in steward/', () => {
    const tokenOf = { production: 'STEWARD_PRODUCTION_TOKEN', playground: 'STEWARD_PLAYGROUND_TOKEN' } as const;
    for (const workflow of workflows) {
      for (const { step, command, variables } of stewardLines(workflow)) {
        const [subcommand] = command.args;
        if (subcommand === 'validate') {
          expect(command.args).toEqual(['validate', '--config', 'steward']);
          continue;
        }
        const where = `${workflow.file} ${step.name ?? step.id}: ${command.source}`;
        expect(command.args, where).toContain('--config');
        expect(command.args[command.args.indexOf('--config') + 1], where).toBe('steward');
        const needs = subcommand === 'diff' || (subcommand === 'apply' && workflow.file === 'promote.yml') ? ['production', 'playground'] : ['production'];
        for (const environment of needs as (keyof typeof tokenOf)[]) {
          const variable = tokenOf[environment];
          expect(variables, where).toContain(variable);
          expect(secretFor(step, variable), where).toBe(`\${{ secrets.${variable} }}`);
        }
      }
    }
  });

  it.each(eachWorkflow)('%s never puts a GitHub expression, let alone a secret, in a script', (_, workflow) => {
    for (const { script } of runScripts(workflow)) expect(script).not.toContain('${{');
    // Secrets reach steps only as environment variables, one variable per secret, or as the
    // steward Action's token input (which it exports as one variable, masked).
    for (const { path, text } of stringsOf(workflow)) {
      if (!/\bsecrets\.[A-Za-z_]/.test(text)) continue;
      expect([path.at(-2) === 'env', path.at(-2) === 'with' && path.at(-1) === 'token'], path.join('.')).toContain(true);
      expect(text).toMatch(/^\$\{\{ secrets\.[A-Z_]+ \}\}$/);
    }
  });
});

describe('the workflow files', () => {
  it.each(eachWorkflow)('%s asks for the least permissions, pins its actions and bounds its jobs', (_, workflow) => {
    expect(typeof workflow.permissions).toBe('object');
    const granted = Object.entries(workflow.permissions as Record<string, string>);
    for (const [scope, level] of granted) expect(['read', 'write'], scope).toContain(level);
    expect(granted.filter(([, level]) => level === 'write').map(([scope]) => scope)).toEqual(
      { 'plan.yml': ['pull-requests'], 'apply.yml': [], 'drift.yml': ['issues'], 'promote.yml': [] }[workflow.file]!,
    );
    expect(workflow.defaults?.run?.shell).toBe('bash');
    for (const [id, job] of Object.entries(workflow.jobs)) {
      expect(job['timeout-minutes'], id).toBeGreaterThan(0);
      for (const step of job.steps) if (step.uses !== undefined && !STEWARD_ACTION.test(step.uses)) expect(step.uses).toMatch(/^actions\/[a-z-]+@v\d+$/);
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

  it('puts every job that applies into the apply queue of its environment, never cancelled', () => {
    // Two applies of one config at once would both create each new routine (steward then removes
    // the copies, see the README's Racing section); a queue per environment avoids the race.
    const appliers: string[] = [];
    for (const workflow of workflows) {
      for (const { job } of stewardLines(workflow).filter(({ command }) => command.args[0] === 'apply' && !command.args.includes('--dry-run'))) {
        const definition = jobOf(workflow, job);
        const queue = concurrencyOf(definition.concurrency ?? workflow.concurrency);
        expect(queue, `${workflow.file} ${job}`).toEqual({ group: `steward-apply-${environmentOf(definition)}`, cancel: false });
        appliers.push(`${workflow.file} ${job}`);
      }
    }
    expect([...new Set(appliers)]).toEqual(['apply.yml apply', 'promote.yml promote']);
  });

  it('waits for a promotion\'s approval holding no token and no place in the apply queue', () => {
    const approve = jobOf(promote, 'approve');
    expect(environmentOf(approve)).toBe('production-promotion');
    expect(approve.needs).toBe('diff');
    expect(approve.if).toBe("needs.diff.outputs.changes == 'true'");
    expect(jobOf(promote, 'diff').outputs).toEqual({ changes: '${{ steps.diff.outputs.has-changes }}' });
    expect(approve.concurrency).toBeUndefined();
    expect(secretsOf(approve)).toEqual([]);
    expect(approve.steps.every((step) => step.uses === undefined && !step.run?.includes('steward'))).toBe(true);
    // The apply runs only after the approval, and only then joins the queue.
    expect(jobOf(promote, 'promote').needs).toEqual(['diff', 'approve']);
    expect(jobOf(promote, 'diff').concurrency).toBeUndefined();
  });

  it('applies each plan only in its branch of apply.yml', () => {
    expect(stepOf(apply, 'apply', 'Apply the reviewed plan').if).toBe("steps.check.outputs.mode == 'reviewed'");
    expect(stepOf(apply, 'apply', 'replan').if).toBe("steps.check.outputs.mode == 'fresh'");
    expect(stepOf(apply, 'apply', 'Apply that plan').if).toBe("steps.check.outputs.mode == 'fresh'");
    expect(stepOf(apply, 'apply', 'Apply that plan').with?.['plan-file']).toBe('${{ steps.replan.outputs.plan-file }}');
    expect(stepOf(apply, 'apply', 'Download the reviewed plan')['continue-on-error']).toBe(true);
    expect(stepOf(apply, 'apply', 'check').env).toMatchObject({
      PULL_REQUEST: '${{ steps.reviewed.outputs.pr }}',
      REPLAN_IF_REFUSED: '${{ vars.STEWARD_REPLAN_IF_REFUSED }}',
      APPLY_UNREVIEWED: '${{ vars.STEWARD_APPLY_UNREVIEWED }}',
    });
    expect(stepOf(drift, 'drift', 'Open or update the drift issue').if).toBe("steps.drift.outputs.has-changes == 'true'");
    expect(stepOf(drift, 'drift', 'Close the drift issue').if).toBe("steps.drift.outputs.exit-code == '0'");
    expect(Object.keys(drift.on).sort()).toEqual(['schedule', 'workflow_dispatch']);
    expect(Object.keys(apply.on).sort()).toEqual(['push', 'workflow_dispatch']);
  });

  it('plan.yml reports on every pull request, so `Plan result` can be a required check', () => {
    // A workflow skipped by a path filter never reports: a required check would wait forever.
    expect(plan.on.pull_request ?? {}).not.toHaveProperty('paths');
    expect(plan.on.pull_request ?? {}).not.toHaveProperty('paths-ignore');
    const changes = jobOf(plan, 'changes');
    expect(environmentOf(changes)).toBeUndefined();
    expect(secretsOf(changes)).toEqual([]);
    expect(jobOf(plan, 'plan').needs).toBe('changes');
    expect(jobOf(plan, 'plan').if).toContain("needs.changes.outputs.steward == 'true'");
    const result = jobOf(plan, 'result');
    expect(result.name).toBe('Plan result');
    expect(result.needs).toEqual(['changes', 'plan']);
    // Runs whatever became of the others (skipped, failed), but not for a superseded run.
    expect(result.if).toBe('${{ !cancelled() }}');
    expect(environmentOf(result)).toBeUndefined();
    expect(secretsOf(result)).toEqual([]);
  });

  it('writes --markdown files outside the checkout, where nothing stands in front (the option appends)', () => {
    for (const workflow of workflows) {
      for (const { command } of stewardLines(workflow)) {
        const index = command.args.indexOf('--markdown');
        if (index === -1) continue;
        expect(command.args[index + 1], `${workflow.file}: ${command.source}`).toMatch(/^<(RUNNER_TEMP|GITHUB_STEP_SUMMARY)>/);
      }
    }
  });
});

describe('the recipes README', () => {
  const readme = readFile(join(CI_EXAMPLES, 'README.md'), 'utf8');

  it('documents every workflow, secret and variable', async () => {
    const text = await readme;
    for (const file of WORKFLOW_FILES) expect(text).toContain(`\`${file}\``);
    for (const name of [...Object.keys(SECRETS), 'STEWARD_REPLAN_IF_REFUSED', 'STEWARD_APPLY_UNREVIEWED']) expect(text).toContain(name);
  });

  it('sets up each environment the workflows use, with its branch rule and its jobs', async () => {
    const text = await readme;
    const used = new Map<string, Set<string>>();
    for (const workflow of workflows) {
      for (const job of Object.values(workflow.jobs)) {
        const environment = environmentOf(job);
        if (environment !== undefined) used.set(environment, (used.get(environment) ?? new Set()).add(workflow.file));
      }
    }
    expect([...used.keys()].sort()).toEqual(['production', 'production-plan', 'production-promotion']);
    const rules = { production: '`main` only', 'production-promotion': '`main` only', 'production-plan': '`refs/pull/*/merge` only' };
    for (const [environment, files] of used) {
      const row = text.split('\n').find((line) => line.trimStart().startsWith(`| **\`${environment}\`** |`));
      expect(row, environment).toBeDefined();
      expect(row).toContain(rules[environment as keyof typeof rules]);
      for (const file of files) expect(row, `${environment}: ${file}`).toContain(`\`${file}\``);
    }
    expect(text).toContain('never repository secrets');
  });

  it('says what stays true of the plan key, and why the plan artifact is safe to apply', async () => {
    const text = (await readme).replace(/\s+/g, ' ');
    expect(text).toContain('anyone who can push a branch of this repository can reach the plan key');
    expect(text).toContain('no read-only API keys');
    expect(text).toContain('**Recommendation: treat push access to this repository as access to production.**');
    expect(text).toContain('plan-file.unfounded');
    expect(text).toContain('`--markdown FILE` **appends**');
    expect(text).toContain('**`Plan result`**');
  });
});

describe('fleet.yml: many deployments as a matrix', () => {
  const fleet = loadWorkflow('fleet.yml');
  const job = jobOf(fleet, 'deployment');
  const matrix = (job as Job & { strategy: { 'fail-fast': boolean; matrix: { include: { deployment: string; 'requests-per-minute'?: number }[] } } }).strategy;

  it('runs one job per deployment, each in its own GitHub environment and apply queue, none stopping the others', () => {
    expect(Object.keys(fleet.on)).toEqual(['workflow_dispatch']);
    expect(fleet.permissions).toEqual({ contents: 'read' });
    expect(matrix['fail-fast']).toBe(false);
    expect(matrix.matrix.include.map((entry) => entry.deployment)).toEqual(['eu-west', 'us-east', 'apac']);
    expect(environmentOf(job)).toBe('${{ matrix.deployment }}');
    expect(concurrencyOf(job.concurrency)).toEqual({ group: 'steward-apply-${{ matrix.deployment }}', cancel: false });
    expect(secretsOf(job)).toEqual(['STEWARD_TOKEN']);
    for (const step of job.steps) if (step.uses !== undefined && !STEWARD_ACTION.test(step.uses)) expect(step.uses).toMatch(/^actions\/[a-z-]+@v\d+$/);
  });

  it("gives each job its deployment's key, under the variable its environment names, and its own request budget", () => {
    const planStep = stepOf(fleet, 'deployment', 'plan');
    const applyStep = stepOf(fleet, 'deployment', 'Apply that plan');
    for (const step of [planStep, applyStep]) {
      expect(step.with?.token).toBe('${{ secrets.STEWARD_TOKEN }}');
      expect(step.with?.environment).toBe('${{ matrix.deployment }}');
      expect(step.with?.args).toBe("${{ matrix.requests-per-minute && format('--requests-per-minute {0}', matrix.requests-per-minute) || '' }}");
    }
    // What the Action's script makes of those inputs for each entry of the matrix.
    const commands = matrix.matrix.include.map((entry) => {
      const args = entry['requests-per-minute'] === undefined ? '' : `--requests-per-minute ${entry['requests-per-minute']}`;
      const inputs = { INPUT_COMMAND: 'plan', INPUT_CONFIG: 'steward', INPUT_ENVIRONMENT: entry.deployment, INPUT_ARGS: args, INPUT_TOKEN: '<key>' };
      const command = actionCommand(planStep, inputs, '<RUNNER_TEMP>')!;
      return [command.tokenVariable, command.args.slice(3, 5).join(' '), command.args.slice(10).join(' ')];
    });
    expect(commands).toEqual([
      ['STEWARD_EU_WEST_TOKEN', '--env eu-west', ''],
      ['STEWARD_US_EAST_TOKEN', '--env us-east', '--requests-per-minute 120'],
      ['STEWARD_APAC_TOKEN', '--env apac', ''],
    ]);
  });

  it('applies only what it planned, only when asked and only when there is something to apply', () => {
    const applyStep = stepOf(fleet, 'deployment', 'Apply that plan');
    expect(applyStep.if).toBe("inputs.command == 'apply' && steps.plan.outputs.has-changes == 'true'");
    expect(applyStep.with?.command).toBe('apply');
    expect(applyStep.with?.['plan-file']).toBe('${{ steps.plan.outputs.plan-file }}');
  });
});
