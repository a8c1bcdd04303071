// What the plan-like commands share: loading the config for one environment, and a client built
// from the environment's token variable. What needs no API client (CommandIo, the config path
// default, colour, errors) lives in io.ts and is re-exported here.
import { readFileSync } from 'node:fs';
import { ApiClient, type ClientEvent } from '../api/client.js';
import { Redactor } from '../api/log.js';
import { PlatformApi } from '../api/platform.js';
import { loadConfig } from '../app/config.js';
import type { LoadedConfig } from '../config/types.js';
import { StewardError } from '../errors.js';
import { diagnosticToJson, renderDiagnostics } from '../render/diagnostics.js';
import { annotate, configPath, environmentError, useColor, type CommandIo } from './io.js';

export { annotate, configPath, environmentError, PACKAGE_NAME, positionPrefix, processIo, reportError, STEWARD_VERSION, useColor, type CommandIo } from './io.js';

export interface ConnectionOptions {
  config?: string;
  env?: string;
  baseUrl?: string;
  debug?: boolean;
  color?: boolean;
  /** Overrides the environment's request budget (for a raised limit, or a local emulator). */
  requestsPerMinute?: number;
  /** Seconds one request may take, retries included (else STEWARD_REQUEST_TIMEOUT, else 120). */
  requestTimeout?: number;
  /** Machine output: stdout carries exactly one JSON document, whatever happens. */
  json?: boolean;
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
  const json = options.json === true;
  if (!result.ok) {
    const wrongEnvironment = environmentError(result.diagnostics, result.environments);
    if (wrongEnvironment !== undefined) throw wrongEnvironment;
    io.stderr(renderDiagnostics(result.diagnostics, { color, sources }));
    annotate(io, result.diagnostics, json);
    const errors = result.diagnostics.filter((diagnostic) => diagnostic.severity === 'error').length;
    const counted = `${errors} error${errors === 1 ? '' : 's'}`;
    // The JSON envelope carries the diagnostics themselves; "above" only makes sense on a terminal.
    throw new StewardError('config.invalid', `the configuration at ${path} is not valid (${json ? counted : `${counted} above`})`, 'user', {
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
export function connect(
  io: CommandIo,
  loaded: LoadedConfig,
  options: ConnectionOptions,
  /** Hears the client's events (progress lines and heartbeats). */
  observe?: (event: ClientEvent) => void,
): { client: ApiClient; api: PlatformApi } {
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
  redactOutput(io, token);
  const requestsPerMinute = options.requestsPerMinute ?? loaded.environment.requestsPerMinute;
  const timeoutMs = requestTimeoutMs(io, options);
  const client = new ApiClient({
    baseUrl: baseUrlOf(loaded, options),
    token,
    ...(requestsPerMinute === undefined ? {} : { requestsPerMinute }),
    ...(timeoutMs === undefined ? {} : { requestTimeoutMs: timeoutMs }),
    // --debug logs every attempt; without it, only retries that make the user wait are told.
    // On a terminal a status line may be drawn where the notice goes: it is cleared first (the
    // status line is redrawn under the notice), so the two never run together.
    ...(options.debug ? { log: (line: string) => io.stderr(`${line}\n`) } : { notice: (line: string) => io.stderr(`${io.isTTY ? '\r\x1b[2K' : ''}${line}\n`) }),
    ...(observe === undefined ? {} : { observe }),
  });
  return { client, api: new PlatformApi(client) };
}

/** The time limit of one request in ms: --request-timeout, else STEWARD_REQUEST_TIMEOUT (seconds), else the client's default. */
function requestTimeoutMs(io: CommandIo, options: ConnectionOptions): number | undefined {
  if (options.requestTimeout !== undefined) return options.requestTimeout * 1000;
  const fromEnv = io.env.STEWARD_REQUEST_TIMEOUT;
  if (fromEnv === undefined || fromEnv.trim() === '') return undefined;
  const seconds = Number(fromEnv);
  if (!Number.isFinite(seconds) || seconds <= 0) {
    throw new StewardError('config.invalid-option', `STEWARD_REQUEST_TIMEOUT must be a number of seconds above 0, got ${JSON.stringify(fromEnv.slice(0, 20))}`, 'user');
  }
  return seconds * 1000;
}

/**
 * From the moment a command holds a token, everything it writes passes the token's Redactor:
 * names, messages and errors may quote a server that echoes the token in any form.
 */
function redactOutput(io: CommandIo, token: string): void {
  const redactor = new Redactor(token);
  const { stdout, stderr } = io;
  const earlier = io.redact;
  io.stdout = (text) => stdout(redactor.redactSecret(text));
  io.stderr = (text) => stderr(redactor.redactSecret(text));
  io.redact = (text) => redactor.redactSecret(earlier === undefined ? text : earlier(text));
}

/** The options a follow-up command needs to reach the same config and instance, as typed. */
export function sameTarget(options: Pick<ConnectionOptions, 'config' | 'baseUrl'>): string {
  const quote = (value: string) => (/^[\w@%+=:,./-]+$/.test(value) ? value : `'${value.replace(/'/g, "'\\''")}'`);
  return [
    ...(options.config === undefined ? [] : [`--config ${quote(options.config)}`]),
    ...(options.baseUrl === undefined ? [] : [`--base-url ${quote(options.baseUrl)}`]),
  ].map((part) => ` ${part}`).join('');
}
