// The shell around the steward commands of the CI recipes, run in bash as the runner runs it,
// with steward, gh and npm stubbed: which exit codes pass or fail a step, what the step writes
// to its outputs and to the job summary, and which issue it makes of the result. (The steps of
// the steward Action are tested in ci-action.test.ts.)
import { readFile } from 'node:fs/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { PULL_REQUEST_EVENT, removeBashSteps, runBashStep } from './ci/bashStep.js';
import { loadWorkflow } from './ci/workflows.js';

const plan = loadWorkflow('plan.yml');
const apply = loadWorkflow('apply.yml');
const drift = loadWorkflow('drift.yml');

/** GitHub's limit on the body of a comment or an issue, in characters. */
const GITHUB_BODY_LIMIT = 65_536;

afterAll(removeBashSteps);

describe('plan.yml: which pull requests are planned', () => {
  const pullRequest = { github: PULL_REQUEST_EVENT };

  it.each([
    ['steward/credit.yaml\nREADME.md\n', 'true'],
    ['README.md\ndocs/steward/notes.md\n', 'false'],
    [Array.from({ length: 3000 }, (_, index) => `docs/page-${index}.md`).join('\n'), 'true'],
  ])('asks the API which files changed, and plans when one is under steward/ (%#)', async (files, planned) => {
    const result = await runBashStep(plan, 'changes', 'files', { event: 'pull_request', context: pullRequest, stubs: { changedFiles: files } });
    expect(result.code).toBe(0);
    expect(result.outputs).toEqual({ steward: planned });
    expect(result.calls.gh).toEqual([['api', '--paginate', 'repos/acme/analytics-config/pulls/12/files', '--jq', '.[].filename']]);
  });

  /** The `Plan result` job, given what became of the jobs before it. */
  function verdict(needs: { changes: string; steward?: string; plan: string }, headRepository = 'acme/analytics-config') {
    return runBashStep(plan, 'result', 'Report', {
      event: 'pull_request',
      context: {
        github: { event: { pull_request: { head: { repo: { full_name: headRepository } } } } },
        needs: { changes: { result: needs.changes, outputs: { steward: needs.steward ?? '' } }, plan: { result: needs.plan } },
      },
    });
  }

  it('passes when steward/ is unchanged (nothing to plan) and when the plan succeeded', async () => {
    const unchanged = await verdict({ changes: 'success', steward: 'false', plan: 'skipped' });
    expect(unchanged.code).toBe(0);
    expect(unchanged.stdout).toContain('does not change steward/');
    const planned = await verdict({ changes: 'success', steward: 'true', plan: 'success' });
    expect(planned.code).toBe(0);
  });

  it.each([
    [{ changes: 'failure', plan: 'skipped' }, 'acme/analytics-config', 'Could not tell whether the pull request changes steward/'],
    [{ changes: 'success', steward: 'true', plan: 'failure' }, 'acme/analytics-config', 'the plan job ended with: failure'],
    [{ changes: 'success', steward: 'true', plan: 'skipped' }, 'someone/analytics-config', 'comes from the fork someone/analytics-config, whose runs get no secrets'],
  ])('fails, saying why, when there is no plan of a change to steward/ (%#)', async (needs, headRepository, message) => {
    const result = await verdict(needs, headRepository);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain(message);
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

  it('names the merged pull request even when it has no successful plan run', async () => {
    const result = await runBashStep(apply, 'apply', 'reviewed', { stubs: { mergedPullRequest: '12', headSha: 'feedc0de', planRun: '' } });
    expect(result.code).toBe(0);
    expect(result.outputs).toEqual({ pr: '12', 'run-id': '' });
    expect(result.stdout).toContain('Pull request #12 has no successful plan.yml run for its last commit feedc0de.');
  });

  const reviewed = { 'reviewed/plan.json': '{}' };
  const merged = { steps: { reviewed: { outputs: { pr: '12', 'run-id': '99' } } } };
  const mergedWithoutPlan = { steps: { reviewed: { outputs: { pr: '12', 'run-id': '' } } } };
  const bothOptIns = { STEWARD_REPLAN_IF_REFUSED: 'true', STEWARD_APPLY_UNREVIEWED: 'true' };

  it('never applies anything else when a merged pull request has no reviewed plan, whatever the repository opted in to', async () => {
    const result = await runBashStep(apply, 'apply', 'check', { context: mergedWithoutPlan, vars: bothOptIns });
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('::error title=No reviewed plan::Pull request #12 was merged without a reviewed plan');
    expect(result.outputs).toEqual({});
    expect(result.calls.steward).toEqual([]);
  });

  it.each(['push', 'workflow_dispatch'])('fails on a %s without a merged pull request, unless the repository opted in', async (event) => {
    const refused = await runBashStep(apply, 'apply', 'check', { event, vars: { STEWARD_REPLAN_IF_REFUSED: 'true' } });
    expect(refused.code).toBe(1);
    expect(refused.stdout).toContain(`::error title=No reviewed plan::This ${event} brought no merged pull request`);
    expect(refused.stdout).toContain('STEWARD_APPLY_UNREVIEWED');
    expect(refused.outputs).toEqual({});

    const optedIn = await runBashStep(apply, 'apply', 'check', { event, vars: { STEWARD_APPLY_UNREVIEWED: 'true' } });
    expect(optedIn.code).toBe(0);
    expect(optedIn.outputs).toEqual({ mode: 'fresh' });
    expect(optedIn.stdout).toContain('::warning title=Unreviewed plan::');
    expect(optedIn.calls.steward).toEqual([]);
  });

  it('applies the reviewed plan when its dry run passes', async () => {
    const result = await runBashStep(apply, 'apply', 'check', { files: reviewed, context: merged });
    expect(result.code).toBe(0);
    expect(result.outputs).toEqual({ mode: 'reviewed' });
    expect(result.calls.steward).toEqual([['apply', 'reviewed/plan.json', '--config', 'steward', '--dry-run', '--json']]);
  });

  /** steward's --json error envelope, as `apply FILE --dry-run --json` prints it on stdout. */
  const envelope = (code: string, message: string) => ({ stdout: `${JSON.stringify({ error: { code, fault: 'user', message } }, null, 2)}\n` });

  it.each([
    ['plan-file.config-changed', envelope('plan-file.config-changed', 'the configuration has changed since this plan was made')],
    ['plan-file.unfounded', envelope('plan-file.unfounded', 'a step of this plan file does not follow from the configuration and the live state')],
    ['plan.unknown-user', envelope('plan.unknown-user', 'no user grace@acme.example')],
    ['plan.stale', envelope('plan.stale', 'the plan is stale: 1 object changed since it was made; nothing was applied')],
  ])('reads %s as a refusal: fails, says why and shows the plan of main', async (refusal, prints) => {
    const result = await runBashStep(apply, 'apply', 'check', { files: reviewed, context: merged, stubs: { stewardExit: { apply: 1 }, stewardPrints: { apply: prints } } });
    expect(result.code).toBe(1);
    expect(result.stdout).toContain(`::error title=Reviewed plan refused::steward refused the plan reviewed on the pull request (${refusal}: `);
    expect(result.outputs).toEqual({});
    expect(result.calls.steward.at(-1)).toEqual(['plan', '--config', 'steward', '--env', 'production', '--markdown', `${result.temp}/summary`]);
    expect(result.summary).toBe('stub plan markdown\n');
  });

  it('plans main again after a refusal only when the repository opted in', async () => {
    const prints = { apply: envelope('plan-file.config-changed', 'the configuration has changed since this plan was made') };
    const result = await runBashStep(apply, 'apply', 'check', { files: reviewed, context: merged, stubs: { stewardExit: { apply: 1 }, stewardPrints: prints }, vars: { STEWARD_REPLAN_IF_REFUSED: 'true' } });
    expect(result.code).toBe(0);
    expect(result.outputs).toEqual({ mode: 'fresh' });
    expect(result.stdout).toContain('::warning title=Reviewed plan refused::');
    // STEWARD_APPLY_UNREVIEWED is about pushes without a pull request, not about refusals.
    const other = await runBashStep(apply, 'apply', 'check', { files: reviewed, context: merged, stubs: { stewardExit: { apply: 1 }, stewardPrints: prints }, vars: { STEWARD_APPLY_UNREVIEWED: 'true' } });
    expect(other.code).toBe(1);
  });

  it.each([
    ['an API error', { apply: envelope('api.server-error', 'GET /api/v1/ai/credit-controls: 503 Service Unavailable') }, 'api.server-error: GET /api/v1/ai/credit-controls: 503'],
    ['a missing token', { apply: envelope('auth.missing-token', 'the environment variable STEWARD_PRODUCTION_TOKEN is not set') }, 'auth.missing-token: '],
    ['a crash without JSON', { apply: { stdout: '', stderr: 'Segmentation fault\n' } }, 'exit code 1'],
  ])('fails on %s without planning main again, even where both opt-ins are set', async (_, prints, shown) => {
    const result = await runBashStep(apply, 'apply', 'check', { files: reviewed, context: merged, stubs: { stewardExit: { apply: 1 }, stewardPrints: prints }, vars: bothOptIns });
    expect(result.code).toBe(1);
    expect(result.stdout).toContain(`::error title=Could not check the reviewed plan::steward could not check the reviewed plan (${shown}`);
    expect(result.outputs).toEqual({});
    expect(result.calls.steward.map((call) => call[0])).toEqual(['apply']);
    expect(result.summary).toBe('');
  });

});

describe('drift.yml', () => {
  const report = { 'drift.md': '### steward drift check for `production`\n\n**Drift:** ...\n' };
  /** The drift step's output summary-file, pointing at the report in $RUNNER_TEMP. */
  const drifted = { steps: { drift: { outputs: { 'summary-file': '<RUNNER_TEMP>/drift.md', 'has-changes': 'true' } } } };

  it('opens an issue labelled drift when none is open', async () => {
    const result = await runBashStep(drift, 'drift', 'Open or update the drift issue', { tempFiles: report, stubs: { openIssue: '' }, context: drifted });
    expect(result.code).toBe(0);
    const commands = result.calls.gh.map((call) => call.slice(0, 2).join(' '));
    expect(commands).toEqual(['label create', 'issue list', 'issue create']);
    expect(result.calls.gh[0]).toContain('--force');
    expect(result.calls.gh[2]).toEqual(['issue', 'create', '--title', 'steward: production has drifted from steward/', '--label', 'drift', '--body-file', `${result.temp}/issue.md`]);
    const body = await readFile(`${result.temp}/issue.md`, 'utf8');
    expect(body.startsWith(report['drift.md'])).toBe(true);
    expect(body).toContain('Found by [the nightly drift check](https://github.com/acme/analytics-config/actions/runs/4242)');
    expect(body).not.toContain('cut here');
  });

  it('cuts a report too long for an issue at a line, says so, and keeps the footer', async () => {
    const line = '- `~` user credit limit someone@acme.example: 500 → 650 — ünïcödé\n';
    const long = `### steward drift check for \`production\`\n\n${line.repeat(Math.ceil(70_000 / line.length))}`;
    const result = await runBashStep(drift, 'drift', 'Open or update the drift issue', { tempFiles: { 'drift.md': long }, stubs: { openIssue: '7' }, context: drifted });
    expect(result.code).toBe(0);
    const body = await readFile(`${result.temp}/issue.md`, 'utf8');
    expect([...body].length).toBeLessThanOrEqual(GITHUB_BODY_LIMIT);
    expect(Buffer.byteLength(body)).toBeLessThanOrEqual(GITHUB_BODY_LIMIT);
    expect(body).toContain('… The report is cut here to fit in an issue: the whole report is in the job summary of [the run](https://github.com/acme/analytics-config/actions/runs/4242).');
    expect(body).toContain('Found by [the nightly drift check]');
    // Whole lines only: everything before the note is a prefix of the report ending at a line.
    const kept = body.slice(0, body.indexOf('\n… The report is cut here'));
    expect(long.startsWith(kept)).toBe(true);
    expect(kept.endsWith('ünïcödé\n')).toBe(true);
    expect(result.calls.gh.at(-1)).toEqual(['issue', 'edit', '7', '--body-file', `${result.temp}/issue.md`]);
  });

  it('updates the open drift issue instead of opening another', async () => {
    const result = await runBashStep(drift, 'drift', 'Open or update the drift issue', { tempFiles: report, stubs: { openIssue: '7' }, context: drifted });
    expect(result.code).toBe(0);
    expect(result.calls.gh.at(-1)).toEqual(['issue', 'edit', '7', '--body-file', `${result.temp}/issue.md`]);
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
