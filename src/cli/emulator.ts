// `steward emulator`: runs the platform API emulator in the foreground until Ctrl+C, so users can
// try steward without an account and other tools can test against it. The first output line is
// always `listening on http://HOST:PORT`, which scripts wait for; the banner ends with the exact
// `export …` and `--base-url …` lines that point steward at it. `--profile other` (and one flag
// per open point of gaps.md) makes it answer the open questions the other way. It stops on
// SIGINT, SIGTERM, or when the process that started it exits: `npx --no-install steward emulator` runs it as
// npx's child through a shell, and a SIGTERM to npx reaches neither, which left it holding the port.
import { Command, Option } from 'commander';
import {
  allowedValues,
  DATASET_NAMES,
  DEFAULT_RATE_LIMIT_WINDOW_MS,
  DOCUMENT_IDENTIFIERS,
  DOCUMENT_LABELS_FILTERS,
  EMULATOR_PROFILES,
  FAULT_SYNTAX_HELP,
  LABEL_DELETE_IN_USE,
  MODEL_NAME_FILTERS,
  ORG_KEY_USER_FORMS,
  RATE_LIMIT_WINDOWS,
  ROUTINE_UPDATE_METHODS,
  USER_GROUP_ID_FORMS,
  SCIM_USER_IDS,
  DOCUMENT_LABELS_PATH_IDS,
  UNKNOWN_KEYS,
  startEmulator,
  type DatasetName,
  type EmulatorOptions,
  type RunningEmulator,
} from '../emulator/index.js';
import { StewardError } from '../errors.js';
import { processIo, reportError, type CommandIo } from './context.js';
import { tokenVariable } from './init.js';

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
  profile?: string;
  orgKeyUser?: string;
  routinesRequireUserId?: boolean;
  documentLabelsFilter?: string;
  rateLimitWindow?: string;
  rateLimitWindowMs?: string;
  labelDeleteInUse?: string;
  userGroupIdForm?: string;
  scimUserIds?: string;
  documentLabelsPathId?: string;
  unknownKeys?: string;
  entityGroupDefaultCredits?: boolean;
  creditUsage?: boolean;
  modelNameFilter?: string;
  documentIdentifiers?: string;
}

export const DEFAULT_EMULATOR_PORT = 4010;

function invalid(message: string): StewardError {
  return new StewardError('emulator.option.invalid', message, 'user');
}

function wholeNumber(raw: string, option: string, min: number): number {
  if (!/^\d+$/.test(raw.trim()) || Number(raw) < min) throw invalid(`${option} must be a whole number >= ${min}, got \`${raw}\``);
  return Number(raw);
}

/** `raw` checked against `choices`; undefined stays undefined. */
function choice<T extends string>(raw: string | undefined, option: string, choices: readonly T[]): T | undefined {
  if (raw === undefined) return undefined;
  if (!(choices as readonly string[]).includes(raw)) {
    throw invalid(`${option} must be ${allowedValues(choices)}, got \`${raw}\``);
  }
  return raw as T;
}

/** Only the entries whose value is defined, so an unset flag never overrides a profile. */
function defined<T extends object>(entries: T): Partial<T> {
  return Object.fromEntries(Object.entries(entries).filter(([, value]) => value !== undefined)) as Partial<T>;
}

