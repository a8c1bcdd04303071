// Keeps every client of one API key under the platform's per-key request budget, so parallel
// reads are spread out instead of answered with 429, and backs off after a 429 all the same.
//
// Two rules work together:
//  - a token bucket (capacity `burst`, refilled at the current rate) smooths bursts;
//  - a sliding window never lets more than `rate` requests count within one minute. A request
//    holds its slot from the moment it is sent until one window after its response arrived:
//    the server counted it somewhere in between, so it has surely left the server's window
//    when the slot frees. This makes "at most N per minute" hold at the server, not only here.
// After a 429 the rate is halved (down to a floor) and the bucket drained; it then grows back
// linearly, one whole budget per `restoreMs` (4 minutes: from half rate, 2 minutes).

import { createHash } from 'node:crypto';
import { readLedger, writeLedger } from './requestLedger.js';

/** Time source and timer; tests inject a virtual one. */
export interface PacerClock {
  now(): number;
  sleep(ms: number): Promise<void>;
}

export interface PacerOptions {
  /** Configured budget, requests per minute. */
  requestsPerMinute: number;
  /** Requests that may start back to back before spacing applies. */
  burst: number;
  /** Length of the rate window; one minute for the platform. */
  windowMs?: number;
  /** After a 429 the rate regains one whole budget per this time (default 4 minutes). */
  restoreMs?: number;
}

/** A granted slot; `release()` once the response has been read (or the attempt failed). */
export interface Permit {
  /** How long the caller waited for this slot. */
  waitedMs: number;
  release(): void;
}

const MINUTE = 60_000;

/** A per-key pacer shared by every concurrent request; grants slots in FIFO order. */
export class Pacer {
  private configuredRate: number;
  private burst: number;
  private readonly windowMs: number;
  private readonly restoreMs: number;
  private reducedRate: number | undefined;
  private reducedAt = 0;
  private tokens: number;
  private lastRefill: number;
  private inFlight = 0;
  private expiries: number[] = [];
  /** When this process's requests ended (clock time), within the last window: for the ledger. */
  private releases: number[] = [];
  private readonly queue: { enqueuedAt: number; grant: (permit: Permit) => void; onWait: ((ms: number) => void) | undefined }[] = [];
  private timerArmed = false;

  constructor(
    options: PacerOptions,
    private readonly clock: PacerClock,
  ) {
    this.configuredRate = options.requestsPerMinute;
    this.burst = Math.max(1, Math.floor(options.burst));
    this.windowMs = options.windowMs ?? MINUTE;
    this.restoreMs = options.restoreMs ?? 4 * MINUTE;
    this.tokens = this.burst;
    this.lastRefill = clock.now();
  }

  /** Lowers the configured budget when another client of the same key asks for less. */
  tighten(requestsPerMinute: number, burst: number): void {
    this.configuredRate = Math.min(this.configuredRate, requestsPerMinute);
    this.burst = Math.min(this.burst, Math.max(1, Math.floor(burst)));
    this.tokens = Math.min(this.tokens, this.burst);
  }

  /**
   * Counts requests another process of this key sent `agesMs` ago (requestLedger.ts): they hold
   * the window until one window after they ended, and the bucket is replayed over them.
   */
  seed(agesMs: readonly number[]): void {
    const now = this.clock.now();
    const ages = agesMs.filter((age) => age >= 0 && age < this.windowMs).sort((a, b) => b - a);
    let tokens = this.burst;
    let previous = ages[0] ?? 0;
    for (const age of ages) {
      tokens = Math.max(0, Math.min(this.burst, tokens + ((previous - age) * this.configuredRate) / this.windowMs) - 1);
      previous = age;
      this.expiries.push(now - age + this.windowMs);
    }
    this.tokens = Math.min(this.tokens, Math.min(this.burst, tokens + (previous * this.configuredRate) / this.windowMs));
    this.lastRefill = now;
    this.pump();
  }

  /** How long ago (ms) each request of this pacer ended, within the last window. */
  recentAges(): number[] {
    const now = this.clock.now();
    this.releases = this.releases.filter((at) => at > now - this.windowMs);
    return this.releases.map((at) => now - at);
  }

  /** The rate in effect now (requests per minute), below the configured one after a 429. */
  currentRate(now = this.clock.now()): number {
    if (this.reducedRate === undefined) return this.configuredRate;
    const restored = this.reducedRate + (this.configuredRate * (now - this.reducedAt)) / this.restoreMs;
    if (restored >= this.configuredRate) {
      this.reducedRate = undefined;
      return this.configuredRate;
    }
    return restored;
  }

  /** Records a 429: halves the rate (not below an eighth of the budget) and drains the bucket. */
  penalize(): void {
    const now = this.clock.now();
    this.refill(now);
    const floor = Math.max(1, this.configuredRate / 8);
    this.reducedRate = Math.max(floor, this.currentRate(now) / 2);
    this.reducedAt = now;
    this.tokens = 0;
  }

  /**
   * Waits for a slot: resolves in request order once both the bucket and the window allow.
   * `onWait` hears of every pause this request waits at the head of the queue.
   */
  acquire(onWait?: (ms: number) => void): Promise<Permit> {
    return new Promise((resolve) => {
      this.queue.push({ enqueuedAt: this.clock.now(), grant: resolve, onWait });
      this.pump();
    });
  }

