// The small interface every resource kind implements: derive the desired state from config,
// read the live state, diff the two (pure), and carry out steps. Adding a kind is one module
// implementing this plus one line in registry.ts.
import { isOutcomeUnknown } from '../api/errors.js';
import type { PlatformApi } from '../api/platform.js';
import { StewardError } from '../errors.js';
import type { EnvironmentConfig, Kind, StewardConfig } from '../config/types.js';
import type { PlanStep, PlanWarning } from '../plan/types.js';
import type { Directory } from '../plan/directory.js';

/** What `desired()` may look at: the config, the selected environment and resolved identities. */
export interface DesiredInput {
  config: StewardConfig;
  environment: EnvironmentConfig;
  directory: Directory;
}

/** What `read()` may use: the API, identities, and the live state of kinds read before it. */
export interface ReadContext {
  api: PlatformApi;
  directory: Directory;
  live: Partial<Record<Kind, unknown>>;
}

export interface DiffResult {
  steps: PlanStep[];
  warnings: PlanWarning[];
  /** Dependencies this kind adds to other kinds' steps (`step` waits for `on`). */
  dependencies?: { step: string; on: string }[];
}

/** The outcome of one step during apply. */
export type StepOutcome =
  | { status: 'done'; detail?: string }
  | { status: 'already-applied' }
  | { status: 'failed'; error: string }
  | { status: 'skipped'; reason: string }
  | { status: 'stale'; reason: string };

export interface ApplyContext {
  api: PlatformApi;
  /** Live state read just before applying (a saved plan) or while planning (apply without one). */
  live: unknown;
}

export interface ResourceKind<Desired = unknown, Live = unknown> {
  readonly kind: Kind;
  /** Kinds whose live state `read` needs first. */
  readonly readAfter: readonly Kind[];
  /** True when the config manages this kind at all (undeclared kinds are never read). */
  declared(config: StewardConfig): boolean;
  /** E-mail addresses this kind needs resolved to user ids before `desired`. */
  emails(config: StewardConfig): string[];
  /** User ids the config names directly; planning checks they exist (where SCIM allows). */
  userIds?(config: StewardConfig): string[];
  /** The desired state, with identities resolved. Pure. */
  desired(input: DesiredInput): Desired;
  /** Reads the live state with the fewest requests (list endpoints only). */
  read(context: ReadContext, desired: Desired): Promise<Live>;
  /** The steps that turn live into desired. Pure: no I/O, no printing. */
  diff(desired: Desired, live: Live, allLive: Partial<Record<Kind, unknown>>): DiffResult;
  /**
   * The current state of a step's object in `live`: the applier compares it with the step's
   * `after` (already applied) and `before` (safe to run); anything else is stale.
   */
  current(step: PlanStep, live: Live): Record<string, unknown> | undefined;
  /** Carries out steps of this kind (batched where the API allows), returning one outcome each. */
  apply(steps: PlanStep[], context: ApplyContext): Promise<Map<string, StepOutcome>>;
}

/** Runs one write and turns a thrown error into a `failed` outcome with the server's words. */
export async function attempt(write: () => Promise<StepOutcome | void>): Promise<StepOutcome> {
  try {
    return (await write()) ?? { status: 'done' };
  } catch (error) {
    return { status: 'failed', error: error instanceof Error ? error.message : String(error) };
  }
}

/**
 * The second create after a lost response, sent only once a read-back found nothing. If its
 * outcome is lost too, the error says what steward already did, so the user knows a re-run is safe.
 */
export async function createOnceMore<T>(create: () => Promise<T>): Promise<T> {
  try {
    return await create();
  } catch (error) {
    if (!isOutcomeUnknown(error)) throw error;
    throw new StewardError(
      'apply.outcome-unknown',
      `${(error as Error).message.replace(/; the outcome is unknown.*$/, '')}; the response was lost twice (steward looked for it in between and found nothing). Run apply again: it looks before it creates`,
      'server',
      { cause: error },
    );
  }
}
