// The steward GitHub Action's shell (action/steward-action.sh) with stubs for steward, gh and npm
// and the runner's files: plan on a pull request (the comment is created, then edited, never
// duplicated), apply of a downloaded plan, drift, exit codes as outputs, and the install.
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { ActionJob } from './ci/actionScript.js';

/** GitHub's limit on the body of a comment, in characters. */
const GITHUB_BODY_LIMIT = 65_536;

let job: ActionJob;
beforeEach(async () => {
  job = await ActionJob.start();
});
afterEach(async () => {
  await job.close();
});

const plan = { INPUT_COMMAND: 'plan', INPUT_CONFIG: 'steward', INPUT_ENVIRONMENT: 'production' };

describe('plan on a pull request', () => {
  it('comments the plan once, then edits that comment on every run, never adding another', async () => {
    await job.setComments([{ id: 1, user: { type: 'User' }, body: 'looks good; the bot writes <!-- steward-plan:production --> comments' }]);
    const first = await job.step(['run'], { env: plan, stewardExit: 2, pullRequest: 12 });
    expect(first.code).toBe(0);
    expect(first.calls.steward).toEqual([
      ['plan', '--config', 'steward', '--env', 'production', '--detailed-exitcode', '--out', `${job.temp}/steward/plan.json`, '--markdown', `${job.temp}/steward/summary.md`],
    ]);
    expect(first.outputs).toEqual({
      'exit-code': '2',
      'has-changes': 'true',
      'has-destroys': 'false',
      'plan-file': `${job.temp}/steward/plan.json`,
      'summary-file': `${job.temp}/steward/summary.md`,
    });
    expect(first.summary).toBe('### steward plan for `production`\n\n**Plan: 1 to add.**\n');
    expect(first.stdout).toContain('Commented the plan on pull request #12.');
    const [human, bot] = await job.comments();
    expect(human!.body).toContain('looks good');
    expect(bot!.body).toBe(
      '<!-- steward-plan:production -->\n### steward plan for `production`\n\n**Plan: 1 to add.**\n\n' +
        '[Run and plan file](https://github.com/acme/analytics-config/actions/runs/4242) · made by steward plan.\n',
    );

    const second = await job.step(['run'], {
      env: plan,
      stewardExit: 3,
      pullRequest: 12,
      markdown: '### steward plan for `production`\n\n**Plan: 0 to add, 0 to change, 0 to replace, 1 to destroy.**\n',
      planFile: '{"summary":{"create":0,"update":0,"replace":0,"delete":1}}\n',
    });
    expect(second.code).toBe(0);
    expect(second.outputs).toMatchObject({ 'exit-code': '3', 'has-changes': 'true', 'has-destroys': 'true' });
    expect(second.stdout).toContain('Updated the plan comment on pull request #12.');
    const comments = await job.comments();
    expect(comments.map((comment) => comment.id)).toEqual([1, bot!.id]);
    expect(comments[1]!.body).toContain('1 to destroy');
    expect(second.calls.gh.map((call) => call.slice(0, 3))).toEqual([
      ['api', '--paginate', 'repos/acme/analytics-config/issues/12/comments'],
      ['api', '--method', 'PATCH'],
    ]);
  });

  it('keeps one comment per environment', async () => {
    await job.step(['run'], { env: plan, stewardExit: 2, pullRequest: 12 });
    await job.step(['run'], { env: { ...plan, INPUT_ENVIRONMENT: 'playground' }, stewardExit: 2, pullRequest: 12 });
    await job.step(['run'], { env: plan, stewardExit: 0, pullRequest: 12 });
    const bodies = (await job.comments()).map((comment) => comment.body.split('\n')[0]);
    expect(bodies).toEqual(['<!-- steward-plan:production -->', '<!-- steward-plan:playground -->']);
  });

  it('says the plan failed in the comment instead of leaving an old plan standing, and fails the step', async () => {
    await job.step(['run'], { env: plan, stewardExit: 2, pullRequest: 12 });
    const failed = await job.step(['run'], { env: plan, stewardExit: 1, pullRequest: 12, markdown: '' });
    expect(failed.code).toBe(1);
    expect(failed.stdout).toContain('::error title=steward plan failed::steward plan exited with 1');
    expect(failed.outputs).toMatchObject({ 'exit-code': '1', 'has-changes': 'false' });
    const [comment] = await job.comments();
    expect(comment!.body).toContain('❌ steward plan failed (exit code 1)');
  });

  it('fails the check on a policy violation, naming the rules, with the plan and its violations in the summary and the comment', async () => {
    const markdown = '### steward plan for `production`\n\n#### ⛔ Policy violations (2)\n\n- **`maxDestroy`**: the plan deletes or replaces 3 objects; maxDestroy allows at most 1\n';
    const planFile = JSON.stringify({ summary: { create: 0, update: 0, replace: 0, delete: 3 }, policyViolations: [{ rule: 'maxDestroy' }, { rule: 'creditLimits' }, { rule: 'maxDestroy' }] });
    const result = await job.step(['run'], { env: plan, stewardExit: 4, pullRequest: 12, markdown, planFile });
    expect(result.code).toBe(1);
    expect(result.outputs).toMatchObject({ 'exit-code': '4', 'has-changes': 'false' });
    expect(result.stdout).toContain(
      '::error title=steward plan: policy violated::The plan breaks policy rule creditLimits, maxDestroy; apply refuses it unless each rule is named with --override-policy. The job summary lists every violation.',
    );
    expect(result.summary).toBe(markdown);
    const [comment] = await job.comments();
    expect(comment!.body).toContain('#### ⛔ Policy violations (2)');
    expect(comment!.body).not.toContain('❌');
  });

  it('an apply refused for a policy says so, naming the rules of its plan file', async () => {
    const result = await job.step(['run'], {
      env: { INPUT_COMMAND: 'apply', INPUT_ENVIRONMENT: 'production', INPUT_PLAN_FILE: 'plan.json' },
      files: { 'plan.json': JSON.stringify({ policyViolations: [{ rule: 'routines.recipientDomains' }] }) },
      stewardExit: 4,
    });
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('::error title=steward apply: policy violated::The plan breaks policy rule routines.recipientDomains;');
  });

  it('cuts a plan too long for a comment at a line, says so, and keeps the link', async () => {
    const line = '- `~` user credit limit someone@acme.example: 500 → 650 — ünïcödé\n';
    const long = `### steward plan for \`production\`\n\n${line.repeat(Math.ceil(70_000 / line.length))}`;
    const result = await job.step(['run'], { env: plan, stewardExit: 2, pullRequest: 12, markdown: long });
    expect(result.code).toBe(0);
    expect(result.summary).toBe(long);
    const [comment] = await job.comments();
    expect([...comment!.body].length).toBeLessThanOrEqual(GITHUB_BODY_LIMIT);
    expect(Buffer.byteLength(comment!.body)).toBeLessThanOrEqual(GITHUB_BODY_LIMIT);
    expect(Buffer.byteLength(comment!.body)).toBeGreaterThan(GITHUB_BODY_LIMIT - 1000);
    expect(comment!.body).toContain('… The plan is cut here to fit in a comment: the whole plan is in [the job summary](https://github.com/acme/analytics-config/actions/runs/4242).');
    const kept = comment!.body.slice('<!-- steward-plan:production -->\n'.length, comment!.body.indexOf('\n… The plan is cut here'));
    expect(long.startsWith(kept)).toBe(true);
    expect(kept.endsWith('ünïcödé\n')).toBe(true);
    expect(comment!.body.endsWith('made by steward plan.\n')).toBe(true);
  });

  it('warns, and still passes, when the comment cannot be written: the plan is in the summary', async () => {
    const result = await job.step(['run'], { env: { ...plan, STUB_GH_FAIL: '1' }, stewardExit: 2, pullRequest: 12 });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('::warning title=No plan comment::Could not read the comments of pull request #12');
    expect(result.summary).toContain('**Plan: 1 to add.**');
  });

  it('comments nothing outside a pull request, or with comment: false', async () => {
    const push = await job.step(['run'], { env: plan, stewardExit: 2 });
    expect(push.code).toBe(0);
    expect(push.calls.gh).toEqual([]);
    const off = await job.step(['run'], { env: { ...plan, INPUT_COMMENT: 'false' }, stewardExit: 2, pullRequest: 12 });
    expect(off.calls.gh).toEqual([]);
  });
});

