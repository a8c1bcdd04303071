// What the plan-like commands share: where output goes, the config path default, loading the
// config for one environment, and a client built from the environment's token variable.
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { ApiClient } from '../api/client.js';
import { PlatformApi } from '../api/platform.js';
import { loadConfig } from '../config/load.js';
import type { LoadedConfig } from '../config/types.js';
import { StewardError, toErrorEnvelope } from '../errors.js';
import { diagnosticToJson, githubAnnotations, renderDiagnostics } from '../render/diagnostics.js';

/** Where a command reads and writes; tests pass their own. */
export interface CommandIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  env: Record<string, string | undefined>;
  cwd: string;
  /** Whether stdout is a terminal (colour, prompts). */
  isTTY: boolean;
  /** Asks a yes/no question on the terminal; undefined when there is none. */
  confirm?: (question: string) => Promise<boolean>;
}

export interface ConnectionOptions {
  config?: string;
  env?: string;
  baseUrl?: string;
  debug?: boolean;
  color?: boolean;
  /** Overrides the environment's request budget (for a raised limit, or a local emulator). */
  requestsPerMinute?: number;
}

export const STEWARD_VERSION = (
  JSON.parse(readFileSync(fileURLToPath(new URL('../../package.json', import.meta.url)), 'utf8')) as { version: string }
).version;

/** The config path: as given, else `steward.yaml` in the working directory, else the directory. */
export function configPath(given: string | undefined, cwd: string): string {
  if (given !== undefined) return resolve(cwd, given);
  const file = resolve(cwd, 'steward.yaml');
  return existsSync(file) ? file : cwd;
}

/** Colour only on a terminal, never with NO_COLOR, and not when turned off by --no-color. */
export function useColor(io: CommandIo, option: boolean | undefined): boolean {
  return option !== false && io.isTTY && (io.env.NO_COLOR === undefined || io.env.NO_COLOR === '');
}

/** Loads and validates the config for one environment; prints the diagnostics and throws if invalid. */
export async function loadForEnvironment(io: CommandIo, options: ConnectionOptions): Promise<LoadedConfig> {
  const path = configPath(options.config, io.cwd);
  const result = await loadConfig(path, { environment: options.env, processEnv: io.env });
  const color = useColor(io, options.color);
  const sources = (file: string) => {
    try {
      return readFileSync(file, 'utf8');
    } catch {
      return undefined;
    }
  };
  if (!result.ok) {
    io.stderr(renderDiagnostics(result.diagnostics, { color, sources }));
    if (io.env.GITHUB_ACTIONS === 'true') io.stdout(githubAnnotations(result.diagnostics));
    const errors = result.diagnostics.filter((diagnostic) => diagnostic.severity === 'error').length;
    throw new StewardError('config.invalid', `the configuration at ${path} is not valid (${errors} error${errors === 1 ? '' : 's'} above)`, 'user', {
      details: { diagnostics: result.diagnostics.map(diagnosticToJson) },
    });
  }
  if (result.diagnostics.length > 0) io.stderr(renderDiagnostics(result.diagnostics, { color, sources }));
  return result.loaded;
}

/** The base URL to talk to: --base-url overrides the environment's. */
export function baseUrlOf(loaded: LoadedConfig, options: ConnectionOptions): string {
  return options.baseUrl ?? loaded.environment.baseUrl;
}

/** A client for the selected environment, with the token read from its variable. */
export function connect(io: CommandIo, loaded: LoadedConfig, options: ConnectionOptions): { client: ApiClient; api: PlatformApi } {
  const variable = loaded.environment.tokenEnv;
  const token = io.env[variable];
  if (token === undefined || token === '') {
    throw new StewardError(
      'auth.missing-token',
      `the environment variable ${variable} is ${token === '' ? 'empty' : 'not set'}; it holds the API token for environment "${loaded.environmentName}"`,
      'user',
      { hint: `export ${variable}=<token> (in CI, from a secret)` },
    );
  }
  const requestsPerMinute = options.requestsPerMinute ?? loaded.environment.requestsPerMinute;
  const client = new ApiClient({
    baseUrl: baseUrlOf(loaded, options),
    token,
    ...(requestsPerMinute === undefined ? {} : { requestsPerMinute }),
    // --debug logs every attempt; without it, only retries that make the user wait are told.
    ...(options.debug ? { log: (line: string) => io.stderr(`${line}\n`) } : { notice: (line: string) => io.stderr(`${line}\n`) }),
  });
  return { client, api: new PlatformApi(client) };
}

/** Prints an error the way every command does (or its JSON envelope) and returns exit code 1. */
export function reportError(io: CommandIo, error: unknown, json: boolean): number {
  if (json) {
    io.stdout(`${JSON.stringify(toErrorEnvelope(error), null, 2)}\n`);
    return 1;
  }
  const envelope = toErrorEnvelope(error).error;
  io.stderr(`Error: ${envelope.message}\n${envelope.hint ? `Hint: ${envelope.hint}\n` : ''}`);
  return 1;
}

/** The real process's input and output. */
export function processIo(): CommandIo {
  return {
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
    env: process.env,
    cwd: process.cwd(),
    isTTY: process.stdout.isTTY === true,
    ...(process.stdin.isTTY ? { confirm: askOnTerminal } : {}),
  };
}

async function askOnTerminal(question: string): Promise<boolean> {
  const { createInterface } = await import('node:readline/promises');
  const terminal = createInterface({ input: process.stdin, output: process.stdout });
  try {
    return (await terminal.question(question)).trim() === 'yes';
  } finally {
    terminal.close();
  }
}

/** The options a follow-up command needs to reach the same config and instance, as typed. */
export function sameTarget(options: Pick<ConnectionOptions, 'config' | 'baseUrl'>): string {
  const quote = (value: string) => (/^[\w@%+=:,./-]+$/.test(value) ? value : `'${value.replace(/'/g, "'\\''")}'`);
  return [
    ...(options.config === undefined ? [] : [`--config ${quote(options.config)}`]),
    ...(options.baseUrl === undefined ? [] : [`--base-url ${quote(options.baseUrl)}`]),
  ].map((part) => ` ${part}`).join('');
}
