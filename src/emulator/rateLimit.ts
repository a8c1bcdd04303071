// The per-token request budget: a sliding one-minute window. Requests over the budget are
// refused (and not counted), and the caller learns how long until a slot frees up.

const WINDOW_MS = 60_000;

export type RateDecision = { allowed: true } | { allowed: false; retryAfterSeconds: number };

/** Per-key sliding one-minute windows of admitted requests. */
export class RateLimiter {
  private readonly windows = new Map<string, number[]>();

  /** `requestsPerMinute` undefined: no limit. */
  constructor(private readonly requestsPerMinute: number | undefined) {}

  /** Admits or refuses one request of `key` at `nowMs`; admitted requests use up a slot. */
  admit(key: string, nowMs: number): RateDecision {
    if (this.requestsPerMinute === undefined) return { allowed: true };
    const recent = (this.windows.get(key) ?? []).filter((at) => at > nowMs - WINDOW_MS);
    if (recent.length >= this.requestsPerMinute) {
      this.windows.set(key, recent);
      const freesAt = recent[0]! + WINDOW_MS;
      return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((freesAt - nowMs) / 1000)) };
    }
    recent.push(nowMs);
    this.windows.set(key, recent);
    return { allowed: true };
  }

  /** Forgets every window. */
  reset(): void {
    this.windows.clear();
  }
}
