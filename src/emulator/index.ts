// The emulator's public API: start an HTTP server that behaves like the platform API on
// loopback, with seed data, realism knobs (latency, rate limit), a profile choosing each OPEN
// point of gaps.md (with per-knob overrides) and faults, and get back its URL, counters, state
// and controls. The `steward emulator` command and every end-to-end test use this.
import type { AddressInfo } from 'node:net';
import { StewardError } from '../errors.js';
import { DATASET_NAMES, datasetSeed, datasetTokens, type DatasetName } from './datasets.js';
import { FaultPlan, type FaultInput } from './faults.js';
import { RateLimiter } from './rateLimit.js';
import {
  checkProfileOptions,
  differencesFromVendor,
  resolveKnobs,
  type EmulatorKnobs,
  type EmulatorProfile,
} from './profiles.js';
import { platformRouter } from './routes.js';
import { loadSeedFile, seedToState } from './seed.js';
import { createEmulatorServer } from './server.js';
import { ContractRecord, servesVariant } from './contract.js';
import type { EmulatorState } from './state.js';
import { StateFile } from './stateFile.js';
import { createStateView, type EmulatorStateView } from './stateView.js';
import { StatsRecorder, type EmulatorStats } from './stats.js';
import { Store } from './store.js';

export type {
  DocumentIdentifiers,
  DocumentLabelsFilter,
  EmulatorKnobs,
  EmulatorProfile,
  LabelDeleteInUse,
  ModelNameFilter,
  OrgKeyUser,
  RateLimitWindow,
  RoutineUpdateMethod,
  ScimUserIds,
  DocumentLabelsPathId,
  UnknownKeys,
  UserGroupIdForm,
} from './profiles.js';
export {
  allowedValues,
  DEFAULT_RATE_LIMIT_WINDOW_MS,
  describeKnob,
  differencesFromVendor,
  DOCUMENT_IDENTIFIERS,
  DOCUMENT_LABELS_FILTERS,
  EMULATOR_PROFILES,
  KNOB_NAMES,
  LABEL_DELETE_IN_USE,
  MODEL_NAME_FILTERS,
  ORG_KEY_USER_FORMS,
  PROFILE_KNOBS,
  RATE_LIMIT_WINDOWS,
  resolveKnobs,
  ROUTINE_UPDATE_METHODS,
  SCIM_USER_IDS,
  DOCUMENT_LABELS_PATH_IDS,
  UNKNOWN_KEYS,
  USER_GROUP_ID_FORMS,
} from './profiles.js';
export type { DatasetName } from './datasets.js';
export { DATASET_NAMES, datasetDocumentIdentifier, datasetSeed, datasetTokens } from './datasets.js';
export type { Fault, FaultAction, FaultInput } from './faults.js';
export { formatFault, parseFault, FAULT_SYNTAX_HELP } from './faults.js';
export type { EmulatorState } from './state.js';
export type { EmulatorStateView } from './stateView.js';
export type { EmulatorStats } from './stats.js';
export type { Seed } from './seedTypes.js';
export { SEED_SCHEMA_FILE } from './seedFile.js';

/**
 * Options of `startEmulator`. `profile` answers every OPEN point of gaps.md at once (default
 * `vendor`); each knob given here overrides its profile's answer.
 */
export interface EmulatorOptions extends Partial<EmulatorKnobs> {
  /** `vendor` (default: the vendor's documented contract) or `other`: the opposite answer to most open points (docs/emulator.md's profile table says which). */
  profile?: EmulatorProfile;
  /** Interface to listen on; default 127.0.0.1. */
  host?: string;
  /** Port; default 0 (any free port; see `url`). */
  port?: number;
  /** Seed data: a seed object or the path of a YAML/JSON seed file. Excludes `dataset`. */
  data?: object | string;
  /** A built-in dataset; default `demo` when `data` is not given. */
  dataset?: DatasetName;
  /** Delay before every API response, in milliseconds; default 0. */
  latencyMs?: number;
  /** Requests per token per rate-limit window (a minute unless `rateLimitWindowMs`) before 429; default unlimited. */
  requestsPerMinute?: number;
  /** Load state from this file when it exists and save it after every successful write. */
  statePath?: string;
  /** Faults armed from the start. */
  faults?: FaultInput[];
  /**
   * Note every request and answer that misfits the vendor contract (src/api/contract/), to be
   * read with `contractMisfits()`: what the contract test asks of the end-to-end suite.
   */
  noteContract?: boolean;
  /**
   * Where the emulator reads the time, in milliseconds since the epoch: rate-limit windows,
   * createdAt/updatedAt, routine runs, credit periods. Default `Date.now`; tests pass a virtual clock.
   */
  clock?: () => number;
}

