// The one way steward talks to the platform: joins paths to the instance origin, authenticates,
// paces every attempt under the key's budget, retries what is safe to retry within a time limit
// per request, tells of slow answers and waits, turns every failure into an ApiError, logs each
// attempt (redacted), reports events to an observer and counts requests for the plan summary.

import pLimit from 'p-limit';
import { StewardError } from '../errors.js';
import { apiErrorFromNetwork, apiErrorFromResponse, ApiError, namesQuota, quotaError, readErrorBody, type RequestContext } from './errors.js';
import { formatAttempt, formatRetryWait, redactingLog, Redactor } from './log.js';
import { defaultBurst, pacerKey, sharedPacer, type Pacer, type PacerClock } from './pacing.js';
import { ledgerFile } from './requestLedger.js';
import { DEFAULT_RETRY_POLICY, decideRetry, isIdempotent, parseRetryAfter, type AttemptFailure, type HttpMethod, type RetryDecision, type RetryPolicyOptions } from './retry.js';
import { Transport, TransportFailure, type RawResponse } from './transport.js';
import { encodeQuery, resolveInstanceOrigin, type QueryValue } from './url.js';

export type { HttpMethod } from './retry.js';

/**
 * What the client is doing, for progress displays and heartbeats (contract 2). `route` is the
 * route template (`GET /api/v1/ai/routines/{routineId}`); no event carries a token or a body.
 */
export type ClientEvent =
  /** An attempt starts (after its pacing slot was granted). */
  | { type: 'request'; method: HttpMethod; route: string; operation: string }
  /** An attempt ended; `status` is undefined when no response came back. */
  | { type: 'response'; method: HttpMethod; route: string; operation: string; status: number | undefined; ms: number }
  /** A wait of a second or more is about to happen. */
  | { type: 'wait'; reason: 'rate-limit' | 'retry' | 'pacing'; ms: number; operation: string }
  /** An attempt has had no answer for `waitedMs` (every slow-notice interval, 10 s by default). */
  | { type: 'slow'; method: HttpMethod; route: string; operation: string; waitedMs: number }
  /** A page of a paginated list was read; `totalPages` when the server says how many records there are. */
  | { type: 'page'; operation: string; page: number; totalPages: number | undefined };

/** Default time limit of one request, attempts and waits between them together. */
export const DEFAULT_REQUEST_TIMEOUT_MS = 120_000;

/** The request budget of a deployment whose config names none. */
export const DEFAULT_REQUESTS_PER_MINUTE = 60;
/** Default interval of the "still waiting" notices while an attempt has no answer. */
export const SLOW_NOTICE_MS = 10_000;
/** Keep-alive connections per client (more when more writes run at once). */
export const POOL_CONNECTIONS = 8;

/** What a wait before a write gives once unsent writes are dropped. */
const DROPPED = Symbol('dropped');

export interface ClientOptions {
  /** Instance origin; may already end in /api; http:// only for loopback. */
  baseUrl: string;
  /** Bearer token; never logged, never in errors or thrown objects. */
  token: string;
  /**
   * false: this client neither reads nor writes the key's recent requests in the user's cache
   * (requestLedger.ts; STEWARD_CACHE_DIR=off does the same for every client).
   */
  requestLedger?: false;
  /** Length of the server's rate window the budget is counted in (ms); one minute for the platform. */
  rateWindowMs?: number;
  /** Pacing budget per API key, default 60. */
  requestsPerMinute?: number;
  /** Requests that may start back to back before pacing spaces them; default rpm/6, 1..10. */
  burst?: number;
  /** Writes (non-GET) running at once, default 4. */
  writeConcurrency?: number;
  /** Total time one request may spend waiting between retries, default 60 000 ms. */
  retryBudgetMs?: number;
  /** Total time all requests of this client together may spend waiting between retries, default 300 000 ms. */
  totalRetryBudgetMs?: number;
  /** Retries per request at most, default 8. */
  maxRetries?: number;
  /** Connect, headers and body timeout of one attempt, default 30 000 ms. */
  timeoutMs?: number;
  /**
   * Time limit of one request, every attempt and every wait between retries together (pacing
   * waits excepted: they are the budget's, not the server's), default 120 000 ms.
   */
  requestTimeoutMs?: number;
  /** Interval of the "still waiting for …" notice and `slow` event while an attempt has no answer, default 10 000 ms. */
  slowNoticeMs?: number;
  /** Hears what the client does (attempts, answers, waits, slow answers, pages); see ClientEvent. */
  observe?: (event: ClientEvent) => void;
  /** `--debug` request log sink; receives already redacted lines. */
  log?: (line: string) => void;
  /**
   * Told (redacted) of every wait after a 429, of other retry waits of a second or more, and of
   * answers slower than `slowNoticeMs`, so a slow failure is never a silent one.
   */
  notice?: (line: string) => void;
  /** Jitter source in [0, 1), injectable for tests. */
  random?: () => number;
  /** Waits between retries, injectable for tests. */
  sleep?: (ms: number) => Promise<void>;
  /**
   * A virtual clock for tests, in epoch milliseconds. When given, pacing runs on `now` and
   * `sleep` together (so `sleep` must advance `now`), and Retry-After dates are read against it.
   */
  now?: () => number;
}

