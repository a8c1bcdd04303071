// The shell around the steward commands of the CI recipes, run in bash as the runner runs it,
// with steward, gh and npm stubbed: which exit codes pass or fail a step, what the step writes
// to its outputs and to the job summary, and which issue or comment it makes of the result.
import { createRequire } from 'node:module';
import { afterAll, describe, expect, it } from 'vitest';
import { removeBashSteps, runBashStep } from './ci/bashStep.js';
import { loadWorkflow, stepOf } from './ci/workflows.js';

const plan = loadWorkflow('plan.yml');
const apply = loadWorkflow('apply.yml');
const drift = loadWorkflow('drift.yml');

afterAll(removeBashSteps);

describe('installing steward (every workflow)', () => {
  it.each(['plan.yml', 'apply.yml', 'drift.yml'])('%s fails with an explanation when STEWARD_PACKAGE is not set', async (file) => {
    const workflow = loadWorkflow(file);
    const job = Object.keys(workflow.jobs)[0]!;
    const result = await runBashStep(workflow, job, 'Install steward', { vars: { STEWARD_PACKAGE: '' } });
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('::error title=STEWARD_PACKAGE is not set::');
    expect(result.calls.npm).toEqual([]);
  });

  it('installs the pinned package outside the checkout and puts its steward on the PATH', async () => {
    const result = await runBashStep(plan, 'plan', 'Install steward', { vars: { STEWARD_PACKAGE: 'https://example.test/steward-0.1.0.tgz' } });
    expect(result.code).toBe(0);
    expect(result.calls.npm).toEqual([
      ['install', '--no-save', '--no-audit', '--no-fund', '--prefix', `${result.temp}/steward`, 'https://example.test/steward-0.1.0.tgz'],
    ]);
    expect(result.path).toBe(`${result.temp}/steward/node_modules/.bin\n`);
  });
});

describe('plan.yml: the plan step', () => {
  it.each([
    [0, 'No changes: production already matches steward/.'],
    [2, 'The plan changes production'],
    [3, '::warning title=Destructive plan::'],
  ])('passes on exit %i (a plan to review), with the plan in the summary', async (exit, message) => {
    const result = await runBashStep(plan, 'plan', 'plan', { stubs: { stewardExit: { plan: exit } } });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(message);
    expect(result.outputs).toEqual({ exitcode: String(exit) });
    expect(result.summary).toBe('stub plan markdown\n');
    expect(result.calls.steward).toEqual([
      ['plan', '--config', 'steward', '--env', 'production', '--detailed-exitcode', '--out', 'plan.json', '--markdown', 'plan.md'],
    ]);
  });

  it('fails on exit 1 and says so', async () => {
    const result = await runBashStep(plan, 'plan', 'plan', { stubs: { stewardExit: { plan: 1 } } });
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('::error title=steward plan failed::steward plan exited with 1');
    expect(result.outputs).toEqual({ exitcode: '1' });
    expect(result.summary).toBe('');
  });
});