/** Where the data came from, and the tokens to mention (demo token values only for built-ins). */
export interface EmulatorDescription {
  source: { kind: 'dataset'; name: DatasetName } | { kind: 'file'; path: string } | { kind: 'object' };
  organization: string;
  users: number;
  /** Seed token names; `demoToken` is the value, present only for the built-in datasets. */
  tokens: { name: string; type: string; role: string; summary: string; demoToken?: string }[];
  /** Whether the state was loaded from `statePath` instead of the seed. */
  stateLoaded: boolean;
  profile: EmulatorProfile;
  /** The answers in force: the profile's, with the overrides given. */
  knobs: EmulatorKnobs;
  /** One phrase per answer that differs from the vendor profile; empty for the vendor profile. */
  differences: string[];
}

export interface RunningEmulator {
  /** `http://host:port`, without a trailing slash. */
  url: string;
  host: string;
  port: number;
  description: EmulatorDescription;
  /** A copy of the request counters. */
  stats(): EmulatorStats;
  /** Restores the seed, zeroes the counters and write numbers, empties rate-limit windows. */
  reset(): void;
  /** Stops listening and closes open connections. */
  close(): Promise<void>;
  /** Typed read access to the live state. */
  state: EmulatorStateView;
  /** Arms a fault (text form or object); throws a StewardError for a malformed one. */
  injectFault(fault: FaultInput): void;
  clearFaults(): void;
  /**
   * The misfits of the vendor contract noted since the last call (only with `noteContract`): one
   * sentence each, naming the operation; served variants (by the knobs) are not misfits.
   */
  contractMisfits(): string[];
}

function invalidOption(message: string): StewardError {
  return new StewardError('emulator.option.invalid', message, 'user');
}

/** Throws a StewardError (`emulator.option.invalid`) naming the first malformed option. */
export function checkOptions(options: EmulatorOptions): void {
  const { port, latencyMs, requestsPerMinute, dataset } = options;
  if (port !== undefined && (!Number.isInteger(port) || port < 0 || port > 65535)) {
    throw invalidOption(`port must be a whole number from 0 to 65535, got ${port}`);
  }
  if (latencyMs !== undefined && (!Number.isFinite(latencyMs) || latencyMs < 0)) {
    throw invalidOption(`latency must be a number of milliseconds >= 0, got ${latencyMs}`);
  }
  if (requestsPerMinute !== undefined && (!Number.isInteger(requestsPerMinute) || requestsPerMinute < 1)) {
    throw invalidOption(`requests per minute must be a whole number >= 1, got ${requestsPerMinute}`);
  }
  checkProfileOptions(options);
  if (options.clock !== undefined && typeof options.clock !== 'function') {
    throw invalidOption('clock must be a function returning milliseconds since the epoch');
  }
  if (dataset !== undefined && !(DATASET_NAMES as readonly string[]).includes(dataset)) {
    throw invalidOption(`unknown dataset ${String(dataset)} (built-in datasets: ${DATASET_NAMES.join(', ')})`);
  }
  if (dataset !== undefined && options.data !== undefined) {
    throw invalidOption('give either data (a seed) or dataset (a built-in one), not both');
  }
}

type SeedDescription = Pick<EmulatorDescription, 'source' | 'organization' | 'users' | 'tokens'>;

