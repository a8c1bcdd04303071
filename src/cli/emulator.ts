// `steward emulator`: runs the platform API emulator in the foreground until Ctrl+C, so users can
// try steward without an account and other tools can test against it. The first output line is
// always `listening on http://HOST:PORT`, which scripts wait for.
import { Command, Option } from 'commander';
import {
  DATASET_NAMES,
  FAULT_SYNTAX_HELP,
  startEmulator,
  type DatasetName,
  type EmulatorOptions,
  type RunningEmulator,
} from '../emulator/index.js';
import { StewardError } from '../errors.js';
import { processIo, reportError, type CommandIo } from './context.js';

/** The options as commander hands them over (strings until checked). */
export interface EmulatorCommandOptions {
  host?: string;
  port?: string;
  data?: string;
  dataset?: string;
  latency?: string;
  requestsPerMinute?: string;
  retryAfter?: boolean;
  routineUpdate?: string;
  state?: string;
  fault?: string[];
}

export const DEFAULT_EMULATOR_PORT = 4010;

function invalid(message: string): StewardError {
  return new StewardError('emulator.option.invalid', message, 'user');
}

function wholeNumber(raw: string, option: string, min: number): number {
  if (!/^\d+$/.test(raw.trim()) || Number(raw) < min) throw invalid(`${option} must be a whole number >= ${min}, got \`${raw}\``);
  return Number(raw);
}

/** Checks the command's options and turns them into emulator options; throws for bad values. */
export function emulatorOptionsFrom(raw: EmulatorCommandOptions): EmulatorOptions {
  if (raw.data !== undefined && raw.dataset !== undefined) throw invalid('give either --data FILE or --dataset NAME, not both');
  if (raw.dataset !== undefined && !(DATASET_NAMES as readonly string[]).includes(raw.dataset)) {
    throw invalid(`--dataset must be one of ${DATASET_NAMES.join(', ')}, got \`${raw.dataset}\``);
  }
  if (raw.routineUpdate !== undefined && raw.routineUpdate !== 'patch' && raw.routineUpdate !== 'put') {
    throw invalid(`--routine-update must be patch or put, got \`${raw.routineUpdate}\``);
  }
  const latency = raw.latency === undefined ? undefined : Number(raw.latency);
  if (latency !== undefined && (raw.latency!.trim() === '' || !Number.isFinite(latency) || latency < 0)) {
    throw invalid(`--latency must be a number of milliseconds >= 0, got \`${raw.latency}\``);
  }
  const port = raw.port === undefined ? DEFAULT_EMULATOR_PORT : wholeNumber(raw.port, '--port', 0);
  if (port > 65535) throw invalid(`--port must be at most 65535, got \`${raw.port}\``);
  return {
    host: raw.host ?? '127.0.0.1',
    port,
    ...(raw.data === undefined ? {} : { data: raw.data }),
    ...(raw.dataset === undefined ? {} : { dataset: raw.dataset as DatasetName }),
    ...(latency === undefined ? {} : { latencyMs: latency }),
    ...(raw.requestsPerMinute === undefined ? {} : { requestsPerMinute: wholeNumber(raw.requestsPerMinute, '--requests-per-minute', 1) }),
    ...(raw.retryAfter === undefined ? {} : { sendRetryAfter: raw.retryAfter }),
    ...(raw.routineUpdate === undefined ? {} : { routineUpdateMethod: raw.routineUpdate as 'patch' | 'put' }),
    ...(raw.state === undefined ? {} : { statePath: raw.state }),
    ...(raw.fault === undefined || raw.fault.length === 0 ? {} : { faults: raw.fault }),
  };
}

