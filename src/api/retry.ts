// When a failed attempt may be tried again and how long to wait first: which methods are safe
// to repeat blindly, which statuses are transient, exponential backoff with full jitter,
// Retry-After. A write that may have reached the server is never repeated: its outcome is unknown.

/** HTTP methods the client sends. */
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** Statuses that say "try again later" rather than "this request is wrong". */
export const RETRYABLE_STATUSES: ReadonlySet<number> = new Set([429, 500, 502, 503, 504]);

/**
 * Methods that may be repeated blindly after a failure that may have reached the server: reads
 * only. PUT, PATCH and DELETE are idempotent in HTTP terms, yet repeating one whose response was
 * lost misleads: a repeated DELETE or rename answers 404 although the change was made. The caller
 * reads back and judges instead (outcome unknown).
 */
export function isIdempotent(method: HttpMethod): boolean {
  return method === 'GET';
}

/** What happened on one attempt, as far as the retry decision needs to know. */
export type AttemptFailure =
  | { kind: 'status'; status: number; retryAfterMs: number | undefined }
  | { kind: 'network'; notSent: boolean; permanent: boolean };

/** The decision for one failed attempt. */
export type RetryDecision =
  | { retry: true; delayMs: number; reason: string }
  | { retry: false; outcomeUnknown: boolean; note: string | undefined };

export interface RetryPolicyOptions {
  /** Total time a request may spend waiting between attempts. */
  budgetMs: number;
  /** Retries allowed per request, whatever the budget says. */
  maxRetries: number;
  /** First backoff ceiling; doubles with every retry. */
  baseDelayMs: number;
  /** Largest backoff ceiling. */
  maxDelayMs: number;
  /** Returns a number in [0, 1): the jitter source. */
  random: () => number;
}

/** Retries of a request that never reached a server (connection refused, host unreachable). */
export const NOT_SENT_MAX_RETRIES = 2;

export const DEFAULT_RETRY_POLICY: Omit<RetryPolicyOptions, 'random' | 'budgetMs'> = {
  maxRetries: 8,
  baseDelayMs: 1_000,
  maxDelayMs: 30_000,
};

/**
 * Parses `Retry-After` (delay-seconds or HTTP-date) into milliseconds from `nowMs`; undefined
 * when absent or unreadable, 0 for a date in the past.
 */
export function parseRetryAfter(header: string | null, nowMs: number): number | undefined {
  if (header === null) return undefined;
  const value = header.trim();
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  if (/^\d+\.\d+$/.test(value)) return Math.ceil(Number(value) * 1000);
  if (!/[a-z]/i.test(value)) return undefined;
  const at = Date.parse(value);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - nowMs);
}

/** Full-jitter exponential backoff: uniform in [0, min(max, base·2^(retry-1))). */
export function backoffDelay(retry: number, options: Pick<RetryPolicyOptions, 'baseDelayMs' | 'maxDelayMs' | 'random'>): number {
  const ceiling = Math.min(options.maxDelayMs, options.baseDelayMs * 2 ** Math.max(0, retry - 1));
  const r = Math.min(Math.max(options.random(), 0), 1);
  return Math.floor(r * ceiling);
}

function formatSeconds(ms: number): string {
  return `${Math.round(ms / 100) / 10}s`;
}

function describe(failure: AttemptFailure): string {
  return failure.kind === 'status' ? String(failure.status) : 'network error';
}

/**
 * Decides whether attempt `retry + 1` may follow a failure, given the time already spent
 * waiting. A write (POST, PUT, PATCH, DELETE) is retried only when the server certainly did
 * nothing (429, or a connection that was never made); after a network failure that may have
 * reached the server (reset, timeout, cut body) or any 5xx its outcome is reported as unknown.
 */
export function decideRetry(
  method: HttpMethod,
  failure: AttemptFailure,
  retriesSoFar: number,
  waitedMs: number,
  options: RetryPolicyOptions,
): RetryDecision {
  if (failure.kind === 'network') {
    // A write whose request may have reached the server cannot be repeated blindly.
    if (!isIdempotent(method) && !failure.notSent) return { retry: false, outcomeUnknown: true, note: undefined };
    if (failure.permanent) return { retry: false, outcomeUnknown: false, note: undefined };
    // Nothing answered at all (refused, unreachable): worth a quick second try, not minutes.
    if (failure.notSent && retriesSoFar >= NOT_SENT_MAX_RETRIES) {
      return { retry: false, outcomeUnknown: false, note: `gave up after ${retriesSoFar} retries: nothing answered at that address` };
    }
  } else {
    // A 429 means the server did nothing, so even a write may go again; after any 5xx a write
    // may or may not have been applied.
    if (!isIdempotent(method) && failure.status !== 429) {
      return { retry: false, outcomeUnknown: failure.status >= 500, note: undefined };
    }
    if (!RETRYABLE_STATUSES.has(failure.status)) return { retry: false, outcomeUnknown: false, note: undefined };
  }
  const spent = retriesSoFar === 0 ? undefined : `gave up after ${retriesSoFar} ${retriesSoFar === 1 ? 'retry' : 'retries'}`;
  if (retriesSoFar >= options.maxRetries) {
    return { retry: false, outcomeUnknown: false, note: spent };
  }
  const retry = retriesSoFar + 1;
  const retryAfterMs = failure.kind === 'status' ? failure.retryAfterMs : undefined;
  const remainingMs = options.budgetMs - waitedMs;
  const budget = `retry budget of ${formatSeconds(options.budgetMs)}`;
  if (retryAfterMs !== undefined && retryAfterMs > remainingMs) {
    const why = `the server asked to wait ${formatSeconds(retryAfterMs)}, beyond the ${budget}`;
    return { retry: false, outcomeUnknown: false, note: spent === undefined ? why : `${spent}; ${why}` };
  }
  if (retryAfterMs === undefined && remainingMs <= 0) {
    const why = `${budget} spent`;
    return { retry: false, outcomeUnknown: false, note: spent === undefined ? why : `${spent}; ${why}` };
  }
  // Backoff is clamped to what is left of the budget, so the last retry still happens.
  const delayMs = retryAfterMs ?? Math.min(backoffDelay(retry, options), remainingMs);
  return { retry: true, delayMs, reason: describe(failure) };
}
