// Runs action/steward-action.sh, the logic of the steward GitHub Action, in bash as the runner
// would, with `steward`, `gh` and `npm` replaced by stubs: steward records its arguments, writes
// --out and --markdown like steward, and exits as told; gh keeps the pull request's comments in
// a file and answers `--jq` with the real jq, so creating, finding and editing the plan comment
// happen as they would on GitHub.
import { execFile } from 'node:child_process';
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ACTION_SCRIPT = fileURLToPath(new URL('../../../action/steward-action.sh', import.meta.url));

const STEWARD_STUB = `#!/usr/bin/env bash
printf '%s\\x1f' "$@" >> "$STUB_DIR/steward.calls"; printf '\\n' >> "$STUB_DIR/steward.calls"
env | grep '^STEWARD_.*_TOKEN=' | cut -d= -f1 | sort >> "$STUB_DIR/steward.tokens" || true
args=("$@")
for ((i = 0; i < \${#args[@]}; i++)); do
  next="\${args[i+1]:-}"
  if [ "\${args[i]}" = "--markdown" ]; then cat "$STUB_DIR/markdown" >> "$next"; fi
  if [ "\${args[i]}" = "--out" ]; then cat "$STUB_DIR/planfile" > "$next"; fi
done
cat "$STUB_DIR/stdout"
exit "\${STUB_EXIT:-0}"
`;

/** gh api for the comments of a pull request, with the state in $STUB_DIR/comments.json. */
const GH_STUB = `#!/usr/bin/env bash
printf '%s\\x1f' "$@" >> "$STUB_DIR/gh.calls"; printf '\\n' >> "$STUB_DIR/gh.calls"
# STUB_GH_FAIL: every call fails, as with a token that may not comment.
[ -z "\${STUB_GH_FAIL:-}" ] || { echo "HTTP 403: Resource not accessible by integration" >&2; exit 1; }
state="$STUB_DIR/comments.json"
[ -f "$state" ] || echo '[]' > "$state"
[ "$1" = "api" ] || exit 2
shift
method=GET jq_filter="" path="" body=""
while [ $# -gt 0 ]; do
  case "$1" in
    --method) method="$2"; shift 2 ;;
    --jq) jq_filter="$2"; shift 2 ;;
    --paginate) shift ;;
    -F) body="$(cat "\${2#body=@}"; printf x)"; body="\${body%x}"; shift 2 ;;
    *) path="$1"; shift ;;
  esac
done
case "$method $path" in
  "GET "*/issues/*/comments) if [ -n "$jq_filter" ]; then jq -r "$jq_filter" "$state"; else cat "$state"; fi ;;
  "POST "*/issues/*/comments)
    id=$(jq 'map(.id) | max // 100 | . + 1' "$state")
    jq --argjson id "$id" --arg body "$body" '. + [{ id: $id, user: { type: "Bot", login: "github-actions[bot]" }, body: $body }]' "$state" > "$state.new" && mv "$state.new" "$state" ;;
  "PATCH "*/issues/comments/*)
    id="\${path##*/}"
    jq --argjson id "$id" --arg body "$body" 'map(if .id == $id then .body = $body else . end)' "$state" > "$state.new" && mv "$state.new" "$state" ;;
  *) exit 3 ;;
esac
`;

const NPM_STUB = `#!/usr/bin/env bash
printf '%s\\x1f' "$@" >> "$STUB_DIR/npm.calls"; printf '\\n' >> "$STUB_DIR/npm.calls"
case "$1" in
  pack) shift; while [ $# -gt 0 ]; do [ "$1" = "--pack-destination" ] && touch "$2/steward-0.1.0.tgz"; shift; done ;;
  install) prefix=""; while [ $# -gt 0 ]; do [ "$1" = "--prefix" ] && prefix="$2"; shift; done
    mkdir -p "$prefix/node_modules/.bin" && printf '#!/bin/sh\\n' > "$prefix/node_modules/.bin/steward" && chmod +x "$prefix/node_modules/.bin/steward" ;;
esac
`;

export interface Comment {
  id: number;
  user: { type: string; login?: string };
  body: string;
}

/** A runner job: a checkout, RUNNER_TEMP and the stubs, kept across several runs of the script. */
export class ActionJob {
  private constructor(
    readonly base: string,
    readonly root: string,
    readonly temp: string,
    readonly stubs: string,
  ) {}

  static async start(): Promise<ActionJob> {
    const base = await mkdtemp(join(tmpdir(), 'steward-action-'));
    const [root, temp, stubs, bin] = ['repository', 'runner-temp', 'stubs', 'bin'].map((name) => join(base, name));
    for (const directory of [root!, temp!, stubs!, bin!]) await mkdir(directory);
    for (const [name, text] of Object.entries({ steward: STEWARD_STUB, gh: GH_STUB, npm: NPM_STUB })) {
      await writeFile(join(bin!, name), text);
      await chmod(join(bin!, name), 0o755);
    }
    return new ActionJob(base, root!, temp!, stubs!);
  }