/** The lines printed after `listening on ...`: data source, tokens (values only for demo data), knobs. */
function banner(emulator: RunningEmulator, options: EmulatorOptions): string[] {
  const { description } = emulator;
  const lines: string[] = [];
  const source =
    description.source.kind === 'dataset' ? `dataset ${description.source.name}` : description.source.kind === 'file' ? `seed ${description.source.path}` : 'seed data';
  lines.push(`${source}: ${description.organization}, ${description.users} users`);
  if (description.source.kind === 'dataset') {
    lines.push('demo tokens (well-known local values, not secrets):');
    const width = Math.max(...description.tokens.map((token) => (token.demoToken ?? '').length));
    for (const token of description.tokens) lines.push(`  ${(token.demoToken ?? '').padEnd(width)}  ${token.summary}`);
  } else {
    lines.push(`API tokens in the seed: ${description.tokens.map((token) => `"${token.name}" (${token.summary})`).join(', ')}`);
  }
  if (options.statePath !== undefined) {
    lines.push(`state file: ${options.statePath} (${description.stateLoaded ? 'loaded' : 'written on the first change'})`);
  }
  const knobs = [
    `routine updates by ${(options.routineUpdateMethod ?? 'patch').toUpperCase()}`,
    ...(options.latencyMs ? [`latency ${options.latencyMs} ms`] : []),
    ...(options.requestsPerMinute
      ? [`${options.requestsPerMinute} requests/minute per token${options.sendRetryAfter === false ? ' (no Retry-After)' : ''}`]
      : []),
    ...(options.faults?.length ? [`faults: ${options.faults.join('; ')}`] : []),
  ];
  lines.push(knobs.join(', '));
  lines.push(`stats: GET ${emulator.url}/__emulator/stats, reset: POST ${emulator.url}/__emulator/reset`);
  lines.push('press Ctrl+C to stop');
  return lines;
}

/** Starts the emulator and prints `listening on URL` first, then the banner; returns it running. */
export async function runEmulatorCommand(raw: EmulatorCommandOptions, io: Pick<CommandIo, 'stdout'>): Promise<RunningEmulator> {
  const options = emulatorOptionsFrom(raw);
  const emulator = await startEmulator(options);
  io.stdout(`listening on ${emulator.url}\n`);
  io.stdout(`${banner(emulator, options).join('\n')}\n`);
  return emulator;
}

/** Resolves with the name of the first SIGINT or SIGTERM. */
export function stopSignal(): Promise<NodeJS.Signals> {
  return new Promise((resolve) => {
    const stop = (signal: NodeJS.Signals) => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve(signal);
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
}

const collect = (value: string, previous: string[]) => [...previous, value];

/** Registers `steward emulator`; tests pass their own output and stop signal. */
export function registerEmulator(
  program: Command,
  dependencies: { io?: () => CommandIo; waitForStop?: () => Promise<string> } = {},
): void {
  program
    .command('emulator')
    .description('run an emulator of the platform API on this machine (demo data, seed files, faults)')
    .option('--host <host>', 'interface to listen on', '127.0.0.1')
    .option('--port <port>', `port to listen on; 0 picks a free one (default ${DEFAULT_EMULATOR_PORT})`)
    .option('--data <file>', 'seed file (YAML or JSON) with users, models, documents, labels, routines and tokens')
    .addOption(new Option('--dataset <name>', 'built-in dataset (default demo)').choices([...DATASET_NAMES]))
    .option('--latency <ms>', 'delay every API response by this many milliseconds')
    .option('--requests-per-minute <n>', 'per-token budget; beyond it requests get 429')
    .option('--retry-after', 'send Retry-After with 429 answers (the default)')
    .option('--no-retry-after', 'send 429 answers without Retry-After, as the real service may')
    .addOption(new Option('--routine-update <method>', 'which method updates a routine; the other answers 405 (default patch)').choices(['patch', 'put']))
    .option('--state <file>', 'load state from this file if it exists and save every change to it')
    .option('--fault <spec>', `inject a fault (repeatable): ${FAULT_SYNTAX_HELP}`, collect, [])
    .action(async (raw: EmulatorCommandOptions) => {
      const io = (dependencies.io ?? processIo)();
      let emulator: RunningEmulator;
      try {
        emulator = await runEmulatorCommand(raw, io);
      } catch (error) {
        process.exitCode = reportError(io, error, false);
        return;
      }
      const signal = await (dependencies.waitForStop ?? stopSignal)();
      await emulator.close();
      io.stderr(`emulator stopped (${signal})\n`);
    });
}