describe('plan.yml: the pull-request comment', () => {
  const script = stepOf(plan, 'plan', 'Comment the plan on the pull request').with!.script as string;

  async function comment(outcome: string, existing: { id: number; user: { type: string }; body: string }[]) {
    const calls: { method: string; params: Record<string, unknown> }[] = [];
    const record = (method: string) => async (params: Record<string, unknown>) => {
      calls.push({ method, params });
      return { data: {} };
    };
    const github = {
      paginate: async () => existing,
      rest: { issues: { listComments: record('listComments'), updateComment: record('updateComment'), createComment: record('createComment') } },
    };
    const context = { repo: { owner: 'acme', repo: 'analytics-config' }, issue: { number: 12 }, payload: { pull_request: { head: { sha: 'abcdef0123456789' } } } };
    const nodeRequire = createRequire(import.meta.url);
    const files: Record<string, string> = { 'plan.md': '### steward plan for `production`\n\n**Plan: 1 to add.**\n' };
    const fakeRequire = (name: string) => (name === 'fs' ? { readFileSync: (path: string) => files[path] } : nodeRequire(name));
    const saved = { ...process.env };
    Object.assign(process.env, { PLAN_OUTCOME: outcome, GITHUB_SERVER_URL: 'https://github.com', GITHUB_REPOSITORY: 'acme/analytics-config', GITHUB_RUN_ID: '4242' });
    try {
      const AsyncFunction = Object.getPrototypeOf(async () => {}).constructor as new (...args: string[]) => (...values: unknown[]) => Promise<void>;
      await new AsyncFunction('require', 'github', 'context', script)(fakeRequire, github, context);
    } finally {
      process.env = saved;
    }
    return calls;
  }

  it('posts the Markdown plan once, then edits that comment on every push', async () => {
    const [created] = await comment('success', [{ id: 1, user: { type: 'User' }, body: 'looks good' }]);
    expect(created!.method).toBe('createComment');
    expect(created!.params).toMatchObject({ owner: 'acme', repo: 'analytics-config', issue_number: 12 });
    const body = created!.params.body as string;
    expect(body.startsWith('<!-- steward-plan -->\n### steward plan for `production`')).toBe(true);
    expect(body).toContain('Plan of abcdef0 ([run and plan file](https://github.com/acme/analytics-config/actions/runs/4242))');

    const [updated] = await comment('success', [
      { id: 1, user: { type: 'User' }, body: 'quoting <!-- steward-plan --> by hand' },
      { id: 7, user: { type: 'Bot' }, body: body },
    ]);
    expect(updated!.method).toBe('updateComment');
    expect(updated!.params).toMatchObject({ comment_id: 7 });
  });

  it('says the plan failed instead of leaving an old plan standing', async () => {
    const [updated] = await comment('failure', [{ id: 7, user: { type: 'Bot' }, body: '<!-- steward-plan -->\nold plan' }]);
    expect(updated!.method).toBe('updateComment');
    expect(updated!.params.body).toContain('❌ steward could not plan abcdef0');
  });
});

describe('apply.yml', () => {
  it('finds the plan run of the merged pull request\'s last commit', async () => {
    const result = await runBashStep(apply, 'apply', 'reviewed', { stubs: { mergedPullRequest: '12', headSha: 'feedc0de', planRun: '99' } });
    expect(result.code).toBe(0);
    expect(result.outputs).toEqual({ pr: '12', 'run-id': '99' });
    expect(result.calls.gh.at(-1)).toEqual(['run', 'list', '--workflow', 'plan.yml', '--event', 'pull_request', '--commit', 'feedc0de', '--status', 'success', '--limit', '1', '--json', 'databaseId', '--jq', '.[0].databaseId // empty']);
  });

  it('finds no reviewed plan for a push that merged no pull request', async () => {
    const result = await runBashStep(apply, 'apply', 'reviewed', { stubs: { mergedPullRequest: '' } });
    expect(result.code).toBe(0);
    expect(result.outputs).toEqual({});
    expect(result.stdout).toContain('there is no reviewed plan');
  });

  const reviewed = { 'reviewed/plan.json': '{}' };

  it('plans main when there is no reviewed plan', async () => {
    const result = await runBashStep(apply, 'apply', 'check');
    expect(result.code).toBe(0);
    expect(result.outputs).toEqual({ mode: 'fresh' });
    expect(result.calls.steward).toEqual([]);
  });

  it('applies the reviewed plan when its dry run passes', async () => {
    const result = await runBashStep(apply, 'apply', 'check', { files: reviewed });
    expect(result.code).toBe(0);
    expect(result.outputs).toEqual({ mode: 'reviewed' });
    expect(result.calls.steward).toEqual([['apply', 'reviewed/plan.json', '--config', 'steward', '--dry-run']]);
  });

  it('fails, says why and shows the plan of main when the reviewed plan is refused', async () => {
    const result = await runBashStep(apply, 'apply', 'check', { files: reviewed, stubs: { stewardExit: { apply: 1 } } });
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('::error title=Reviewed plan refused::');
    expect(result.outputs).toEqual({});
    expect(result.calls.steward.at(-1)).toEqual(['plan', '--config', 'steward', '--env', 'production', '--markdown', `${result.temp}/summary`]);
    expect(result.summary).toBe('stub plan markdown\n');
  });

  it('plans main again after a refusal only when the repository opted in', async () => {
    const result = await runBashStep(apply, 'apply', 'check', { files: reviewed, stubs: { stewardExit: { apply: 1 } }, vars: { STEWARD_REPLAN_IF_REFUSED: 'true' } });
    expect(result.code).toBe(0);
    expect(result.outputs).toEqual({ mode: 'fresh' });
    expect(result.stdout).toContain('::warning title=Reviewed plan refused::');
  });

  it('does not apply when planning main fails', async () => {
    const result = await runBashStep(apply, 'apply', 'Plan main and apply that plan', { stubs: { stewardExit: { plan: 1 } } });
    expect(result.code).toBe(1);
    expect(result.calls.steward.map((call) => call[0])).toEqual(['plan']);
  });

  it('applies the plan it just made when planning main succeeds', async () => {
    const result = await runBashStep(apply, 'apply', 'Plan main and apply that plan');
    expect(result.code).toBe(0);
    expect(result.calls.steward.map((call) => call.slice(0, 2))).toEqual([['plan', '--config'], ['apply', 'plan.json']]);
  });
});

