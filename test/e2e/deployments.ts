// Two deployments side by side for export and promotion tests: a `demo` emulator as production
// and a `demo-playground` one as playground (same e-mails and names, different ids), a copy of
// the gitops example, and steward's commands run in-process against either.
import { copyFile, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runApply, type ApplyOptions } from '../../src/cli/apply.js';
import { runDiff, type DiffOptions } from '../../src/cli/diff.js';
import { runExport, type ExportOptions } from '../../src/cli/export.js';
import { runPlan, type PlanOptions } from '../../src/cli/plan.js';
import { startEmulator, type EmulatorOptions, type RunningEmulator } from '../../src/emulator/index.js';
import { captureIo, copyExample, keyHasUser, PRODUCTION_TOKEN, type Result } from './helpers.js';

export const PLAYGROUND_TOKEN = 'playground-org-admin-token';

export type EnvironmentName = 'production' | 'playground';

/** Both deployments, the gitops example pointed at them, and the commands a user would type. */
export class Deployments {
  env: Record<string, string | undefined> = { STEWARD_PRODUCTION_TOKEN: PRODUCTION_TOKEN, STEWARD_PLAYGROUND_TOKEN: PLAYGROUND_TOKEN };

  private constructor(
    readonly production: RunningEmulator,
    readonly playground: RunningEmulator,
    /** A copy of examples/gitops (every routine naming its owner when the keys are tied to no user). */
    readonly gitops: string,
    /** The emulator options both deployments were started with (profile and knobs). */
    readonly options: EmulatorOptions,
  ) {}

  /** Both deployments under one profile (and knobs); `playground` overrides the playground's options (e.g. its seed). */
  static async start(options: EmulatorOptions = {}, playground: EmulatorOptions = {}): Promise<Deployments> {
    const [production, played] = await Promise.all([
      startEmulator({ dataset: 'demo', ...options }),
      startEmulator({ ...(playground.data === undefined ? { dataset: 'demo-playground' as const } : {}), ...options, ...playground }),
    ]);
    return new Deployments(production, played, await copyExample('gitops', { namedOwners: !keyHasUser(options) }), options);
  }

  emulator(environment: EnvironmentName): RunningEmulator {
    return environment === 'production' ? this.production : this.playground;
  }

  async close(): Promise<void> {
    await Promise.all([this.production.close(), this.playground.close()]);
  }

  async export(environment: EnvironmentName, options: Partial<ExportOptions> = {}): Promise<Result> {
    const io = captureIo(this.env, this.gitops);
    return io.result(await runExport({ config: this.gitops, env: environment, baseUrl: this.emulator(environment).url, ...options }, io));
  }

  /** `steward diff --env production --against playground`, both pointed at their emulators. */
  async diff(options: Partial<DiffOptions> = {}): Promise<Result> {
    const io = captureIo(this.env, this.gitops);
    const connection = { config: this.gitops, env: 'production', against: 'playground', baseUrl: this.production.url, againstBaseUrl: this.playground.url };
    return io.result(await runDiff({ ...connection, detailedExitcode: true, ...options }, io));
  }

  async plan(environment: EnvironmentName, options: Partial<PlanOptions> = {}): Promise<Result> {
    const io = captureIo(this.env, this.gitops);
    return io.result(await runPlan({ config: this.gitops, env: environment, baseUrl: this.emulator(environment).url, detailedExitcode: true, ...options }, io));
  }

  async apply(environment: EnvironmentName, planFile?: string, options: Partial<ApplyOptions> = {}): Promise<Result> {
    const io = captureIo(this.env, this.gitops);
    return io.result(await runApply(planFile, { config: this.gitops, env: environment, baseUrl: this.emulator(environment).url, autoApprove: true, ...options }, io));
  }

  /** A new config directory: the gitops environments file and `exported.yaml` beside it. */
  async besideEnvironments(yaml: string): Promise<string> {
    const directory = await mkdtemp(join(tmpdir(), 'steward-exported-'));
    await copyFile(join(this.gitops, 'environments.yaml'), join(directory, 'environments.yaml'));
    await writeFile(join(directory, 'exported.yaml'), yaml);
    return directory;
  }

  /** Edits the gitops copy's environments file. */
  async editEnvironments(edit: (text: string) => string): Promise<void> {
    const path = join(this.gitops, 'environments.yaml');
    await writeFile(path, edit(await readFile(path, 'utf8')));
  }

  /** A raw API call to one deployment, as someone using the app (or another tool) would make. */
  async call(environment: EnvironmentName, method: string, path: string, body?: unknown): Promise<Response> {
    const token = environment === 'production' ? PRODUCTION_TOKEN : PLAYGROUND_TOKEN;
    return fetch(`${this.emulator(environment).url}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  }
}

/** steward plan of `directory` against one deployment (e.g. an exported file beside the environments). */
export async function planDirectory(deployments: Deployments, directory: string, environment: EnvironmentName): Promise<Result> {
  const io = captureIo(deployments.env, directory);
  return io.result(await runPlan({ config: directory, env: environment, baseUrl: deployments.emulator(environment).url, detailedExitcode: true }, io));
}