  async close(): Promise<void> {
    await rm(this.base, { recursive: true, force: true });
  }

  /** The comments of the pull request, as GitHub holds them. */
  async comments(): Promise<Comment[]> {
    const file = join(this.stubs, 'comments.json');
    return existsSync(file) ? (JSON.parse(await readFile(file, 'utf8')) as Comment[]) : [];
  }

  async setComments(comments: Comment[]): Promise<void> {
    await writeFile(join(this.stubs, 'comments.json'), JSON.stringify(comments));
  }

  /** Runs `steward-action.sh SUBCOMMAND` as one step: fresh output and summary files each time. */
  async step(subcommand: string[], options: StepOptions = {}): Promise<StepResult> {
    const files = { GITHUB_OUTPUT: join(this.temp, 'output'), GITHUB_STEP_SUMMARY: join(this.temp, 'summary'), GITHUB_PATH: join(this.temp, 'path') };
    await Promise.all(Object.values(files).map((file) => writeFile(file, '')));
    for (const name of ['steward.calls', 'gh.calls', 'npm.calls', 'steward.tokens']) await rm(join(this.stubs, name), { force: true });
    await writeFile(join(this.stubs, 'markdown'), options.markdown ?? '### steward plan for `production`\n\n**Plan: 1 to add.**\n');
    await writeFile(join(this.stubs, 'planfile'), options.planFile ?? '{"summary":{"create":1,"update":0,"replace":0,"delete":0}}\n');
    await writeFile(join(this.stubs, 'stdout'), options.stewardStdout ?? 'stub steward output\n');
    const event = join(this.temp, 'event.json');
    await writeFile(event, JSON.stringify(options.pullRequest === undefined ? {} : { pull_request: { number: options.pullRequest } }));
    for (const [path, text] of Object.entries(options.files ?? {})) {
      await mkdir(join(this.root, path, '..'), { recursive: true });
      await writeFile(join(this.root, path), text);
    }
    const env: Record<string, string> = {
      PATH: `${join(this.base, 'bin')}:/usr/local/bin:/usr/bin:/bin`,
      HOME: this.base,
      CI: 'true',
      GITHUB_ACTIONS: 'true',
      GITHUB_WORKSPACE: this.root,
      GITHUB_REPOSITORY: 'acme/analytics-config',
      GITHUB_SERVER_URL: 'https://github.com',
      GITHUB_RUN_ID: '4242',
      GITHUB_EVENT_NAME: options.pullRequest === undefined ? 'push' : 'pull_request',
      GITHUB_EVENT_PATH: event,
      RUNNER_TEMP: this.temp,
      RUNNER_OS: 'Linux',
      STUB_DIR: this.stubs,
      STUB_EXIT: String(options.stewardExit ?? 0),
      ...files,
      ...options.env,
    };
    const { code, stdout, stderr } = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
      execFile('bash', ['--noprofile', '--norc', '-eo', 'pipefail', ACTION_SCRIPT, ...subcommand], { cwd: this.root, env }, (error, out, err) => {
        resolve({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : 1, stdout: out, stderr: err });
      });
    });
    const calls = async (name: string) =>
      existsSync(join(this.stubs, name))
        ? (await readFile(join(this.stubs, name), 'utf8')).split('\n').filter((line) => line !== '').map((line) => line.split('\x1f').slice(0, -1))
        : [];
    return {
      code,
      stdout,
      stderr,
      outputs: Object.fromEntries(
        (await readFile(files.GITHUB_OUTPUT, 'utf8')).split('\n').filter((line) => line.includes('=')).map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
      ),
      summary: await readFile(files.GITHUB_STEP_SUMMARY, 'utf8'),
      path: await readFile(files.GITHUB_PATH, 'utf8'),
      calls: { steward: await calls('steward.calls'), gh: await calls('gh.calls'), npm: await calls('npm.calls') },
      tokens: existsSync(join(this.stubs, 'steward.tokens')) ? (await readFile(join(this.stubs, 'steward.tokens'), 'utf8')).split('\n').filter(Boolean) : [],
    };
  }
}

export interface StepOptions {
  /** INPUT_* and other variables of the step. */
  env?: Record<string, string>;
  stewardExit?: number;
  /** What steward appends to --markdown FILE. */
  markdown?: string;
  /** What steward writes to --out FILE. */
  planFile?: string;
  stewardStdout?: string;
  /** The pull request the run is for (GITHUB_EVENT_PATH); none for a push. */
  pullRequest?: number;
  files?: Record<string, string>;
}

export interface StepResult {
  code: number;
  stdout: string;
  stderr: string;
  outputs: Record<string, string>;
  summary: string;
  path: string;
  calls: { steward: string[][]; gh: string[][]; npm: string[][] };
  /** The STEWARD_*_TOKEN variables steward saw (names only). */
  tokens: string[];
}
