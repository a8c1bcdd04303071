// Runs one `run:` step of a CI recipe in bash exactly as the runner does (`shell: bash` is
// `bash --noprofile --norc -eo pipefail`), with `steward`, `gh` and `npm` replaced by stubs
// that record their arguments and answer as told, so the exit-code handling, the step outputs
// and the summary of every branch can be checked without GitHub or an instance.
import { execFile } from 'node:child_process';
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GITHUB_TOKEN, SECRETS, stepEnv, stepOf, type ContextValue, type Env, type Workflow } from './workflows.js';

export interface Stubs {
  /** Exit code of `steward SUBCOMMAND`, by subcommand; default 0. */
  stewardExit?: Record<string, number>;
  /** What `steward SUBCOMMAND` prints, by subcommand; default a line naming the stub. */
  stewardPrints?: Record<string, { stdout?: string; stderr?: string }>;
  /** What `gh api .../pulls/N/files` prints (the changed files, one a line). */
  changedFiles?: string;
  /** What `gh issue list` prints (the open drift issue's number, or nothing). */
  openIssue?: string;
  /** What `gh api .../commits/SHA/pulls` prints (the merged pull request's number). */
  mergedPullRequest?: string;
  /** What `gh api .../pulls/N` prints (the pull request's head commit). */
  headSha?: string;
  /** What `gh run list` prints (the plan run's id). */
  planRun?: string;
}

export interface BashStepResult {
  code: number;
  stdout: string;
  stderr: string;
  /** What the step wrote to $GITHUB_OUTPUT. */
  outputs: Record<string, string>;
  /** What the step wrote to $GITHUB_STEP_SUMMARY. */
  summary: string;
  /** What the step wrote to $GITHUB_PATH. */
  path: string;
  calls: { steward: string[][]; gh: string[][]; npm: string[][] };
  /** The checkout the step ran in. */
  root: string;
  temp: string;
}

const STEWARD_STUB = `#!/usr/bin/env bash
# Records its arguments; writes --markdown FILE and --out FILE as steward would; exits as told.
printf '%s\\x1f' "$@" >> "$STUB_LOG_DIR/steward"; printf '\\n' >> "$STUB_LOG_DIR/steward"
args=("$@")
for ((i = 0; i < \${#args[@]}; i++)); do
  next="\${args[i+1]:-}"
  if [ "\${args[i]}" = "--markdown" ] && [ -n "$next" ] && [ "\${next#--}" = "$next" ]; then echo "stub $1 markdown" >> "$next"; fi
  if [ "\${args[i]}" = "--out" ]; then echo '{}' > "$next"; fi
done
if [ -f "$STUB_LOG_DIR/prints/$1.stdout" ] || [ -f "$STUB_LOG_DIR/prints/$1.stderr" ]; then
  cat "$STUB_LOG_DIR/prints/$1.stdout" 2> /dev/null || true
  cat "$STUB_LOG_DIR/prints/$1.stderr" >&2 2> /dev/null || true
else
  echo "stub steward $1 output"
fi
code_var="STUB_EXIT_$1"
exit "\${!code_var:-0}"
`;

const GH_STUB = `#!/usr/bin/env bash
printf '%s\\x1f' "$@" >> "$STUB_LOG_DIR/gh"; printf '\\n' >> "$STUB_LOG_DIR/gh"
# \`gh api [--flags] PATH ...\`: the first word after \`api\` that is not a flag is the path.
target="$1 $2"
if [ "$1" = "api" ]; then
  for word in "\${@:2}"; do case "$word" in -*) ;; *) target="api $word"; break ;; esac; done
fi
case "$target" in
  "issue list") printf '%s\\n' "\${STUB_OPEN_ISSUE:-}" ;;
  "run list") printf '%s\\n' "\${STUB_PLAN_RUN:-}" ;;
  "api "*/commits/*/pulls) printf '%s\\n' "\${STUB_MERGED_PR:-}" ;;
  "api "*/pulls/*/files) printf '%s' "\${STUB_CHANGED_FILES:-}" ;;
  "api "*/pulls/*) printf '%s\\n' "\${STUB_HEAD_SHA:-}" ;;
esac
`;

const NPM_STUB = `#!/usr/bin/env bash
printf '%s\\x1f' "$@" >> "$STUB_LOG_DIR/npm"; printf '\\n' >> "$STUB_LOG_DIR/npm"
`;

const directories: string[] = [];

/** Removes the checkouts of every step run so far. */
export async function removeBashSteps(): Promise<void> {
  await Promise.all(directories.splice(0).map((directory) => rm(directory, { recursive: true, force: true })));
}

export interface BashStepOptions {
  stubs?: Stubs;
  vars?: Env;
  /** Written into the checkout before the step runs, by path. */
  files?: Record<string, string>;
  /** Written into $RUNNER_TEMP before the step runs, by name. */
  tempFiles?: Record<string, string>;
  /** $GITHUB_EVENT_NAME; default `push`. */
  event?: string;
  /** `steps.*`, `needs.*` and more of `github.*` for the step's `env:` expressions. */
  context?: { steps?: Record<string, ContextValue>; needs?: Record<string, ContextValue>; github?: Record<string, ContextValue> };
}

/** The `github.event` of a pull request from a branch of this repository, for expressions. */
export const PULL_REQUEST_EVENT: Record<string, ContextValue> = {
  event: { pull_request: { number: '12', head: { repo: { full_name: 'acme/analytics-config' } } } },
};

