// What `until:` makes of a declared entry at the plan's instant: in force until a day the plan
// names, or expired, and then undone (a limit back to `then`, a routine deleted or paused).
import { hasExpired, parseUntil } from '../domain/expiry.js';
import type { PlanExpiry } from '../model/plan.js';

export type EntryExpiry = { expired: false; until: PlanExpiry } | { expired: true; reason: string };

/** The entry's expiry at `now`; undefined without `until` (or one validation already refused). */
export function expiryOf(entry: { until?: string }, now: Date = new Date()): EntryExpiry | undefined {
  if (entry.until === undefined) return undefined;
  const until = parseUntil(entry.until);
  if (!until.ok) return undefined;
  return hasExpired(until, now) ? { expired: true, reason: `expired on ${until.day}` } : { expired: false, until: { at: new Date(until.expiresAt).toISOString(), day: until.day } };
}

/** The step fields an entry in force until a day carries. */
export function untilOf(expiry: EntryExpiry | undefined): { until?: PlanExpiry } {
  return expiry?.expired === false ? { until: expiry.until } : {};
}