  /** The budget this pacer keeps to (requests per minute), the lowest any of its clients asked for. */
  get requestsPerMinute(): number {
    return this.configuredRate;
  }

  /**
   * How long `requests` more requests take to be granted from now, behind those already
   * queued, at the current rate: what the bucket and window allow at once goes now, the rest
   * at one per 60 000 / rate ms. Server latency is not included.
   */
  estimateMs(requests: number): number {
    if (!(requests > 0)) return 0;
    const now = this.clock.now();
    this.refill(now);
    this.expiries = this.expiries.filter((at) => at > now);
    const windowRoom = Math.max(0, this.windowLimit(now) - this.inFlight - this.expiries.length);
    const immediate = Math.min(Math.floor(this.tokens), windowRoom);
    const rest = Math.max(0, this.queue.length + requests - immediate);
    return Math.ceil((rest * this.windowMs) / this.currentRate(now));
  }

  /** Requests waiting for a slot, for diagnostics. */
  waiting(): number {
    return this.queue.length;
  }

  private refill(now: number): void {
    const elapsed = Math.max(0, now - this.lastRefill);
    this.tokens = Math.min(this.burst, this.tokens + (elapsed * this.currentRate(now)) / this.windowMs);
    this.lastRefill = now;
  }

  private windowLimit(now: number): number {
    return Math.max(1, Math.floor(this.currentRate(now) * (this.windowMs / MINUTE)));
  }

  /** Milliseconds until the window admits one more request; Infinity while only in-flight requests fill it. */
  private windowWait(now: number): number {
    this.expiries = this.expiries.filter((at) => at > now);
    const excess = this.inFlight + this.expiries.length - this.windowLimit(now) + 1;
    if (excess <= 0) return 0;
    if (excess > this.expiries.length) return Infinity;
    const sorted = [...this.expiries].sort((a, b) => a - b);
    return (sorted[excess - 1] as number) - now;
  }

  private pump(): void {
    if (this.timerArmed) return;
    while (this.queue.length > 0) {
      const now = this.clock.now();
      this.refill(now);
      const windowWait = this.windowWait(now);
      const bucketWait = this.tokens >= 1 ? 0 : ((1 - this.tokens) * this.windowMs) / this.currentRate(now);
      const wait = Math.max(windowWait, bucketWait);
      if (wait === Infinity) return; // a release() will pump again
      if (wait > 0) {
        this.queue[0]?.onWait?.(Math.ceil(wait));
        this.timerArmed = true;
        void this.clock.sleep(Math.ceil(wait)).then(() => {
          this.timerArmed = false;
          this.pump();
        });
        return;
      }
      const next = this.queue.shift();
      if (next === undefined) return;
      this.tokens -= 1;
      this.inFlight += 1;
      let released = false;
      next.grant({
        waitedMs: now - next.enqueuedAt,
        release: () => {
          if (released) return;
          released = true;
          this.inFlight -= 1;
          const at = this.clock.now();
          this.expiries.push(at + this.windowMs);
          this.releases.push(at);
          if (this.releases.length > 2 * this.configuredRate) this.releases = this.releases.filter((time) => time > at - this.windowMs);
          this.pump();
        },
      });
    }
  }
}

interface RegistryEntry {
  pacer: Pacer;
  users: number;
  /** Writes this process's recent requests to the key's ledger file. */
  save: (() => void) | undefined;
}

const registry = new Map<string, RegistryEntry>();

/** The registry key of an API key at an instance: a hash, so the token is never held as a key. */
export function pacerKey(origin: string, token: string): string {
  return createHash('sha256').update(origin).update('\0').update(token).digest('hex');
}

/**
 * Returns the pacer shared by every client of this key (creating it on first use) and a
 * function to give it back; the pacer is dropped when its last client is closed. With a
 * `ledger` file (requestLedger.ts), a new pacer counts the key's requests other processes made
 * within the window, and this process's are written there when the last client is closed (or
 * the process exits first).
 */
export function sharedPacer(key: string, options: PacerOptions, clock: PacerClock, ledger?: string): { pacer: Pacer; release: () => void } {
  let entry = registry.get(key);
  if (entry === undefined) {
    const pacer = new Pacer(options, clock);
    const windowMs = options.windowMs ?? MINUTE;
    let save: (() => void) | undefined;
    if (ledger !== undefined) {
      const wall = Date.now();
      pacer.seed(readLedger(ledger, wall, windowMs).map((time) => wall - time));
      save = () => {
        const now = Date.now();
        writeLedger(ledger, pacer.recentAges().map((age) => now - age), now, windowMs);
      };
      process.once('exit', save);
    }
    entry = { pacer, users: 0, save };
    registry.set(key, entry);
  } else {
    entry.pacer.tighten(options.requestsPerMinute, options.burst);
  }
  entry.users += 1;
  const held = entry;
  let released = false;
  return {
    pacer: held.pacer,
    release: () => {
      if (released) return;
      released = true;
      held.users -= 1;
      if (held.users === 0 && registry.get(key) === held) {
        registry.delete(key);
        if (held.save !== undefined) {
          process.removeListener('exit', held.save);
          held.save();
        }
      }
    },
  };
}

/** Default burst for a budget: a tenth of a minute's budget, between 1 and 10. */
export function defaultBurst(requestsPerMinute: number): number {
  return Math.max(1, Math.min(10, Math.floor(requestsPerMinute / 6)));
}
