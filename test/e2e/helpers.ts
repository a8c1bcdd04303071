// End-to-end helpers: a copy of an example config pointed at an emulator, and the commands run
// in-process with captured output, as a user would type them.
import { cp, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runApply, type ApplyOptions } from '../../src/cli/apply.js';
import type { CommandIo } from '../../src/cli/context.js';
import { runPlan, type PlanOptions } from '../../src/cli/plan.js';
import { startEmulator, type EmulatorOptions, type RunningEmulator } from '../../src/emulator/index.js';

const EXAMPLES = fileURLToPath(new URL('../../examples/', import.meta.url));

export const PRODUCTION_TOKEN = 'demo-org-admin-token';

export interface Result {
  code: number;
  out: string;
  err: string;
}

/** Output captured in memory; no terminal, so no colour and no prompt. */
export function captureIo(env: Record<string, string | undefined>, cwd: string): CommandIo & { result(code: number): Result } {
  let out = '';
  let err = '';
  return {
    stdout: (text) => {
      out += text;
    },
    stderr: (text) => {
      err += text;
    },
    env,
    cwd,
    isTTY: false,
    result: (code) => ({ code, out, err }),
  };
}

/**
 * A copy of an example in a temporary directory. The emulator has no rate limit, so the copy's
 * request budget is raised to keep the tests quick; pacing itself is tested with the client.
 */
export async function copyExample(name: string): Promise<string> {
  const directory = await mkdtemp(join(tmpdir(), `steward-${name}-`));
  await cp(join(EXAMPLES, name), directory, { recursive: true });
  const environments = join(directory, 'environments.yaml');
  const text = await readFile(environments, 'utf8');
  await writeFile(environments, text.replace(/requestsPerMinute: \d+/g, 'requestsPerMinute: 6000'));
  return directory;
}

/** steward against one emulator, with the config in `directory` and the production environment. */
export class Steward {
  constructor(
    readonly emulator: RunningEmulator,
    readonly directory: string,
    readonly environment = 'production',
    readonly env: Record<string, string | undefined> = { STEWARD_PRODUCTION_TOKEN: PRODUCTION_TOKEN },
  ) {}

  private connection() {
    return { config: this.directory, env: this.environment, baseUrl: this.emulator.url };
  }

  async plan(options: Partial<PlanOptions> = {}): Promise<Result> {
    const io = captureIo(this.env, this.directory);
    return io.result(await runPlan({ ...this.connection(), detailedExitcode: true, ...options }, io));
  }

  async apply(planFile?: string, options: Partial<ApplyOptions> = {}): Promise<Result> {
    const io = captureIo(this.env, this.directory);
    return io.result(await runApply(planFile, { ...this.connection(), autoApprove: true, ...options }, io));
  }
}

/** Starts an emulator with the demo dataset and returns steward pointed at a copy of the gitops example. */
export async function gitopsAgainstDemo(options: EmulatorOptions = {}): Promise<Steward> {
  const emulator = await startEmulator({ dataset: 'demo', ...options });
  return new Steward(emulator, await copyExample('gitops'));
}