/** Runs a step's script in a fresh checkout; `files` are written into the checkout first. */
export async function runBashStep(workflow: Workflow, job: string, step: string, options: BashStepOptions = {}): Promise<BashStepResult> {
  const found = stepOf(workflow, job, step);
  if (found.run === undefined) throw new Error(`${workflow.file}: step ${step} has no run script`);
  const shell = found.shell ?? workflow.defaults?.run?.shell;
  if (shell !== 'bash') throw new Error(`${workflow.file}: step ${step} should run in bash (defaults.run.shell), not ${String(shell)}`);

  const base = await mkdtemp(join(tmpdir(), 'steward-ci-bash-'));
  directories.push(base);
  const root = join(base, 'repository');
  const temp = join(base, 'runner-temp');
  const bin = join(base, 'bin');
  const logs = join(base, 'logs');
  await Promise.all([root, temp, bin, logs].map((directory) => mkdir(directory)));
  for (const [name, text] of Object.entries({ steward: STEWARD_STUB, gh: GH_STUB, npm: NPM_STUB })) {
    await writeFile(join(bin, name), text);
    await chmod(join(bin, name), 0o755);
  }
  for (const [path, text] of Object.entries(options.files ?? {})) {
    await mkdir(join(root, path, '..'), { recursive: true });
    await writeFile(join(root, path), text);
  }
  for (const [name, text] of Object.entries(options.tempFiles ?? {})) await writeFile(join(temp, name), text);
  await mkdir(join(logs, 'prints'));
  for (const [command, { stdout, stderr }] of Object.entries(options.stubs?.stewardPrints ?? {})) {
    if (stdout !== undefined) await writeFile(join(logs, 'prints', `${command}.stdout`), stdout);
    if (stderr !== undefined) await writeFile(join(logs, 'prints', `${command}.stderr`), stderr);
  }
  const runnerFiles = { GITHUB_OUTPUT: join(temp, 'output'), GITHUB_STEP_SUMMARY: join(temp, 'summary'), GITHUB_PATH: join(temp, 'path') };
  await Promise.all(Object.values(runnerFiles).map((file) => writeFile(file, '')));
  const script = join(temp, 'step.sh');
  await writeFile(script, found.run);

  const stubs = options.stubs ?? {};
  const env: Env = {
    PATH: `${bin}:/usr/local/bin:/usr/bin:/bin`,
    HOME: base,
    CI: 'true',
    GITHUB_ACTIONS: 'true',
    GITHUB_WORKSPACE: root,
    GITHUB_REPOSITORY: 'acme/analytics-config',
    GITHUB_SERVER_URL: 'https://github.com',
    GITHUB_SHA: '0123456789abcdef0123456789abcdef01234567',
    GITHUB_RUN_ID: '4242',
    GITHUB_EVENT_NAME: options.event ?? 'push',
    RUNNER_TEMP: temp,
    ...runnerFiles,
    // `<RUNNER_TEMP>` in a context value stands for this run's RUNNER_TEMP (a step output naming a file there).
    ...Object.fromEntries(
      Object.entries(
        stepEnv(workflow, job, found, {
          secrets: SECRETS,
          vars: { ...options.vars },
          github: { token: GITHUB_TOKEN, repository: 'acme/analytics-config', ...options.context?.github },
          steps: options.context?.steps ?? {},
          needs: options.context?.needs ?? {},
        }),
      ).map(([name, value]) => [name, value.replaceAll('<RUNNER_TEMP>', temp)]),
    ),
    STUB_LOG_DIR: logs,
    ...Object.fromEntries(Object.entries(stubs.stewardExit ?? {}).map(([command, code]) => [`STUB_EXIT_${command}`, String(code)])),
    ...(stubs.openIssue === undefined ? {} : { STUB_OPEN_ISSUE: stubs.openIssue }),
    ...(stubs.mergedPullRequest === undefined ? {} : { STUB_MERGED_PR: stubs.mergedPullRequest }),
    ...(stubs.headSha === undefined ? {} : { STUB_HEAD_SHA: stubs.headSha }),
    ...(stubs.planRun === undefined ? {} : { STUB_PLAN_RUN: stubs.planRun }),
    ...(stubs.changedFiles === undefined ? {} : { STUB_CHANGED_FILES: stubs.changedFiles }),
  };
  const { code, stdout, stderr } = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    execFile('bash', ['--noprofile', '--norc', '-eo', 'pipefail', script], { cwd: root, env }, (error, out, err) => {
      resolve({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : 1, stdout: out, stderr: err });
    });
  });
  const calls = async (name: string) =>
    existsSync(join(logs, name))
      ? (await readFile(join(logs, name), 'utf8')).split('\n').filter((line) => line !== '').map((line) => line.split('\x1f').slice(0, -1))
      : [];
  return {
    code,
    stdout,
    stderr,
    outputs: Object.fromEntries(
      (await readFile(runnerFiles.GITHUB_OUTPUT, 'utf8')).split('\n').filter((line) => line.includes('=')).map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
    ),
    summary: await readFile(runnerFiles.GITHUB_STEP_SUMMARY, 'utf8'),
    path: await readFile(runnerFiles.GITHUB_PATH, 'utf8'),
    calls: { steward: await calls('steward'), gh: await calls('gh'), npm: await calls('npm') },
    root,
    temp,
  };
}
