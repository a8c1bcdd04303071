// Plays the GitHub runner for the CI recipes: a checkout of a GitOps repository (steward/ is a
// copy of examples/gitops), the runner's variables, secrets from test values, artifacts handed
// from one run to another, and each `steward ...` line of a step run in-process through
// buildProgram against emulators standing in for production and the playground.
import { CommanderError } from 'commander';
import { copyFile, mkdir, mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { buildProgram } from '../../../src/cli/program.js';
import { startEmulator, type RunningEmulator } from '../../../src/emulator/index.js';
import { captureIo, copyExample } from '../helpers.js';
import { GITHUB_TOKEN, SECRETS, stepEnv, stepOf, stewardCommands, type Env, type ExpressionContext, type Step, type StewardCommand, type Workflow } from './workflows.js';

export { SECRETS };

/** A checkout in a runner: the repository root and the runner's files beside it. */
export interface Workspace {
  root: string;
  /** $GITHUB_STEP_SUMMARY */
  summary: string;
  /** The runner's variables (GITHUB_*, RUNNER_TEMP). */
  env: Env;
}

/** A steward command of a step, with the environment its script sees. */
export interface StepCommand extends StewardCommand {
  env: Env;
  key: string;
}

/** Repository variables and secrets that differ from the defaults for one run. */
export interface RunOverrides {
  vars?: Env;
  secrets?: Env;
}

/** One steward command as the step ran it. */
export interface CommandRun {
  source: string;
  args: string[];
  code: number;
  out: string;
  err: string;
}

/** Where each command that ran comes from (`plan.yml plan/plan #0`), to check every one ran. */
export const COMMANDS_RUN = new Set<string>();

/** The key of the index-th steward command of a step, as COMMANDS_RUN records it. */
export function commandKey(workflow: Workflow, job: string, step: Step, index: number): string {
  return `${workflow.file} ${job}/${step.id ?? step.name} #${index}`;
}

/** Commands that talk to an instance and so get `--base-url` of its emulator. */
const CONNECTED = new Set(['plan', 'apply', 'drift', 'diff']);

export class CiRunner {
  private readonly directories: string[] = [];

  private constructor(
    readonly emulators: { production: RunningEmulator; playground: RunningEmulator },
    readonly vars: Env,
  ) {}

  /** Emulators for production (`demo`) and the playground (`demo-playground`). */
  static async start(vars: Env = { STEWARD_PACKAGE: 'https://example.test/steward-0.1.0.tgz' }): Promise<CiRunner> {
    const [production, playground] = await Promise.all([
      startEmulator({ dataset: 'demo' }),
      startEmulator({ dataset: 'demo-playground' }),
    ]);
    return new CiRunner({ production, playground }, vars);
  }

  /** Stops both emulators and removes every checkout. */
  async close(): Promise<void> {
    await Promise.all([this.emulators.production.close(), this.emulators.playground.close()]);
    await Promise.all(this.directories.map((directory) => rm(directory, { recursive: true, force: true })));
  }

  /** A fresh checkout of the GitOps repository (one per workflow run). */
  async checkout(): Promise<Workspace> {
    const base = await mkdtemp(join(tmpdir(), 'steward-ci-'));
    this.directories.push(base);
    const root = join(base, 'repository');
    const temp = join(base, 'runner-temp');
    await mkdir(root);
    await mkdir(temp);
    const config = await copyExample('gitops');
    await rename(config, join(root, 'steward'));
    const summary = join(temp, 'step-summary.md');
    await writeFile(summary, '');
    return {
      root,
      summary,
      env: {
        CI: 'true',
        GITHUB_ACTIONS: 'true',
        GITHUB_WORKSPACE: root,
        GITHUB_STEP_SUMMARY: summary,
        GITHUB_OUTPUT: join(temp, 'output'),
        GITHUB_PATH: join(temp, 'path'),
        GITHUB_REPOSITORY: 'acme/analytics-config',
        GITHUB_SERVER_URL: 'https://github.com',
        GITHUB_SHA: '0123456789abcdef0123456789abcdef01234567',
        GITHUB_RUN_ID: '4242',
        RUNNER_TEMP: temp,
      },
    };
  }

  /** The expression contexts of a run: secrets, repository variables, github.token. */
  context(overrides: RunOverrides = {}): ExpressionContext {
    return { secrets: { ...SECRETS, ...overrides.secrets }, vars: { ...this.vars, ...overrides.vars }, github: { token: GITHUB_TOKEN } };
  }

  /** The steward commands of a step, expanded with the environment that step's script sees. */
  commands(workspace: Workspace, workflow: Workflow, job: string, step: string, overrides: RunOverrides = {}): StepCommand[] {
    const found = stepOf(workflow, job, step);
    if (found.run === undefined) throw new Error(`${workflow.file}: step ${step} of job ${job} has no run script`);
    const env = { ...workspace.env, ...stepEnv(workflow, job, found, this.context(overrides)) };
    return stewardCommands(found.run, env).map((command, index) => ({ ...command, env, key: commandKey(workflow, job, found, index) }));
  }

  /**
   * Runs one command in-process, as `steward ARGS --base-url EMULATOR` in the checkout (and
   * `--against-base-url` for a promotion's source, since the workflow talks to the real ones). Throws
   * when a secret appears in what it printed.
   */
  async run(workspace: Workspace, command: StepCommand): Promise<CommandRun> {
    COMMANDS_RUN.add(command.key);
    const args = [...command.args];
    if (CONNECTED.has(args[0]!)) args.push('--base-url', this.emulatorFor(args, '--env', '-e').url);
    if (args[0] === 'diff') args.push('--against-base-url', this.emulatorFor(args, '--against', '-a').url);
    const io = captureIo(command.env, workspace.root);
    const code = await invoke(args, io);
    const { out, err } = io.result(code);
    for (const [name, secret] of Object.entries(SECRETS)) {
      if (out.includes(secret) || err.includes(secret)) throw new Error(`\`${command.source}\` printed the secret ${name}`);
    }
    return { source: command.source, args, code, out, err };
  }

  /** Runs every steward command of a step in order, as a script that stops at the first failure. */
  async runStep(workspace: Workspace, workflow: Workflow, job: string, step: string, overrides: RunOverrides = {}): Promise<CommandRun[]> {
    const runs: CommandRun[] = [];
    for (const command of this.commands(workspace, workflow, job, step, overrides)) {
      const run = await this.run(workspace, command);
      runs.push(run);
      if (run.code !== 0) break;
    }
    return runs;
  }

  /**
   * Hands an artifact from the run that uploaded it to the run that downloads it, as
   * upload-artifact and download-artifact do: same artifact name, file put under `path`.
   */
  async handOff(
    from: { workspace: Workspace; workflow: Workflow; job: string; step: string },
    to: { workspace: Workspace; workflow: Workflow; job: string; step: string },
  ): Promise<string> {
    const upload = stepOf(from.workflow, from.job, from.step);
    const download = stepOf(to.workflow, to.job, to.step);
    if (!upload.uses?.startsWith('actions/upload-artifact@') || !download.uses?.startsWith('actions/download-artifact@')) {
      throw new Error('handOff needs an upload-artifact step and a download-artifact step');
    }
    if (upload.with?.name !== download.with?.name) {
      throw new Error(`artifact ${String(upload.with?.name)} is uploaded, but ${String(download.with?.name)} is downloaded`);
    }
    const file = String(upload.with!.path);
    const directory = join(to.workspace.root, String(download.with?.path ?? '.'));
    await mkdir(directory, { recursive: true });
    const target = join(directory, basename(file));
    await copyFile(join(from.workspace.root, file), target);
    return target;
  }

  /** The emulator of the environment an option names (production when it is not given). */
  private emulatorFor(args: string[], long: string, short: string): RunningEmulator {
    const index = args.findIndex((arg) => arg === long || arg === short);
    const environment = index === -1 ? 'production' : args[index + 1];
    if (environment !== 'production' && environment !== 'playground') throw new Error(`no emulator for environment ${String(environment)}`);
    return this.emulators[environment];
  }
}

/** Runs `steward ARGS` through the real commander program; returns the exit code. */
async function invoke(args: string[], io: ReturnType<typeof captureIo>): Promise<number> {
  const program = buildProgram(() => io);
  // Commander would exit the process on a usage error; make it throw and print to `io` instead.
  for (const command of [program, ...program.commands]) {
    command.exitOverride().configureOutput({ writeOut: io.stdout, writeErr: io.stderr });
  }
  process.exitCode = undefined;
  try {
    await program.parseAsync(['node', 'steward', ...args]);
    return Number(process.exitCode ?? 0);
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode;
    throw error;
  } finally {
    process.exitCode = undefined;
  }
}

/** The text of a file in the checkout. */
export function readInCheckout(workspace: Workspace, path: string): Promise<string> {
  return readFile(join(workspace.root, path), 'utf8');
}

/** The text of a file the run wrote to $RUNNER_TEMP (outside the checkout). */
export function readInTemp(workspace: Workspace, name: string): Promise<string> {
  return readFile(join(workspace.env.RUNNER_TEMP!, name), 'utf8');
}
