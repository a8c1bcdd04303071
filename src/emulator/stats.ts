// Request counters for benchmarks and tests: per `METHOD /route/template`, per status, reads,
// writes (whose running number also addresses write faults), 429s and faults fired.

export interface EmulatorStats {
  /** Every API request received (the `/__emulator` routes are not counted). */
  requests: number;
  /** GET requests. */
  reads: number;
  /** POST, PUT, PATCH and DELETE requests; the Nth is "write N" for faults. */
  writes: number;
  /** Requests answered 429 by the rate limit. */
  rateLimited: number;
  /** Faults that fired (500, reset, drop-after-commit). */
  faultsFired: number;
  /** Requests per `METHOD /route/template`; `METHOD <unknown>` for paths no route matches. */
  byRoute: Record<string, number>;
  /** Responses sent per HTTP status (dropped and reset connections have none). */
  byStatus: Record<string, number>;
}

function emptyStats(): EmulatorStats {
  return { requests: 0, reads: 0, writes: 0, rateLimited: 0, faultsFired: 0, byRoute: {}, byStatus: {} };
}

/** The counters of one emulator since start or the last reset. */
export class StatsRecorder {
  private current = emptyStats();

  /** Counts a request; returns its write number (1-based) for a write, null for anything else. */
  recordRequest(routeKey: string, method: string, isWrite: boolean): number | null {
    const stats = this.current;
    stats.requests += 1;
    stats.byRoute[routeKey] = (stats.byRoute[routeKey] ?? 0) + 1;
    if (!isWrite) stats.reads += 1;
    if (!isWrite) return null;
    stats.writes += 1;
    return stats.writes;
  }

  /** Counts a response sent with `status`. */
  recordStatus(status: number): void {
    this.current.byStatus[status] = (this.current.byStatus[status] ?? 0) + 1;
  }

  /** Counts a request refused by the rate limit. */
  recordRateLimited(): void {
    this.current.rateLimited += 1;
  }

  /** Counts a fault that fired. */
  recordFault(): void {
    this.current.faultsFired += 1;
  }

  /** A copy of the counters. */
  snapshot(): EmulatorStats {
    return structuredClone(this.current);
  }

  /** Back to zero (a reset restarts write numbering too). */
  reset(): void {
    this.current = emptyStats();
  }
}
