// `until:` on the entries of the sections that declare it (`ConfigSection`'s `expiry`: limits and
// routines): a readable instant (domain/expiry.ts), the field that says what then happens
// (`then:`, `onExpiry:`) only beside it, and a warning for an entry that has expired (the next
// apply undoes it) or expires within a week.
import { parseUntil } from '../domain/expiry.js';
import type { Findings } from './findings.js';
import { isRecord } from './sources.js';
import type { ConfigPath, StewardConfig } from './types.js';

/** How soon an expiry is worth a warning. */
export const EXPIRY_WARNING_DAYS = 7;

const DAY_MS = 86_400_000;

/** What a section whose entries take `until:` declares of them (kinds/<folder>/configSchema.ts). */
export interface ExpiryRules {
  /** The field beside `until` that says what happens once it has passed (`then`, `onExpiry`). */
  readonly companion: string;
  /** What the first apply after `until` does to the entry, as the rest of a sentence: `deletes the routine`. */
  readonly undo: (entry: Record<string, unknown>) => string;
  /** The entry, named in a sentence: `routine "Quarter-end push"`, `the credit limit of grace@acme.example`. */
  readonly entry: (entry: Record<string, unknown>) => string;
}

/** Every `until` of the configuration, and what beside it says what then happens, in the sections `expiring` names. */
export function checkExpiry(config: Record<string, unknown>, findings: Findings, now: Date, expiring: ReadonlyMap<string, ExpiryRules>): void {
  for (const [section, rules] of expiring) {
    const entries = config[section];
    if (!Array.isArray(entries)) continue;
    entries.forEach((entry, index) => {
      // Most entries expire never: no path is built for them (a config may hold ten thousand).
      if (isRecord(entry) && (entry.until !== undefined || entry[rules.companion] !== undefined)) checkEntry(rules, entry, [section, index], findings, now);
    });
  }
}

function checkEntry(rules: ExpiryRules, entry: Record<string, unknown>, path: ConfigPath, findings: Findings, now: Date): void {
  const companion = rules.companion;
  const text = findings.text(entry, 'until', path);
  if (entry.until === undefined) {
    if (entry[companion] !== undefined) {
      findings.add('until.missing', [...path, companion], `\`${companion}\` says what happens once \`until\` has passed, but this entry has no \`until\``, {
        hint: 'add `until: YYYY-MM-DD`, or remove it',
        target: 'key',
      });
    }
    return;
  }
  if (text === undefined) return;
  const until = parseUntil(text);
  if (!until.ok) {
    findings.add('until.format', [...path, 'until'], until.problem, { hint: 'quote it if in doubt: `until: "2026-12-31"`' });
    return;
  }
  const undo = rules.undo(entry);
  const left = until.expiresAt - now.getTime();
  if (left <= 0) {
    findings.add('until.expired', [...path, 'until'], `expired on ${until.day}: the next apply ${undo}`, {
      severity: 'warning',
      hint: 'remove the entry (or its `until`) once that is applied',
    });
  } else if (left <= EXPIRY_WARNING_DAYS * DAY_MS) {
    const days = Math.ceil(left / DAY_MS);
    findings.add('until.soon', [...path, 'until'], `expires on ${until.day}, within ${days === 1 ? 'a day' : `${days} days`}: the first apply after that ${undo}`, {
      severity: 'warning',
      hint: 'move `until` on if it should last longer',
    });
  }
}

/** An entry whose `until` passed between two instants (a plan's making and its apply). */
export interface PassedExpiry {
  path: ConfigPath;
  /** `routine "Quarter-end push"`, `the credit limit of grace@acme.example`. */
  entry: string;
  day: string;
}

/** The entries of `config` that expired after `from` and by `to`, in the sections `expiring` names. */
export function expiriesBetween(config: StewardConfig, expiring: ReadonlyMap<string, ExpiryRules>, from: Date, to: Date): PassedExpiry[] {
  const sections: Record<string, unknown> = { ...config };
  const passed: PassedExpiry[] = [];
  for (const [section, rules] of expiring) {
    const entries = sections[section];
    if (!Array.isArray(entries)) continue;
    entries.forEach((entry, index) => {
      if (!isRecord(entry) || typeof entry.until !== 'string') return;
      const until = parseUntil(entry.until);
      if (!until.ok || until.expiresAt <= from.getTime() || until.expiresAt > to.getTime()) return;
      passed.push({ path: [section, index, 'until'], entry: rules.entry(entry), day: until.day });
    });
  }
  return passed;
}
