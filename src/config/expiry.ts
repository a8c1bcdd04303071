// `until:` on limits and routines: a readable instant (domain/expiry.ts), `then:` and `onExpiry:`
// only beside it, and a warning for an entry that has expired (the next apply undoes it) or
// expires within a week.
import { parseUntil } from '../domain/expiry.js';
import type { Findings } from './findings.js';
import { isRecord } from './sources.js';
import type { ConfigPath, StewardConfig } from './types.js';

/** How soon an expiry is worth a warning. */
export const EXPIRY_WARNING_DAYS = 7;

const DAY_MS = 86_400_000;
const LIMIT_SECTIONS = ['userCreditLimits', 'userGroupCreditLimits', 'entityGroupCreditLimits'] as const;

/** Every `until`, `then` and `onExpiry` of the configuration. */
export function checkExpiry(config: Record<string, unknown>, findings: Findings, now: Date): void {
  for (const section of [...LIMIT_SECTIONS, 'routines'] as const) {
    const entries = config[section];
    if (!Array.isArray(entries)) continue;
    entries.forEach((entry, index) => {
      // Most entries expire never: no path is built for them (a config may hold ten thousand).
      if (isRecord(entry) && (entry.until !== undefined || entry.then !== undefined || entry.onExpiry !== undefined)) checkEntry(section, entry, [section, index], findings, now);
    });
  }
}

function checkEntry(section: (typeof LIMIT_SECTIONS)[number] | 'routines', entry: Record<string, unknown>, path: ConfigPath, findings: Findings, now: Date): void {
  const companion = section === 'routines' ? 'onExpiry' : 'then';
  if (entry.until === undefined && entry[companion] === undefined) return;
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
  const undo = section === 'routines' ? (entry.onExpiry === 'pause' ? 'pauses the routine' : 'deletes the routine') : limitUndo(entry.then);
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

/** The entries of `config` that expired after `from` and by `to`. */
export function expiriesBetween(config: StewardConfig, from: Date, to: Date): PassedExpiry[] {
  const named: { section: (typeof LIMIT_SECTIONS)[number] | 'routines'; entries: readonly { until?: string }[]; name: (index: number) => string }[] = [
    { section: 'userCreditLimits', entries: config.userCreditLimits ?? [], name: (index) => `the credit limit of ${config.userCreditLimits![index]!.email ?? config.userCreditLimits![index]!.userId}` },
    { section: 'userGroupCreditLimits', entries: config.userGroupCreditLimits ?? [], name: (index) => `the credit limit of user group "${config.userGroupCreditLimits![index]!.group ?? config.userGroupCreditLimits![index]!.userGroupId}"` },
    { section: 'entityGroupCreditLimits', entries: config.entityGroupCreditLimits ?? [], name: (index) => `the credit limit of entity group "${config.entityGroupCreditLimits![index]!.entity}"` },
    { section: 'routines', entries: config.routines ?? [], name: (index) => `routine "${config.routines![index]!.name}"` },
  ];
  const passed: PassedExpiry[] = [];
  for (const { section, entries, name } of named) {
    entries.forEach((entry, index) => {
      if (entry.until === undefined) return;
      const until = parseUntil(entry.until);
      if (!until.ok || until.expiresAt <= from.getTime() || until.expiresAt > to.getTime()) return;
      passed.push({ path: [section, index, 'until'], entry: name(index), day: until.day });
    });
  }
  return passed;
}

function limitUndo(then: unknown): string {
  if (then === undefined || then === 'default') return 'resets the limit to the default';
  if (then === null) return 'makes the limit unlimited';
  return `sets the limit back to ${String(then)}`;
}
