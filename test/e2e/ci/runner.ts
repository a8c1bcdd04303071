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
import {
  actionCommand,
  actionInputs,
  actionScript,
  GITHUB_TOKEN,
  isStewardAction,
  SECRETS,
  stepEnv,
  stepOf,
  stewardCommands,
  type Env,
  type ExpressionContext,
  type Step,
  type StewardCommand,
  type Workflow,
} from './workflows.js';

export { SECRETS };

/** A checkout in a runner: the repository root and the runner's files beside it. */
export interface Workspace {
  root: string;
  /** $GITHUB_STEP_SUMMARY */
  summary: string;
  /** The runner's variables (GITHUB_*, RUNNER_TEMP). */
  env: Env;
  /** The outputs of the steward Action's steps that ran, by step id (`steps.<id>.outputs`). */
  outputs: Record<string, Env>;
}

/** A steward command of a step, with the environment its script sees. */
export interface StepCommand extends StewardCommand {
  env: Env;
  key: string;
  /** For a step of the steward Action: its inputs, for the script's report afterwards. */
  inputs?: Env;
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
      outputs: {},
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

  /** The expression contexts of a run: secrets, repository variables, github.token, the steps' outputs so far. */
  context(overrides: RunOverrides = {}, workspace?: Workspace): ExpressionContext {
    const steps = Object.fromEntries(Object.entries(workspace?.outputs ?? {}).map(([id, outputs]) => [id, { outputs }]));
    return { secrets: { ...SECRETS, ...overrides.secrets }, vars: { ...this.vars, ...overrides.vars }, github: { token: GITHUB_TOKEN }, steps };
  }

  /**
   * The steward commands of a step, expanded with the environment that step's script sees; for
   * a step of the steward Action, the one command its script composes, with the token exported.
   */
  commands(workspace: Workspace, workflow: Workflow, job: string, step: string, overrides: RunOverrides = {}): StepCommand[] {
    const found = stepOf(workflow, job, step);
    const context = this.context(overrides, workspace);
    const env = { ...workspace.env, ...stepEnv(workflow, job, found, context) };
    if (isStewardAction(found)) {
      const inputs = actionInputs(found, context);
      const command = actionCommand(found, inputs, workspace.env.RUNNER_TEMP!);
      if (command === undefined) return [];
      const token = command.tokenVariable === '' ? {} : { [command.tokenVariable]: inputs.INPUT_TOKEN! };
      return [{ source: command.source, args: command.args, env: { ...env, ...token }, key: commandKey(workflow, job, found, 0), inputs }];
    }
    if (found.run === undefined) throw new Error(`${workflow.file}: step ${step} of job ${job} has no run script`);
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

  /**
   * Runs every steward command of a step in order, as a script that stops at the first failure.
   * A step of the steward Action runs as its script would: a clean slate in RUNNER_TEMP, the
   * command in-process, then the script's report (outputs, job summary), whose outputs later
   * steps' expressions read.
   */
  async runStep(workspace: Workspace, workflow: Workflow, job: string, step: string, overrides: RunOverrides = {}): Promise<CommandRun[]> {
    const found = stepOf(workflow, job, step);
    if (isStewardAction(found)) {
      const [command] = this.commands(workspace, workflow, job, step, overrides);
      if (command === undefined) return [];
      const scriptEnv = { ...command.inputs, RUNNER_TEMP: workspace.env.RUNNER_TEMP!, GITHUB_STEP_SUMMARY: workspace.summary };
      actionScript(['prepare'], scriptEnv);
      const run = await this.run(workspace, command);
      await writeFile(join(workspace.env.RUNNER_TEMP!, 'steward', 'stdout'), run.out);
      const output = join(workspace.env.RUNNER_TEMP!, 'step-output');
      await writeFile(output, '');
      try {
        actionScript(['report', String(run.code)], { ...scriptEnv, GITHUB_OUTPUT: output, GITHUB_SERVER_URL: 'https://github.com', GITHUB_REPOSITORY: 'acme/analytics-config', GITHUB_RUN_ID: '4242' });
      } catch {
        // The report fails the step on a failed command; its outputs are written first.
      }
      const lines = (await readFile(output, 'utf8')).split('\n').filter((line) => line.includes('='));
      if (found.id !== undefined) workspace.outputs[found.id] = Object.fromEntries(lines.map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]));
      return [run];
    }
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
    if (!isStewardAction(upload) || !download.uses?.startsWith('actions/download-artifact@')) {
      throw new Error('handOff needs a step of the steward Action and a download-artifact step');
    }
    // As action.yml names and uploads the artifact: the plan file, under artifact-name or steward-plan-<environment>.
    const inputs = upload.with ?? {};
    const name = inputs['artifact-name'] ?? (inputs.environment === undefined ? 'steward-plan' : `steward-plan-${String(inputs.environment)}`);
    if (name !== download.with?.name) throw new Error(`artifact ${String(name)} is uploaded, but ${String(download.with?.name)} is downloaded`);
    if (inputs.upload === 'false') throw new Error(`${from.step} uploads no artifact`);
    const file = from.workspace.outputs[upload.id ?? '']?.['plan-file'];
    if (file === undefined || file === '') throw new Error(`${from.step} saved no plan file (has it run?)`);
    const directory = join(to.workspace.root, String(download.with?.path ?? '.'));
    await mkdir(directory, { recursive: true });
    const target = join(directory, basename(file));
    await copyFile(file, target);
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
export async function invoke(args: string[], io: ReturnType<typeof captureIo>): Promise<number> {
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