/** Checks the command's options and turns them into emulator options; throws for bad values. */
export function emulatorOptionsFrom(raw: EmulatorCommandOptions): EmulatorOptions {
  if (raw.data !== undefined && raw.dataset !== undefined) throw invalid('give either --data FILE or --dataset NAME, not both');
  const dataset = choice(raw.dataset, '--dataset', DATASET_NAMES);
  const routineUpdateMethod = choice(raw.routineUpdate, '--routine-update', ROUTINE_UPDATE_METHODS);
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
    ...(dataset === undefined ? {} : { dataset: dataset as DatasetName }),
    ...(latency === undefined ? {} : { latencyMs: latency }),
    ...(raw.requestsPerMinute === undefined ? {} : { requestsPerMinute: wholeNumber(raw.requestsPerMinute, '--requests-per-minute', 1) }),
    ...(raw.retryAfter === undefined ? {} : { sendRetryAfter: raw.retryAfter }),
    ...(routineUpdateMethod === undefined ? {} : { routineUpdateMethod }),
    ...(raw.state === undefined ? {} : { statePath: raw.state }),
    ...(raw.fault === undefined || raw.fault.length === 0 ? {} : { faults: raw.fault }),
    ...defined({
      profile: choice(raw.profile, '--profile', EMULATOR_PROFILES),
      orgKeyUser: choice(raw.orgKeyUser, '--org-key-user', ORG_KEY_USER_FORMS),
      routinesRequireUserId: raw.routinesRequireUserId,
      documentLabelsFilter: choice(raw.documentLabelsFilter, '--document-labels-filter', DOCUMENT_LABELS_FILTERS),
      rateLimitWindow: choice(raw.rateLimitWindow, '--rate-limit-window', RATE_LIMIT_WINDOWS),
      rateLimitWindowMs: raw.rateLimitWindowMs === undefined ? undefined : wholeNumber(raw.rateLimitWindowMs, '--rate-limit-window-ms', 1),
      labelDeleteInUse: choice(raw.labelDeleteInUse, '--label-delete-in-use', LABEL_DELETE_IN_USE),
      userGroupIdForm: choice(raw.userGroupIdForm, '--user-group-id-form', USER_GROUP_ID_FORMS),
      scimUserIds: choice(raw.scimUserIds, '--scim-user-ids', SCIM_USER_IDS),
      documentLabelsPathId: choice(raw.documentLabelsPathId, '--document-labels-path-id', DOCUMENT_LABELS_PATH_IDS),
      unknownKeys: choice(raw.unknownKeys, '--unknown-keys', UNKNOWN_KEYS),
      entityGroupDefaultCredits: raw.entityGroupDefaultCredits,
      creditUsage: raw.creditUsage,
      modelNameFilter: choice(raw.modelNameFilter, '--model-name-filter', MODEL_NAME_FILTERS),
      documentIdentifiers: choice(raw.documentIdentifiers, '--document-identifiers', DOCUMENT_IDENTIFIERS),
    }),
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
  lines.push(...usage(emulator));
  if (options.statePath !== undefined) {
    lines.push(`state file: ${options.statePath} (${description.stateLoaded ? 'loaded' : 'written on the first change'})`);
  }
  if (description.differences.length === 0) {
    lines.push(
      description.profile === 'vendor'
        ? 'profile vendor: the platform as the vendor documents it (--profile other answers most open points the other way)'
        : `profile ${description.profile}, with every answer set back to the vendor profile`,
    );
  } else {
    lines.push(description.profile === 'vendor' ? 'profile vendor, except:' : `profile ${description.profile}, answering differently from the vendor profile:`);
    for (const difference of description.differences) lines.push(`  ${difference}`);
  }
  const windowMs = description.knobs.rateLimitWindowMs;
  const per = windowMs === DEFAULT_RATE_LIMIT_WINDOW_MS ? 'minute' : `${windowMs / 1000} s`;
  const knobs = [
    ...(options.latencyMs ? [`latency ${options.latencyMs} ms`] : []),
    ...(options.requestsPerMinute ? [`${options.requestsPerMinute} requests/${per} per token`] : []),
    ...(options.faults?.length ? [`faults: ${options.faults.join('; ')}`] : []),
  ];
  if (knobs.length > 0) lines.push(knobs.join(', '));
  lines.push(`stats: GET ${emulator.url}/__emulator/stats, reset: POST ${emulator.url}/__emulator/reset`);
  lines.push('press Ctrl+C to stop');
  return lines;
}

/**
 * The lines to paste in another terminal: the token variable of the environment the dataset
 * stands for (as `steward init` and the examples name it) set to its organization admin key,
 * and a plan with `--base-url`. A seed file's token values are not printed: its author has them.
 */
