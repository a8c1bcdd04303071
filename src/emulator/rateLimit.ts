// The per-token request budget, counted one of the two ways gaps.md leaves open: a sliding
// window (the last `windowMs` before each request), or fixed windows aligned to multiples of
// `windowMs` from the epoch, so two consecutive processes using one key share a window just as
// they would against a server. Requests over the budget are refused (and not counted), and the
// caller learns how long until a slot frees up.
import type { RateLimitWindow } from './profiles.js';

export type RateDecision = { allowed: true } | { allowed: false; retryAfterSeconds: number };

export interface RateLimitOptions {
  /** Requests per window per key; undefined: no limit. */
  budget: number | undefined;
  window: RateLimitWindow;
  windowMs: number;
}

/** Seconds until `untilMs`, rounded up, at least 1 (what a `Retry-After` can say). */
function secondsUntil(untilMs: number, nowMs: number): number {
  return Math.max(1, Math.ceil((untilMs - nowMs) / 1000));
}

/** Per-key windows of admitted requests. */
export class RateLimiter {
  /** Sliding: admission times within the window, oldest first. */
  private readonly recent = new Map<string, number[]>();
  /** Fixed: the current window's start and how many requests it admitted. */
  private readonly fixed = new Map<string, { start: number; count: number }>();

  constructor(private readonly options: RateLimitOptions) {}

  /** Admits or refuses one request of `key` at `nowMs`; admitted requests use up a slot. */
  admit(key: string, nowMs: number): RateDecision {
    const { budget, window, windowMs } = this.options;
    if (budget === undefined) return { allowed: true };
    if (window === 'fixed') {
      const start = Math.floor(nowMs / windowMs) * windowMs;
      const current = this.fixed.get(key);
      const count = current?.start === start ? current.count : 0;
      if (count >= budget) return { allowed: false, retryAfterSeconds: secondsUntil(start + windowMs, nowMs) };
      this.fixed.set(key, { start, count: count + 1 });
      return { allowed: true };
    }
    const recent = (this.recent.get(key) ?? []).filter((at) => at > nowMs - windowMs);
    if (recent.length >= budget) {
      this.recent.set(key, recent);
      return { allowed: false, retryAfterSeconds: secondsUntil(recent[0]! + windowMs, nowMs) };
    }
    recent.push(nowMs);
    this.recent.set(key, recent);
    return { allowed: true };
  }

  /** Forgets every window. */
  reset(): void {
    this.recent.clear();
    this.fixed.clear();
  }
}