describe('drift.yml', () => {
  it.each([
    [0, 'No drift: production matches steward/.'],
    [2, '::warning title=Drift::'],
  ])('passes on exit %i and puts the report in the summary', async (exit, message) => {
    const result = await runBashStep(drift, 'drift', 'drift', { stubs: { stewardExit: { drift: exit } } });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(message);
    expect(result.outputs).toEqual({ exitcode: String(exit) });
    expect(result.summary).toBe('stub drift markdown\n');
  });

  it('fails on exit 1', async () => {
    const result = await runBashStep(drift, 'drift', 'drift', { stubs: { stewardExit: { drift: 1 } } });
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('::error title=steward drift failed::');
    expect(result.outputs).toEqual({ exitcode: '1' });
  });

  const report = { 'drift.md': '### steward drift check for `production`\n\n**Drift:** ...\n' };

  it('opens an issue labelled drift when none is open', async () => {
    const result = await runBashStep(drift, 'drift', 'Open or update the drift issue', { files: report, stubs: { openIssue: '' } });
    expect(result.code).toBe(0);
    const commands = result.calls.gh.map((call) => call.slice(0, 2).join(' '));
    expect(commands).toEqual(['label create', 'issue list', 'issue create']);
    expect(result.calls.gh[0]).toContain('--force');
    expect(result.calls.gh[2]).toEqual(['issue', 'create', '--title', 'steward: production has drifted from steward/', '--label', 'drift', '--body-file', 'issue.md']);
    const { readFile } = await import('node:fs/promises');
    const body = await readFile(`${result.root}/issue.md`, 'utf8');
    expect(body).toContain('**Drift:** ...');
    expect(body).toContain('https://github.com/acme/analytics-config/actions/runs/4242');
  });

  it('updates the open drift issue instead of opening another', async () => {
    const result = await runBashStep(drift, 'drift', 'Open or update the drift issue', { files: report, stubs: { openIssue: '7' } });
    expect(result.code).toBe(0);
    expect(result.calls.gh.at(-1)).toEqual(['issue', 'edit', '7', '--body-file', 'issue.md']);
    expect(result.calls.gh.some((call) => call[1] === 'create' && call[0] === 'issue')).toBe(false);
  });

  it('closes the open drift issue once there is no drift, and does nothing when none is open', async () => {
    const open = await runBashStep(drift, 'drift', 'Close the drift issue', { stubs: { openIssue: '7' } });
    expect(open.code).toBe(0);
    expect(open.calls.gh.at(-1)!.slice(0, 4)).toEqual(['issue', 'close', '7', '--comment']);
    const none = await runBashStep(drift, 'drift', 'Close the drift issue', { stubs: { openIssue: '' } });
    expect(none.code).toBe(0);
    expect(none.calls.gh.map((call) => call[1])).toEqual(['list']);
  });
});
