// What every command shares, without the API client: where output goes (CommandIo), the
// version, the config path default, colour, errors and annotations. Kept apart from context.ts
// (which builds API clients) so that `steward validate` starts without loading the client.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Diagnostic } from '../config/types.js';
import { StewardError, toErrorEnvelope, type ErrorEnvelope } from '../errors.js';
import { githubAnnotations } from '../render/diagnostics.js';
import { inertJson, terminalText } from '../render/inert.js';

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
  /** Asks for a line of text on the terminal (`steward init`); undefined when there is none. */
  ask?: (question: string) => Promise<string>;
  /** Set once a command holds a token: removes it from text the command writes to files. */
  redact?: (text: string) => string;
  /** The clock a plan is made at (its `createdAt`, and the routines' next runs); default: now. */
  now?: () => Date;
}


const PACKAGE = JSON.parse(readFileSync(fileURLToPath(new URL('../../package.json', import.meta.url)), 'utf8')) as { name: string; version: string };

export const STEWARD_VERSION = PACKAGE.version;
/** The name steward is installed under (`node_modules/<name>`); the command is `steward` whatever it is. */
export const PACKAGE_NAME = PACKAGE.name;

/**
 * The config path: as given (`--config .` for the working directory itself), else
 * `./steward.yaml`, else a `./steward/` directory. Never every *.yaml of the working directory
 * unasked: a repository root holds other YAML (mkdocs.yml, workflows) that is not steward's.
 */
export function configPath(given: string | undefined, cwd: string): string {
  if (given !== undefined) return resolve(cwd, given);
  const file = resolve(cwd, 'steward.yaml');
  if (existsSync(file)) return file;
  const directory = resolve(cwd, 'steward');
  if (existsSync(directory) && statSync(directory).isDirectory()) return directory;
  throw new StewardError('config.not-found', `no configuration here: neither ./steward.yaml nor a ./steward/ directory exists in ${cwd}`, 'user', {
    hint: 'pass --config PATH (a file, or a directory of *.yaml files; --config . for this directory), or create one with `npx --no-install steward init`',
  });
}

/**
 * Whether to colour: never with --no-color; else as FORCE_COLOR says when it is set (`0` or
 * `false` off, anything else, even empty, on: Node's and chalk's reading); else never with a
 * non-empty NO_COLOR (no-color.org); else only on a terminal.
 */
export function useColor(io: CommandIo, option: boolean | undefined): boolean {
  if (option === false) return false;
  const force = io.env.FORCE_COLOR;
  if (force !== undefined) return force !== '0' && force !== 'false';
  if (io.env.NO_COLOR !== undefined && io.env.NO_COLOR !== '') return false;
  return io.isTTY;
}

/**
 * Workflow commands (`::error file=…`) for GitHub Actions. The runner reads them from stdout and
 * stderr alike (actions/runner ScriptHandler.cs hands both streams to its command parser), so
 * under --json they go to stderr and stdout stays one JSON document.
 */
export function annotate(io: CommandIo, diagnostics: Diagnostic[], json: boolean): void {
  if (io.env.GITHUB_ACTIONS !== 'true' || diagnostics.length === 0) return;
  (json ? io.stderr : io.stdout)(githubAnnotations(diagnostics));
}

/**
 * A wrong or missing --env is the command's fault, not the config's: when choosing the
 * environment is the only error, it is reported as such, naming the declared environments.
 */
export function environmentError(diagnostics: readonly Diagnostic[], declared: readonly string[]): StewardError | undefined {
  const errors = diagnostics.filter((diagnostic) => diagnostic.severity === 'error');
  const [only] = errors;
  if (errors.length !== 1 || only === undefined || (only.code !== 'environment.unknown' && only.code !== 'environment.required')) return undefined;
  return new StewardError(only.code === 'environment.unknown' ? 'cli.env-unknown' : 'cli.env-required', only.summary, 'user', {
    ...(only.hint === undefined ? {} : { hint: only.hint }),
    details: { environments: [...declared] },
  });
}


/** Prints an error the way every command does (or its JSON envelope) and returns exit code 1. */
export function reportError(io: CommandIo, error: unknown, json: boolean): number {
  const envelope = toErrorEnvelope(error).error;
  annotate(io, positionedDiagnostics(envelope), json);
  if (json) {
    io.stdout(`${inertJson(JSON.stringify(toErrorEnvelope(error), null, 2))}\n`);
    return 1;
  }
  // Messages may quote the server or the config: each line is made inert for the terminal.
  const inert = (text: string) => text.split('\n').map(terminalText).join('\n');
  io.stderr(`Error: ${positionPrefix(envelope.position)}${inert(envelope.message)}\n${envelope.hint ? `Hint: ${inert(envelope.hint)}\n` : ''}`);
  return 1;
}

/** An error about declared objects as one diagnostic per position, for GitHub annotations. */
function positionedDiagnostics(envelope: ErrorEnvelope['error']): Diagnostic[] {
  const positions = Array.isArray(envelope.positions) ? (envelope.positions as unknown[]) : [envelope.position];
  return positions.flatMap((position) => {
    if (positionPrefix(position) === '') return [];
    const { file, line, col } = position as { file: string; line: number; col: number };
    return [{ severity: 'error' as const, code: envelope.code, summary: envelope.message, ...(envelope.hint === undefined ? {} : { hint: envelope.hint }), location: { file, line, col } }];
  });
}

/** `file:line:col: ` of an error about a declared object (`details.position`), or ''. */
export function positionPrefix(position: unknown): string {
  if (position === null || typeof position !== 'object') return '';
  const { file, line, col } = position as { file?: unknown; line?: unknown; col?: unknown };
  return typeof file === 'string' && typeof line === 'number' && typeof col === 'number' ? `${file}:${line}:${col}: ` : '';
}

/** The real process's input and output. */
export function processIo(): CommandIo {
  return {
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
    env: process.env,
    cwd: process.cwd(),
    isTTY: process.stdout.isTTY === true,
    ...(process.stdin.isTTY ? { confirm: askOnTerminal, ask: readLineOnTerminal } : {}),
  };
}

async function askOnTerminal(question: string): Promise<boolean> {
  return (await readLineOnTerminal(question)).trim() === 'yes';
}

async function readLineOnTerminal(question: string): Promise<string> {
  const { createInterface } = await import('node:readline/promises');
  const terminal = createInterface({ input: process.stdin, output: process.stdout });
  try {
    return await terminal.question(question);
  } finally {
    terminal.close();
  }
}