function loadSeed(options: EmulatorOptions, knobs: EmulatorKnobs): { state: EmulatorState; description: SeedDescription } {
  const summarize = (state: EmulatorState) => ({
    organization: state.organization.name,
    users: state.users.length,
  });
  if (typeof options.data === 'string') {
    const state = loadSeedFile(options.data);
    return { state, description: { source: { kind: 'file', path: options.data }, ...summarize(state), tokens: tokenNames(state) } };
  }
  if (options.data !== undefined) {
    const state = seedToState(options.data, 'data');
    return { state, description: { source: { kind: 'object' }, ...summarize(state), tokens: tokenNames(state) } };
  }
  const name = options.dataset ?? 'demo';
  const state = seedToState(datasetSeed(name, knobs.documentIdentifiers), `dataset ${name}`);
  const demo = new Map(datasetTokens(name).map((token) => [token.name, token]));
  const tokens = tokenNames(state).map((token) => ({
    ...token,
    summary: demo.get(token.name)?.summary ?? token.summary,
    demoToken: demo.get(token.name)?.token,
  }));
  return { state, description: { source: { kind: 'dataset', name }, ...summarize(state), tokens } };
}

function tokenNames(state: EmulatorState): EmulatorDescription['tokens'] {
  return state.apiTokens.map((token) => {
    const role = token.role ?? state.users.find((user) => user.id === token.ownerId)?.role ?? 'MEMBER';
    return { name: token.name, type: token.type, role, summary: `${token.type} token, ${role}${token.enabled ? '' : ', disabled'}` };
  });
}

function listen(server: ReturnType<typeof createEmulatorServer>, host: string, port: number): Promise<AddressInfo> {
  return new Promise((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException) => {
      const reason = error.code === 'EADDRINUSE' ? 'the address is already in use' : error.message;
      reject(new StewardError('emulator.listen', `cannot listen on ${host}:${port}: ${reason}`, 'user', {
        ...(error.code === 'EADDRINUSE' ? { hint: 'pick another --port, or --port 0 for any free port' } : {}),
      }));
    };
    server.once('error', onError);
    server.listen(port, host, () => {
      server.off('error', onError);
      resolve(server.address() as AddressInfo);
    });
  });
}

/** Starts an emulator and resolves once it listens; throws a StewardError for bad options or seed. */
export async function startEmulator(options: EmulatorOptions = {}): Promise<RunningEmulator> {
  checkOptions(options);
  const host = options.host ?? '127.0.0.1';
  const profile = options.profile ?? 'vendor';
  const knobs = resolveKnobs(profile, options);
  const { state: seedState, description } = loadSeed(options, knobs);
  const stateFile = options.statePath === undefined ? undefined : new StateFile(options.statePath);
  const store = new Store(seedState, stateFile);
  const faults = new FaultPlan();
  for (const fault of options.faults ?? []) faults.add(fault);
  const clock = options.clock ?? Date.now;
  const limiter = new RateLimiter({ budget: options.requestsPerMinute, window: knobs.rateLimitWindow, windowMs: knobs.rateLimitWindowMs });
  const stats = new StatsRecorder();
  const contract = options.noteContract === true ? new ContractRecord(servesVariant(knobs)) : undefined;
  let origin = '';
  const reset = () => {
    store.reset();
    stats.reset();
    limiter.reset();
  };
  const server = createEmulatorServer({
    store,
    router: platformRouter(knobs.routineUpdateMethod),
    faults,
    limiter,
    stats,
    latencyMs: options.latencyMs ?? 0,
    clock,
    knobs,
    origin: () => origin,
    reset,
    contract,
  });
  const address = await listen(server, host, options.port ?? 0);
  const urlHost = address.address.includes(':') ? `[${address.address}]` : address.address;
  origin = `http://${urlHost}:${address.port}`;
  let closing: Promise<void> | undefined;
  return {
    url: origin,
    host: address.address,
    port: address.port,
    description: {
      ...description,
      stateLoaded: store.loadedFromFile,
      profile,
      knobs: { ...knobs },
      differences: differencesFromVendor(knobs),
    },
    stats: () => stats.snapshot(),
    reset,
    close: () => {
      closing ??= new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      });
      return closing;
    },
    state: createStateView(() => store.state, clock),
    injectFault: (fault) => faults.add(fault),
    clearFaults: () => faults.clear(),
    contractMisfits: () => contract?.take() ?? [],
  };
}