function usage(emulator: RunningEmulator): string[] {
  const { description } = emulator;
  const environment = description.source.kind === 'dataset' && description.source.name.includes('playground') ? 'playground' : 'production';
  const admin = description.tokens.find((token) => token.type === 'organization' && token.role === 'ORG_ADMIN') ?? description.tokens[0];
  const value = admin?.demoToken ?? `… # the value of "${admin?.name ?? 'an organization admin key'}" in the seed`;
  return [
    `to use it, in another terminal (${tokenVariable(environment)} being the tokenEnv of your environment):`,
    `  export ${tokenVariable(environment)}=${value}`,
    `  npx --no-install steward plan --env ${environment} --base-url ${emulator.url}`,
  ];
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

/**
 * Resolves once the process that started this one has exited (its parent id changes: the orphan
 * is adopted by init or a subreaper). Polls, since no signal says so; the timer never keeps the
 * process alive. `parentId` is for tests.
 */
export function parentExited(everyMs = 500, parentId: () => number = () => process.ppid): { exited: Promise<string>; cancel: () => void } {
  const parent = parentId();
  let timer: NodeJS.Timeout | undefined;
  const exited = new Promise<string>((resolve) => {
    timer = setInterval(() => {
      if (parentId() === parent) return;
      clearInterval(timer);
      resolve(`the process that started it, ${parent}, exited`);
    }, everyMs);
    timer.unref();
  });
  return { exited, cancel: () => clearInterval(timer) };
}

/** The first of SIGINT, SIGTERM and the exit of the parent process (`npx`, a shell, a test runner). */
async function stopOrOrphaned(): Promise<string> {
  const parent = parentExited();
  try {
    return await Promise.race([stopSignal(), parent.exited]);
  } finally {
    parent.cancel();
  }
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
    .option('--retry-after', 'send Retry-After with 429 answers (vendor)')
    .option('--no-retry-after', 'send 429 answers without Retry-After, as the real service may (other)')
    .addOption(new Option('--routine-update <method>', 'put: routines update only by the documented PUT (vendor); patch: also by the generated client\'s PATCH (other)').choices([...ROUTINE_UPDATE_METHODS]))
    .addOption(new Option('--unknown-keys <answer>', 'undocumented request keys: refuse = 400 (vendor) or ignore (other)').choices([...UNKNOWN_KEYS]))
    .option('--entity-group-default-credits', 'credit controls carry entityGroupDefaultCredits, as the generated client has it (other)')
    .option('--no-entity-group-default-credits', 'credit controls carry the seven documented fields (vendor)')
    .option('--credit-usage', 'serve POST /api/v1/ai/credit-usage/users, per-user usage this period (vendor)')
    .option('--no-credit-usage', 'answer the credit-usage endpoint 404, as an instance without it (other)')
    .addOption(
      new Option('--profile <name>', 'vendor (default): the platform as the vendor documents it; other: the opposite answer to each open point, and the generated client\'s PATCH and fields').choices([
        ...EMULATOR_PROFILES,
      ]),
    )
    .addOption(
      new Option('--org-key-user <form>', 'whoami `user` of organization keys: creator (vendor) or absent, null, null-fields (other): keys tied to no user').choices([
        ...ORG_KEY_USER_FORMS,
      ]),
    )
    .option('--routines-require-user-id', 'routine endpoints answer 400 to organization keys without userId (other)')
    .option('--no-routines-require-user-id', 'routine endpoints take organization keys without userId (vendor)')
    .addOption(
      new Option('--document-labels-filter <meaning>', 'documents labels=a,b keeps documents with all (vendor) or any (other) of them').choices([
        ...DOCUMENT_LABELS_FILTERS,
      ]),
    )
    .addOption(
      new Option('--rate-limit-window <kind>', 'count the request budget in a sliding window (vendor) or fixed windows from the epoch (other)').choices([
        ...RATE_LIMIT_WINDOWS,
      ]),
    )
    .option('--rate-limit-window-ms <ms>', `length of the rate-limit window (default ${DEFAULT_RATE_LIMIT_WINDOW_MS})`)
    .addOption(
      new Option('--label-delete-in-use <answer>', 'deleting a label applied to documents: conflict = 409 (vendor) or unlink = delete it and take it off them (other)').choices([
        ...LABEL_DELETE_IN_USE,
      ]),
    )
    .addOption(
      new Option('--model-name-filter <meaning>', 'models name= matches the exact name (vendor) or names containing it in any case (other)').choices([
        ...MODEL_NAME_FILTERS,
      ]),
    )
    .addOption(
      new Option('--user-group-id-form <form>', 'user group credit limits take SCIM group ids (both profiles) or group uuids').choices([
        ...USER_GROUP_ID_FORMS,
      ]),
    )
    .addOption(
      new Option('--scim-user-ids <form>', 'a SCIM user\'s id is the membership id (both profiles) or the user\'s own id').choices([...SCIM_USER_IDS]),
    )
    .addOption(
      new Option('--document-labels-path-id <form>', 'the document-label PATCH takes document identifiers (both profiles) or only uuids').choices([...DOCUMENT_LABELS_PATH_IDS]),
    )
    .addOption(
      new Option('--document-identifiers <kind>', 'demo-playground documents keep the identifiers they have in demo (shared, default) or have their own (per-deployment)').choices([
        ...DOCUMENT_IDENTIFIERS,
      ]),
    )
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
      const signal = await (dependencies.waitForStop ?? stopOrOrphaned)();
      await emulator.close();
      io.stderr(`emulator stopped (${signal})\n`);
    });
}