export interface RequestStats {
  /** Attempts sent, retries included. */
  requests: number;
  /** Attempts that were retries. */
  retries: number;
  /** 429 answers received. */
  rateLimited: number;
  /** Attempts per route template. */
  byRoute: Record<string, number>;
}

export interface RequestOptions {
  /** What is being done, for messages: `listing routines`. */
  operation: string;
  query?: Record<string, QueryValue>;
  body?: unknown;
  /** Route template for stats, logs and errors; defaults to method and path. */
  route?: string;
  /** The ids the request names, carried by its errors (see RequestContext). */
  subjects?: readonly string[];
  /**
   * False for a write whose answer nobody reads (a 204-style DELETE or PUT): its body is not
   * parsed, so a server answering `OK` as text does not fail a write it carried out.
   */
  readBody?: boolean;
  /** A POST that changes nothing (a read that takes a body): retried like a GET, never counted as a write. */
  readOnly?: boolean;
}

/** Whether a request only reads: a GET, or a POST the contract marks read-only. */
function isRead(context: RequestContext): boolean {
  return isIdempotent(context.method as HttpMethod) || context.readOnly === true;
}

const realSleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

function positive(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (!Number.isFinite(value) || value <= 0) {
    throw new StewardError('config.invalid-option', `${name} must be a positive number, got ${String(value)}.`, 'user');
  }
  return value;
}

function checkToken(token: string): void {
  if (typeof token !== 'string' || token.trim() === '') {
    throw new StewardError('config.missing-token', 'No API token was given.', 'user');
  }
  if (/[^\x21-\x7e]/.test(token)) {
    throw new StewardError(
      'config.invalid-token',
      'The API token contains whitespace or characters an HTTP header cannot carry (only printable ASCII); check how it was copied.',
      'user',
    );
  }
}

/** Stops retrying once the client as a whole has waited its total budget, however many requests fail. */
function withinTotalBudget(decision: RetryDecision, spentMs: number, budgetMs: number): RetryDecision {
  if (!decision.retry || spentMs + decision.delayMs <= budgetMs) return decision;
  return { retry: false, outcomeUnknown: false, note: `the run's total retry budget of ${Math.round(budgetMs / 1000)}s is spent` };
}