describe('apply of a downloaded plan', () => {
  it('applies exactly that file and puts the report in the summary', async () => {
    const report = 'Applied 3 changes to production.\nA name with ``` in it\n';
    const result = await job.step(['run'], {
      env: { INPUT_COMMAND: 'apply', INPUT_CONFIG: 'steward', INPUT_PLAN_FILE: 'reviewed/plan.json' },
      files: { 'reviewed/plan.json': '{}' },
      stewardStdout: report,
    });
    expect(result.code).toBe(0);
    expect(result.calls.steward).toEqual([['apply', 'reviewed/plan.json', '--config', 'steward']]);
    expect(result.outputs).toEqual({ 'exit-code': '0', 'has-changes': 'false', 'has-destroys': 'false', 'plan-file': '', 'summary-file': '' });
    // The fence is longer than any run of backticks in the report, so nothing in it closes the block.
    expect(result.summary).toBe(`### steward apply\n\n\`\`\`\`text\n${report}\`\`\`\`\n`);
    expect(result.stdout).toContain(report);
  });

  it('fails when the apply fails, with the exit code in the summary', async () => {
    const result = await job.step(['run'], { env: { INPUT_COMMAND: 'apply', INPUT_ENVIRONMENT: 'production', INPUT_PLAN_FILE: 'plan.json' }, stewardExit: 1, stewardStdout: 'Error: the plan is stale\n' });
    expect(result.code).toBe(1);
    expect(result.summary).toContain('steward apply exited with 1.');
    expect(result.stdout).toContain('::error title=steward apply failed::');
  });

  it('without a plan file, plans and applies at once with --auto-approve', async () => {
    const result = await job.step(['run'], { env: { INPUT_COMMAND: 'apply', INPUT_ENVIRONMENT: 'production' } });
    expect(result.calls.steward).toEqual([['apply', '--env', 'production', '--auto-approve']]);
  });
});

