// The small interface every resource kind implements: derive the desired state from config,
// read the live state, diff the two (pure), and carry out steps. Adding a kind is one module
// implementing this plus one line in registry.ts.
import { ApiError, isOutcomeUnknown } from '../api/errors.js';
import type { PlatformApi } from '../api/platform.js';
import { StewardError } from '../errors.js';
import type { EnvironmentConfig, Kind, StewardConfig } from '../config/types.js';
import { changedFields, pick } from '../plan/fields.js';
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
  /** What this kind's `start` began, while identities were being resolved (if it has one). */
  started?: Promise<unknown>;
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
  | { status: 'already-applied'; detail?: string }
  | StepFailure
  /** `notStarted`: the run stopped (interrupt, refused credentials) before this step's turn. */
  | { status: 'skipped'; reason: string; notStarted?: true }
  | { status: 'stale'; reason: string };

/** A failed step, with what the executor needs to judge it (contract 5 of the parallel work). */
export interface StepFailure {
  status: 'failed';
  error: string;
  /** What to do about it, when steward knows (a config setting the server refuses). */
  hint?: string;
  /** The write may have been carried out (response lost, or 5xx): read back before believing it failed. */
  outcomeUnknown?: true;
  /** The HTTP status of the refusal, when the server answered one. */
  httpStatus?: number;
  /** 401 or 403: retrying cannot help, and no further write is sent. */
  fatal?: 'auth';
  /** The kind already sent the write a second time after looking (a create): read back, never resend. */
  sentTwice?: true;
  /** Dropped before it was sent, as the run was stopped: the server did nothing. */
  notSent?: true;
  /** A bulk write the server answered as done, but not for these steps (by id, with words). */
  notTaken?: ReadonlyMap<string, string>;
}

/**
 * What a kind's `apply` may use. Every write goes through `attempt`, which belongs to the
 * executor: it starts nothing once the run is stopped (interrupt, refused credentials), records
 * each step's outcome the moment it is known, and reads back a write whose answer was lost.
 */
export interface ApplyContext {
  api: PlatformApi;
  /** Live state read just before applying (a saved plan) or while planning (apply without one). */
  live: unknown;
  /**
   * Carries out one write (one request, or the few one step needs) covering `steps`; resolves
   * once their outcomes are recorded, never rejects. `write` may be called a second time, when
   * reading back shows the first was not carried out.
   */
  attempt(steps: readonly PlanStep[], write: () => Promise<unknown>): Promise<void>;
}

/** What reading back found for a step that `current` alone cannot judge (a step spanning two objects). */
export type ReadBackVerdict = { found: string } | undefined;

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
  /**
   * Begins the part of the read that needs neither identities nor other kinds' live state (a
   * listing), as soon as the preflight has passed, so it runs while users and groups are being
   * resolved; `read` receives the promise as `context.started`. Once `signal` is aborted (the
   * plan failed meanwhile) it sends no further request and rejects.
   */
  start?(api: PlatformApi, signal: AbortSignal): Promise<unknown>;
  /** Reads the live state with the fewest requests (list endpoints only). */
  read(context: ReadContext, desired: Desired): Promise<Live>;
  /** The steps that turn live into desired. Pure: no I/O, no printing. */
  diff(desired: Desired, live: Live, allLive: Partial<Record<Kind, unknown>>): DiffResult;
  /**
   * The current state of a step's object in `live`: the applier compares it with the step's
   * `after` (already applied) and `before` (safe to run); anything else is stale.
   */
  current(step: PlanStep, live: Live): Record<string, unknown> | undefined;
  /**
   * Carries out steps of this kind (batched where the API allows), every write through
   * `context.attempt`, so that each step gets exactly one outcome.
   */
  apply(steps: PlanStep[], context: ApplyContext): Promise<void>;
  /** How many write requests carrying out these steps takes (the cost shown before approval). */
  writeRequests(steps: readonly PlanStep[]): number;
  /**
   * After a write whose answer was lost: a verdict where the generic judgement of `current`
   * against before/after would be wrong (e.g. a replacement whose new object exists while the
   * old one is still there). Undefined leaves it to the generic judgement.
   */
  readBack?(step: PlanStep, live: Live): ReadBackVerdict;
  /**
   * The credit values a step writes (a limit, a threshold, a default), for the creditLimits
   * policy (src/policy/). A kind that carries credit values declares them here; others omit it.
   */
  credits?(step: PlanStep): CreditValue[];
}