/** A duration for people: `800 ms`, `10 s`, `2.5 s`. */
function seconds(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${Math.round(ms / 100) / 10} s`;
}

/** An authenticated, paced, retrying client of one platform instance. */
export class ApiClient {
  private readonly origin: string;
  readonly #token: string;
  private readonly redactor: Redactor;
  private readonly log: (line: string) => void;
  private readonly notice: (line: string) => void;
  private readonly observe: ((event: ClientEvent) => void) | undefined;
  private readonly requestTimeoutMs: number;
  private readonly slowNoticeMs: number;
  /** Time spent waiting between retries by all requests of this client. */
  private retryWaitedMs = 0;
  private readonly totalRetryBudgetMs: number;
  private readonly transport: Transport;
  private readonly pacer: Pacer;
  private readonly releasePacer: () => void;
  private readonly writeLimit: ReturnType<typeof pLimit>;
  private readonly retryPolicy: RetryPolicyOptions;
  private readonly sleep: (ms: number) => Promise<void>;
  private readonly wallClock: () => number;
  private readonly counters: RequestStats = { requests: 0, retries: 0, rateLimited: 0, byRoute: {} };
  private closed = false;

  /** Validates the options (URL, token, numbers) and sets up the pool and the shared pacer. */
  constructor(options: ClientOptions) {
    checkToken(options.token);
    this.origin = resolveInstanceOrigin(options.baseUrl);
    // A private field: inspecting or serialising a client never shows the token.
    this.#token = options.token;
    this.redactor = new Redactor(options.token);
    this.log = redactingLog(options.log, this.redactor);
    this.notice = redactingLog(options.notice, this.redactor);
    this.observe = options.observe;
    this.requestTimeoutMs = positive(options.requestTimeoutMs, DEFAULT_REQUEST_TIMEOUT_MS, 'requestTimeoutMs');
    this.slowNoticeMs = positive(options.slowNoticeMs, SLOW_NOTICE_MS, 'slowNoticeMs');
    this.totalRetryBudgetMs = options.totalRetryBudgetMs ?? 300_000;
    const requestsPerMinute = positive(options.requestsPerMinute, DEFAULT_REQUESTS_PER_MINUTE, 'requestsPerMinute');
    const burst = positive(options.burst, defaultBurst(requestsPerMinute), 'burst');
    const writeConcurrency = Math.floor(positive(options.writeConcurrency, 4, 'writeConcurrency'));
    const timeoutMs = positive(options.timeoutMs, 30_000, 'timeoutMs');
    this.sleep = options.sleep ?? realSleep;
    if (options.now !== undefined && options.sleep === undefined) {
      throw new StewardError('config.invalid-option', 'A virtual clock (now) needs a sleep that advances it.', 'tool');
    }
    const clock: PacerClock =
      options.now === undefined ? { now: () => performance.now(), sleep: realSleep } : { now: options.now, sleep: this.sleep };
    this.wallClock = options.now ?? Date.now;
    this.retryPolicy = {
      ...DEFAULT_RETRY_POLICY,
      budgetMs: options.retryBudgetMs ?? 60_000,
      maxRetries: options.maxRetries ?? DEFAULT_RETRY_POLICY.maxRetries,
      random: options.random ?? Math.random,
    };
    if (this.retryPolicy.budgetMs < 0 || this.retryPolicy.maxRetries < 0) {
      throw new StewardError('config.invalid-option', 'retryBudgetMs and maxRetries must not be negative.', 'user');
    }
    const key = pacerKey(this.origin, options.token);
    // Recent requests of this key by other processes count too (requestLedger.ts); not under a virtual clock.
    const ledger = options.now === undefined && options.requestLedger !== false ? ledgerFile(key) : undefined;
    const windowMs = options.rateWindowMs === undefined ? undefined : positive(options.rateWindowMs, 60_000, 'rateWindowMs');
    const shared = sharedPacer(key, { requestsPerMinute, burst, ...(windowMs === undefined ? {} : { windowMs }) }, clock, ledger);
    this.pacer = shared.pacer;
    this.releasePacer = shared.release;
    this.writeLimit = pLimit(writeConcurrency);
    this.transport = new Transport({ timeoutMs, connections: Math.max(POOL_CONNECTIONS, writeConcurrency) }, this.redactor);
  }

  /** The instance origin requests go to (no path). */
  get instanceOrigin(): string {
    return this.origin;
  }

  /**
   * Sends one logical request (with retries) and returns the parsed JSON body, or undefined
   * for an empty one. Throws ApiError for every failure; never exposes the token.
   */
  async request<T>(method: HttpMethod, path: string, options: RequestOptions): Promise<T> {
    if (this.closed) {
      throw new StewardError('api.closed', `${options.operation}: the API client was already closed.`, 'tool');
    }
    if (!path.startsWith('/')) {
      throw new StewardError('internal.path', this.redactor.redact(`Request path must start with "/": ${path}`), 'tool');
    }
    const context: RequestContext = {
      method,
      route: options.route ?? `${method} ${path}`,
      operation: options.operation,
      ...(options.subjects === undefined ? {} : { subjects: options.subjects }),
      ...(options.readOnly === true ? { readOnly: true } : {}),
    };
    const pathAndQuery = `${path}${encodeQuery(options.query)}`;
    const run = (): Promise<T> => this.send<T>(context, pathAndQuery, options.body, options.readBody ?? true);
    return isRead(context) ? run() : this.writeLimit(run);
  }

  /** The pacing budget in requests per minute (the lowest any client of this key asked for). */
  get requestsPerMinute(): number {
    return this.pacer.requestsPerMinute;
  }

  /**
   * How long `requests` more requests take under the pacing budget from now, behind those
   * already waiting (for ETAs and the plan's cost line); server latency not included.
   */
  estimateMs(requests: number): number {
    return this.pacer.estimateMs(requests);
  }

  /**
   * The error of a response that does not fit its shape (`what`: one clause naming the misfit).
   * After a write the server answered 2xx, so the change may well be applied: the outcome is
   * unknown and the caller reads back instead of reporting a failure.
   */
  invalidResponse(context: RequestContext, what: string): ApiError {
    const write = !isRead(context);
    return new ApiError({
      ...context,
      code: 'api.invalid-response',
      summary: this.redactor.redact(`${context.operation}: ${context.route}: ${what}`),
      fault: 'server',
      status: undefined,
      serverMessage: undefined,
      outcomeUnknown: write,
      hint: 'The server answered in a shape steward does not know, so nothing was planned on it; check that the base URL points at the platform, or report the response to its vendor.',
    });
  }

  /** Reports a page of a paginated list to the observer (the page iterators call this). */
  notePage(operation: string, page: number, totalPages: number | undefined): void {
    this.observe?.({ type: 'page', operation, page, totalPages });
  }

  /** Counters of this client since it was created (a copy). */
  stats(): RequestStats {
    return { ...this.counters, byRoute: { ...this.counters.byRoute } };
  }

  /**
   * From now on, a write not yet sent is dropped: one waiting for a slot in the request budget, or
   * waiting to try again after a 429 or a connection never made (the server did nothing). Its
   * request rejects with `apply.not-sent`. Reads, and a write on the wire, are left alone. An
   * interrupted apply uses it so a person is not kept waiting a minute for a write that would
   * then be sent after all.
   */
  dropUnsentWrites(): void {
    this.dropping = true;
    for (const wake of this.droppedWaits) wake();
    this.droppedWaits.clear();
  }

  /** Ends dropUnsentWrites: the writes of a step that has written something are all sent. */
  sendUnsentWrites(): void {
    this.dropping = false;
  }

  private dropping = false;
  private readonly droppedWaits = new Set<() => void>();

  /**
   * `work` (a wait before a write is sent), or DROPPED once dropUnsentWrites is called; what
   * `work` gives later goes to `late` (a pacing permit is given back).
   */
  private unlessDropped<T>(work: Promise<T>, write: boolean, late?: (value: T) => void): Promise<T | typeof DROPPED> {
    if (!write) return work;
    if (this.dropping) {
      work.then(late, () => undefined);
      return Promise.resolve(DROPPED);
    }
    return new Promise((resolve, reject) => {
      const wake = () => {
        resolve(DROPPED);
        work.then(late, () => undefined);
      };
      this.droppedWaits.add(wake);
      work.then(
        (value) => {
          if (!this.droppedWaits.delete(wake)) return;
          resolve(value);
        },
        (error: unknown) => {
          if (!this.droppedWaits.delete(wake)) return;
          reject(error);
        },
      );
    });
  }

  private notSent(context: RequestContext, waiting: string): StewardError {
    return new StewardError('apply.not-sent', `${context.operation}: not sent: apply was stopped while it waited ${waiting}; the server did nothing`, 'user');
  }

  /** Closes the connection pool and gives back the shared pacer; later requests fail. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.releasePacer();
    await this.transport.close();
  }

  private async send<T>(context: RequestContext, pathAndQuery: string, body: unknown, readBody: boolean): Promise<T> {
    const url = `${this.origin}${pathAndQuery}`;
    const headers: Record<string, string> = {
      authorization: `Bearer ${this.#token}`,
      accept: 'application/json',
      'user-agent': 'steward',
    };
    let payload: string | undefined;
    if (body !== undefined) {
      payload = JSON.stringify(body);
      headers['content-type'] = 'application/json';
    }
    let retries = 0;
    let waitedMs = 0;
    // Time spent on attempts and retry waits; pacing waits do not count (they are ours).
    let spentMs = 0;
    const method = context.method as HttpMethod;
    const shownPath = pathAndQuery.split('?', 1)[0] ?? pathAndQuery;
    const write = !isRead(context);
    // A read sent as POST is repeated like a GET: repeating it changes nothing.
    const retryAs: HttpMethod = write ? method : 'GET';
    for (;;) {
      const permit = await this.unlessDropped(this.pacer.acquire((ms) => this.announceWait('pacing', ms, context)), write, (late) => late.release());
      if (permit === DROPPED) throw this.notSent(context, retries === 0 ? 'for its turn in the request budget' : 'to be sent again');
      this.count(context.route, retries > 0);
      this.observe?.({ type: 'request', method, route: context.route, operation: context.operation });
      const started = performance.now();
      const stopSlowNotices = this.startSlowNotices(context, shownPath, retries);
      let outcome: { response: RawResponse } | { failure: TransportFailure };
      try {
        const attemptCapMs = this.requestTimeoutMs - spentMs;
        outcome = { response: await this.transport.send(url, { method: context.method, headers, body: payload }, attemptCapMs) };
      } catch (error) {
        if (!(error instanceof TransportFailure)) throw error;
        outcome = { failure: error };
      } finally {
        stopSlowNotices();
        permit.release();
      }
      const durationMs = performance.now() - started;
      spentMs += durationMs;
      const status = 'response' in outcome ? outcome.response.status : undefined;
      this.observe?.({ type: 'response', method, route: context.route, operation: context.operation, status, ms: durationMs });
      const shown = 'response' in outcome ? outcome.response.status : outcome.failure.failure.code;
      this.log(
        formatAttempt({
          method: context.method,
          path: pathAndQuery,
          outcome: shown,
          durationMs,
          retry: retries,
          pacedMs: permit.waitedMs,
        }),
      );

      let failure: AttemptFailure;
      if ('response' in outcome) {
        const { response } = outcome;
        if (response.status === 429) {
          this.counters.rateLimited += 1;
          const contentType = response.headers.get('content-type');
          // A quota is not lifted by waiting: a final error, the user's to resolve, and no
          // reason to slow the other requests down. A 429 that says when to come back
          // (Retry-After) is waited out, whatever its words.
          if (response.headers.get('retry-after') === null && namesQuota(readErrorBody(response.text, contentType).serverMessage)) {
            throw quotaError(context, { text: response.text, contentType }, this.redactor);
          }
          this.pacer.penalize();
        }
        if (response.status < 300) return readBody ? this.parseBody<T>(context, response) : (undefined as T);
        if (response.status < 400) throw this.redirectError(context, response);
        failure = {
          kind: 'status',
          status: response.status,
          retryAfterMs: parseRetryAfter(response.headers.get('retry-after'), this.wallClock()),
        };
      } else {
        failure = { kind: 'network', notSent: outcome.failure.failure.notSent, permanent: outcome.failure.failure.permanent };
      }

      const decision = this.withinRequestTimeout(
        withinTotalBudget(decideRetry(retryAs, failure, retries, waitedMs, this.retryPolicy), this.retryWaitedMs, this.totalRetryBudgetMs),
        spentMs,
        retries,
        failure.kind === 'status' && failure.retryAfterMs !== undefined,
      );
      if (!decision.retry) {
        const extra = {
          outcomeUnknown: decision.outcomeUnknown,
          retries,
          ...(decision.note === undefined ? {} : { note: decision.note }),
        };
        if ('response' in outcome) {
          const { response } = outcome;
          throw apiErrorFromResponse(
            context,
            { status: response.status, text: response.text, contentType: response.headers.get('content-type') },
            this.redactor,
            extra,
          );
        }
        throw apiErrorFromNetwork(context, outcome.failure.failure, this.redactor, extra);
      }
      retries += 1;
      waitedMs += decision.delayMs;
      spentMs += decision.delayMs;
      this.retryWaitedMs += decision.delayMs;
      const wait = formatRetryWait(context.method, pathAndQuery, decision.reason, decision.delayMs, retries);
      this.log(wait);
      const rateLimited = failure.kind === 'status' && failure.status === 429;
      // Every wait for a 429 is told, however short: the user learns the budget is too high.
      if (rateLimited || decision.delayMs >= 1000) {
        this.notice(
          rateLimited
            ? `rate limited (429) on ${context.method} ${shownPath}: waiting ${seconds(decision.delayMs)} before retry ${retries}`
            : `${context.method} ${shownPath} answered ${decision.reason}: waiting ${seconds(decision.delayMs)} before retry ${retries}`,
        );
      }
      this.announceWait(rateLimited ? 'rate-limit' : 'retry', decision.delayMs, context);
      // A write waits to go again only when nothing reached the server (429, no connection).
      if ((await this.unlessDropped(this.sleep(decision.delayMs), write)) === DROPPED) {
        throw this.notSent(context, rateLimited ? 'out the server\'s rate limit (429)' : 'to be sent again');
      }
    }
  }

  /**
   * Stops retrying once the request's own time limit would be passed by the wait and a new
   * attempt. A backoff of steward's own is shortened so that the attempt after it keeps at least
   * a quarter of the limit (at most a second): an attempt left a few milliseconds can only time
   * out, and that timeout would hide what the server did (a cut body, a reset). A wait the server
   * asked for (Retry-After) is never shortened.
   */
  private withinRequestTimeout(decision: RetryDecision, spentMs: number, retries: number, serverAsked: boolean): RetryDecision {
    if (!decision.retry) return decision;
    if (serverAsked && spentMs + decision.delayMs < this.requestTimeoutMs) return decision;
    const room = this.requestTimeoutMs - spentMs - Math.min(1000, this.requestTimeoutMs / 4);
    if (!serverAsked && room > 0) return decision.delayMs <= room ? decision : { ...decision, delayMs: Math.floor(room) };
    const spent = retries === 0 ? '' : `gave up after ${retries} ${retries === 1 ? 'retry' : 'retries'}; `;
    const limit = `the request's time limit of ${seconds(this.requestTimeoutMs)}`;
    const why =
      spentMs >= this.requestTimeoutMs
        ? `${limit} is spent`
        : serverAsked
          ? `waiting ${seconds(decision.delayMs)} more would pass ${limit}`
          : `too little of ${limit} is left for another attempt`;
    return { retry: false, outcomeUnknown: false, note: `${spent}${why}` };
  }

  private announceWait(reason: 'rate-limit' | 'retry' | 'pacing', ms: number, context: RequestContext): void {
    if (ms >= 1000) this.observe?.({ type: 'wait', reason, ms, operation: context.operation });
  }

  /** Tells, every `slowNoticeMs`, that an attempt still has no answer; returns the function that stops it. */
  private startSlowNotices(context: RequestContext, shownPath: string, retries: number): () => void {
    let waitedMs = 0;
    const timer = setInterval(() => {
      waitedMs += this.slowNoticeMs;
      const attempt = retries === 0 ? '' : `, attempt ${retries + 1}`;
      const line = `still waiting for ${context.method} ${shownPath} (${seconds(waitedMs)}${attempt})`;
      this.log(line);
      this.notice(line);
      this.observe?.({ type: 'slow', method: context.method as HttpMethod, route: context.route, operation: context.operation, waitedMs });
    }, this.slowNoticeMs);
    timer.unref();
    return () => clearInterval(timer);
  }

  private count(route: string, isRetry: boolean): void {
    this.counters.requests += 1;
    if (isRetry) this.counters.retries += 1;
    this.counters.byRoute[route] = (this.counters.byRoute[route] ?? 0) + 1;
  }

  private parseBody<T>(context: RequestContext, response: RawResponse): T {
    if (response.text.trim() === '') return undefined as T;
    try {
      return JSON.parse(response.text) as T;
    } catch {
      const contentType = response.headers.get('content-type') ?? 'no content type';
      return this.throwInvalid(context, response.status, `the response body is not JSON (${contentType})`);
    }
  }

  private throwInvalid(context: RequestContext, status: number, why: string): never {
    // A write answered 2xx was probably carried out: the caller reads back rather than fails.
    const write = !isRead(context);
    throw new ApiError({
      ...context,
      code: 'api.invalid-response',
      summary: this.redactor.redact(`${context.operation}: ${context.route}: ${status} but ${why}`),
      fault: 'server',
      status,
      serverMessage: undefined,
      outcomeUnknown: write,
      hint: 'Check that the base URL points at the platform instance, not a proxy or login page.',
    });
  }

  private redirectError(context: RequestContext, response: RawResponse): ApiError {
    const location = response.headers.get('location');
    let target = 'another address';
    if (location !== null) {
      try {
        target = new URL(location, this.origin).origin;
      } catch {
        // An unreadable Location is reported without its value.
      }
    }
    return new ApiError({
      ...context,
      code: 'api.redirect',
      summary: this.redactor.redact(`${context.operation}: ${response.status} redirect to ${target}; the token is not sent along`),
      fault: 'user',
      status: response.status,
      serverMessage: undefined,
      hint: 'Set the base URL to the address the instance redirects to.',
    });
  }
}