describe('drift', () => {
  const drift = { INPUT_COMMAND: 'drift', INPUT_CONFIG: 'steward', INPUT_ENVIRONMENT: 'production' };

  it.each([
    [0, '{"summary":{"create":0,"update":0,"replace":0,"delete":0}}', { 'has-changes': 'false', 'has-destroys': 'false' }],
    [2, '{"summary":{"create":0,"update":1,"replace":0,"delete":0}}', { 'has-changes': 'true', 'has-destroys': 'false' }],
    [2, '{"summary":{"create":0,"update":0,"replace":0,"delete":2}}', { 'has-changes': 'true', 'has-destroys': 'true' }],
  ])('exit %i is a report, not a failure: outputs from the saved plan (%#)', async (exit, planFile, outputs) => {
    const result = await job.step(['run'], { env: drift, stewardExit: exit, planFile, markdown: '### steward drift check for `production`\n' });
    expect(result.code).toBe(0);
    expect(result.calls.steward[0]).toEqual(['drift', '--config', 'steward', '--env', 'production', '--out', `${job.temp}/steward/plan.json`, '--markdown', `${job.temp}/steward/summary.md`]);
    expect(result.outputs).toMatchObject({ 'exit-code': String(exit), ...outputs });
    expect(result.summary).toBe('### steward drift check for `production`\n');
    expect(result.calls.gh).toEqual([]);
  });

  it('fails on exit 1', async () => {
    const result = await job.step(['run'], { env: drift, stewardExit: 1, markdown: '' });
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('::error title=steward drift failed::steward drift exited with 1');
  });
});