/** One credit value a step writes: a number, or null (unlimited, or a threshold switched off). */
export interface CreditValue {
  field: string;
  value: number | null;
  /** What null means for this field, in messages. */
  nullMeans: 'unlimited' | 'off';
}

/** The credit value of a limit step (`after.creditLimit`; a reset to the default writes none). */
export function creditLimitValues(step: PlanStep): CreditValue[] {
  if (step.action === 'delete') return [];
  const value = step.after.creditLimit;
  return typeof value === 'number' || value === null ? [{ field: 'creditLimit', value, nullMeans: 'unlimited' }] : [];
}

/** A thrown error as a failed outcome with the server's words and what the executor judges by. */
export function failureOf(error: unknown): StepFailure {
  const failure: StepFailure = { status: 'failed', error: error instanceof Error ? error.message : String(error) };
  if (error instanceof StewardError && error.hint !== undefined) failure.hint = error.hint;
  if (isOutcomeUnknown(error)) failure.outcomeUnknown = true;
  if (error instanceof StewardError && error.code === 'apply.outcome-unknown') {
    failure.outcomeUnknown = true;
    failure.sentTwice = true;
  }
  if (error instanceof StewardError && error.code === 'apply.not-sent') failure.notSent = true;
  if (error instanceof NotTaken) failure.notTaken = error.byStep;
  if (error instanceof ApiError && error.status !== undefined) {
    failure.httpStatus = error.status;
    if (error.status === 401 || error.status === 403) failure.fatal = 'auth';
  }
  return failure;
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

/**
 * Fails a write that the server answered as done when the object in its answer holds other
 * values than were sent: a field it ignores, clamps or rewrites. The next plan would show the
 * same change again, so reporting it done would be the surprise (the check Terraform calls an
 * inconsistent result after apply). Fields are compared as the plan compares them, and only
 * those the answer holds; `answered` is the answer in the plan's terms.
 */
export function expectTaken(what: string, sent: Record<string, unknown>, answered: Record<string, unknown>): void {
  const keys = Object.keys(sent).filter((key) => key in answered);
  const differing = changedFields(pick(answered, keys), pick(sent, keys));
  if (differing.length === 0) return;
  const shown = (value: unknown) => {
    const text = value === undefined ? '(none)' : JSON.stringify(value);
    return text.length > 80 ? `${text.slice(0, 77)}...` : text;
  };
  const fields = differing.map((field) => `${field.path} ${shown(field.before)} (sent ${shown(field.after)})`).join(', ');
  throw new StewardError('apply.not-taken', `${what}: the server accepted the write, but its answer holds ${fields}; the change did not take`, 'server', {
    hint: 'the server ignored or rewrote the value, and the next plan will show the change again; check the object in the app',
  });
}

/** A bulk write whose answer shows some of its steps not taken; the others were. */
export class NotTaken extends StewardError {
  constructor(readonly byStep: ReadonlyMap<string, string>) {
    super('apply.not-taken', [...byStep.values()].join('; '), 'server');
  }
}

/**
 * For a bulk limit PATCH: each step's entry in the answer must show what was sent, a set limit
 * as `creditLimit`, a reset as `usesDefaultLimit` (its `creditLimit` is then the default the
 * subject falls back to). Steps the answer leaves out are not judged.
 */
export function expectLimitsTaken(
  what: string,
  steps: readonly PlanStep[],
  answered: ReadonlyMap<string, { creditLimit: number | null; usesDefaultLimit?: boolean }>,
  subjectOf: (step: PlanStep) => string,
): void {
  const byStep = new Map<string, string>();
  for (const step of steps) {
    const entry = answered.get(subjectOf(step));
    if (entry === undefined) continue;
    if (step.action === 'delete') {
      if (entry.usesDefaultLimit === false) byStep.set(step.id, `${what} of ${step.key}: the server accepted the reset to the default, but its answer holds its own limit ${JSON.stringify(entry.creditLimit)}; the change did not take`);
    } else if (entry.creditLimit !== step.after.creditLimit || entry.usesDefaultLimit === true) {
      byStep.set(step.id, `${what} of ${step.key}: the server accepted the write, but its answer holds ${entry.usesDefaultLimit === true ? 'the default limit' : `creditLimit ${JSON.stringify(entry.creditLimit)}`} (sent ${JSON.stringify(step.after.creditLimit)}); the change did not take`);
    }
  }
  if (byStep.size > 0) throw new NotTaken(byStep);
}
