// End-to-end helpers: a copy of an example config pointed at an emulator in either profile (the
// two sides of gaps.md's open points), and the commands run in-process with captured output, as a
// user would type them.
import { cp, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runApply, type ApplyOptions } from '../../src/cli/apply.js';
import type { CommandIo } from '../../src/cli/context.js';
import { runPlan, type PlanOptions } from '../../src/cli/plan.js';
import {
  EMULATOR_PROFILES,
  PROFILE_KNOBS,
  startEmulator,
  type EmulatorOptions,
  type EmulatorProfile,
  type OrgKeyUser,
  type RunningEmulator,
} from '../../src/emulator/index.js';

const EXAMPLES = fileURLToPath(new URL('../../examples/', import.meta.url));

export const PRODUCTION_TOKEN = 'demo-org-admin-token';

/** An environments file with production alone, paced well above the platform's 60 requests a minute. */
export const PRODUCTION_ENVIRONMENTS = `version: 1
environments:
  production:
    baseUrl: https://acme.example.com
    tokenEnv: STEWARD_PRODUCTION_TOKEN
    requestsPerMinute: 6000
`;

/** Both emulator profiles, for `describe.each`: every scenario proves both sides of the open points. */
export const PROFILES: readonly EmulatorProfile[] = EMULATOR_PROFILES;

/** The user who created the demo datasets' organization keys (whoami names her in the vendor profile). */
export const KEY_CREATOR = 'ada@acme.example';

/** Whether whoami names the organization key's creator, under these emulator options. */
export function keyHasUser(options: Pick<EmulatorOptions, 'profile' | 'orgKeyUser'> = {}): boolean {
  return (options.orgKeyUser ?? PROFILE_KNOBS[options.profile ?? 'vendor'].orgKeyUser) === 'creator';
}

/** How a plan names a routine of the key's creator: by name, or `owner/name` when the key has no user of its own. */
export function creatorRoutineKey(options: Pick<EmulatorOptions, 'profile' | 'orgKeyUser'>, name: string): string {
  return keyHasUser(options) ? name : `${KEY_CREATOR}/${name}`;
}

/** The step id of a routine of the key's creator (`routines//name`, or by her user id when the key has no user). */
export function creatorRoutineStepId(options: Pick<EmulatorOptions, 'profile' | 'orgKeyUser'>, emulator: RunningEmulator, name: string): string {
  return `routines/${keyHasUser(options) ? '' : emulator.state.userId(KEY_CREATOR)}/${name}`;
}

/**
 * Gives every routine without `owner:` in `routines.yaml` of `directory` the key's creator as its
 * owner: with an organization key tied to no user, a routine must name its owner.
 */
export async function nameRoutineOwners(directory: string, owner = KEY_CREATOR): Promise<void> {
  const path = join(directory, 'routines.yaml');
  const text = await readFile(path, 'utf8');
  await writeFile(path, text.replace(/^ {2}- name: .*\n(?! {4}owner:)/gm, (line) => `${line}    owner: ${owner}\n`));
}

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
export async function copyExample(name: string, options: { namedOwners?: boolean } = {}): Promise<string> {
  const directory = await mkdtemp(join(tmpdir(), `steward-${name}-`));
  await cp(join(EXAMPLES, name), directory, { recursive: true });
  const environments = join(directory, 'environments.yaml');
  const text = await readFile(environments, 'utf8');
  await writeFile(environments, text.replace(/requestsPerMinute: \d+/g, 'requestsPerMinute: 6000'));
  if (options.namedOwners === true) await nameRoutineOwners(directory);
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

/**
 * Starts an emulator with the demo dataset and returns steward pointed at a copy of the gitops
 * example. Where the organization key is tied to no user (the other profile), every routine
 * names its owner: the key's creator, whose own routines they are in the vendor profile.
 */
export async function gitopsAgainstDemo(options: EmulatorOptions = {}): Promise<Steward> {
  const emulator = await startEmulator({ dataset: 'demo', ...options });
  return new Steward(emulator, await copyExample('gitops', { namedOwners: !keyHasUser(options) }));
}

export type { EmulatorProfile, OrgKeyUser };