describe('inputs', () => {
  it('exports the token under the environment\'s variable, masked, and never prints it', async () => {
    const result = await job.step(['run'], { env: { ...plan, INPUT_TOKEN: 's3cr3t-token' } });
    expect(result.tokens).toEqual(['STEWARD_PRODUCTION_TOKEN']);
    expect(result.stdout).toContain('::add-mask::s3cr3t-token');
    expect(result.stdout.replace('::add-mask::s3cr3t-token', '')).not.toContain('s3cr3t-token');
    const named = await job.step(['run'], { env: { ...plan, INPUT_ENVIRONMENT: 'eu-west', INPUT_TOKEN: 'x', INPUT_TOKEN_ENV: 'ACME_EU_KEY' } });
    expect(named.code).toBe(0);
    const derived = await job.step(['run'], { env: { ...plan, INPUT_ENVIRONMENT: 'eu-west', INPUT_TOKEN: 'x' } });
    expect(derived.tokens).toEqual(['STEWARD_EU_WEST_TOKEN']);
  });

  it('splits args like a shell, quotes and all, without evaluating them', async () => {
    const result = await job.step(['argv'], { env: { ...plan, INPUT_ARGS: `--target "routines/Daily check" --requests-per-minute 120 '$(touch pwned)'` } });
    expect(result.stdout.split('\0').slice(0, -1)).toEqual([
      'plan', '--config', 'steward', '--env', 'production', '--detailed-exitcode', '--out', `${job.temp}/steward/plan.json`, '--markdown', `${job.temp}/steward/summary.md`,
      '--target', 'routines/Daily check', '--requests-per-minute', '120', '$(touch pwned)',
    ]);
  });

  it('refuses args it cannot split, instead of dropping them', async () => {
    const result = await job.step(['run'], { env: { ...plan, INPUT_ARGS: `--target "routines/Daily check` } });
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('::error title=steward action::cannot split the input args (an unmatched quote?)');
    expect(result.calls.steward).toEqual([]);
  });

  it('validates without touching the plan an earlier step of the job saved', async () => {
    await job.step(['run'], { env: plan, stewardExit: 2 });
    const validated = await job.step(['run'], { env: { INPUT_COMMAND: 'validate', INPUT_CONFIG: 'steward' } });
    expect(validated.calls.steward).toEqual([['validate', '--config', 'steward']]);
    expect(validated.outputs['plan-file']).toBe('');
    expect(readFileSync(`${job.temp}/steward/plan.json`, 'utf8')).toContain('"create":1');
  });

  it('refuses an unknown command', async () => {
    const result = await job.step(['run'], { env: { INPUT_COMMAND: 'destroy' } });
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('::error title=steward action::unknown command "destroy"');
  });
});

describe('installing steward', () => {
  it('builds from the action\'s source once, installs production dependencies only, and puts steward on the PATH', async () => {
    const home = join(job.base, 'cache');
    const env = { STEWARD_ACTION_HOME: home, STEWARD_ACTION_SOURCE: job.root };
    const key = await job.step(['cache-key'], { env });
    expect(key.outputs.key).toMatch(/^steward-Linux-node\d+-[0-9a-f]{20}$/);
    expect(key.outputs.path).toBe(home);
    const installed = await job.step(['install'], { env });
    expect(installed.code, installed.stderr).toBe(0);
    expect(installed.calls.npm.map((call) => call[0])).toEqual(['ci', 'pack', 'install']);
    expect(installed.calls.npm[2]).toEqual(expect.arrayContaining(['install', '--prefix', home, '--omit=dev']));
    const activated = await job.step(['activate'], { env });
    expect(activated.path).toBe(`${home}/node_modules/.bin\n`);
  });

  it('names the cache after the sources, so another ref builds again', async () => {
    const env = { STEWARD_ACTION_SOURCE: job.root };
    const before = await job.step(['cache-key'], { env, files: { 'src/cli/main.ts': 'one' } });
    const same = await job.step(['cache-key'], { env });
    const changed = await job.step(['cache-key'], { env, files: { 'src/cli/main.ts': 'two' } });
    expect(same.outputs.key).toBe(before.outputs.key);
    expect(changed.outputs.key).not.toBe(before.outputs.key);
  });
});

describe('action.yml', () => {
  const action = parse(readFileSync('action.yml', 'utf8')) as {
    inputs: Record<string, { default?: string }>;
    outputs: Record<string, { value: string }>;
    runs: { using: string; steps: { run?: string; env?: Record<string, string>; uses?: string }[] };
  };

  it('is a composite action with the inputs and outputs the recipes use', () => {
    expect(action.runs.using).toBe('composite');
    expect(Object.keys(action.inputs)).toEqual(expect.arrayContaining(['command', 'config', 'environment', 'args', 'token', 'token-env', 'plan-file', 'comment', 'github-token']));
    expect(Object.keys(action.outputs)).toEqual(['exit-code', 'has-changes', 'has-destroys', 'plan-file', 'summary-file']);
  });

  it('passes every input the script reads, and keeps expressions out of scripts', async () => {
    const script = await readFile('action/steward-action.sh', 'utf8');
    const read = [...new Set([...script.matchAll(/\$\{?(INPUT_[A-Z_]+)/g)].map((match) => match[1]!))].sort();
    const run = action.runs.steps.find((step) => step.run?.includes(' run'))!;
    expect(Object.keys(run.env!).filter((name) => name.startsWith('INPUT_')).sort()).toEqual(read);
    for (const step of action.runs.steps) if (step.run !== undefined) expect(step.run).not.toContain('${{');
  });
});
