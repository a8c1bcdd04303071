// Routine schedules: the platform's six-field cron (minute hour day-of-month month day-of-week
// year, `?` in exactly one day field, at most hourly) and IANA timezones. The config validator
// and the emulator both call these, so steward rejects exactly what the server rejects.
import awsCron from 'aws-cron-parser';

export const CRON_FIELD_NAMES = ['minute', 'hour', 'day-of-month', 'month', 'day-of-week', 'year'] as const;

const MONTHS = 'JAN|FEB|MAR|APR|MAY|JUN|JUL|AUG|SEP|OCT|NOV|DEC';
const DAYS = 'SUN|MON|TUE|WED|THU|FRI|SAT';

// The grammar of one comma-separated element of each field (AWS-style cron, which the
// platform's six-field form follows). aws-cron-parser expands values but trusts its input, so
// the grammar is checked here first.
const num = '\\d{1,4}';
const rangeOrStep = (value: string) => `(?:\\*|${value}(?:-${value})?)(?:/\\d{1,2})?`;
const ELEMENT: readonly RegExp[] = [
  new RegExp(`^${rangeOrStep(num)}$`),
  new RegExp(`^${rangeOrStep(num)}$`),
  new RegExp(`^(?:${rangeOrStep(num)}|L|${num}W|L-${num})$`),
  new RegExp(`^${rangeOrStep(`(?:${num}|${MONTHS})`)}$`, 'i'),
  new RegExp(`^(?:${rangeOrStep(`(?:${num}|${DAYS})`)}|${num}L|(?:${num}|${DAYS})#\\d)$`, 'i'),
  new RegExp(`^${rangeOrStep(num)}$`),
];

export interface ParsedSchedule {
  minutes: number[];
  hours: number[];
}

export type ScheduleCheck = { ok: true; parsed: ParsedSchedule } | { ok: false; reason: string };

/** Checks a routine schedule the way the platform does; `reason` is a sentence for the user. */
export function checkSchedule(schedule: string): ScheduleCheck {
  const fields = schedule.trim().split(/\s+/);
  if (schedule.trim() === '' || fields.length !== 6) {
    return {
      ok: false,
      reason: `must have six fields (minute hour day-of-month month day-of-week year), found ${schedule.trim() === '' ? 0 : fields.length}`,
    };
  }
  const [, , dayOfMonth, , dayOfWeek] = fields as [string, string, string, string, string, string];
  if ((dayOfMonth === '?') === (dayOfWeek === '?')) {
    return { ok: false, reason: 'exactly one of day-of-month and day-of-week must be `?`' };
  }
  for (const [index, field] of fields.entries()) {
    if (field === '?' && (index === 2 || index === 4)) continue;
    const bad = field.split(',').find((element) => !ELEMENT[index]!.test(element));
    if (bad !== undefined) {
      return { ok: false, reason: `invalid ${CRON_FIELD_NAMES[index]} field \`${field}\`` };
    }
  }
  let parsed: ReturnType<typeof awsCron.parse>;
  try {
    parsed = awsCron.parse(fields.join(' '));
  } catch (error) {
    return { ok: false, reason: (error as Error).message.replace(/^Invalid: /, '') };
  }
  const minutes = parsed.minutes.filter((m): m is number => typeof m === 'number');
  const hours = parsed.hours.filter((h): h is number => typeof h === 'number');
  if (minutes.length !== 1) {
    return { ok: false, reason: 'runs more often than hourly (the minute field must name a single minute)' };
  }
  return { ok: true, parsed: { minutes, hours } };
}

export type TimeZoneCheck = { ok: true; canonical: string } | { ok: false; reason: string; hint?: string };

/**
 * Checks an IANA timezone identifier. Uses `Intl.DateTimeFormat`, which (unlike
 * `Intl.supportedValuesOf('timeZone')`) accepts every valid name, including `UTC` and aliases.
 */
export function checkTimeZone(timezone: string): TimeZoneCheck {
  if (!/^[A-Za-z][A-Za-z0-9_+\-/]*$/.test(timezone)) {
    return { ok: false, reason: `\`${timezone}\` is not an IANA timezone identifier (like Europe/Berlin or UTC)` };
  }
  let canonical: string;
  try {
    canonical = new Intl.DateTimeFormat('en-US', { timeZone: timezone }).resolvedOptions().timeZone;
  } catch {
    return { ok: false, reason: `unknown timezone \`${timezone}\`` };
  }
  if (canonical !== timezone && canonical.toLowerCase() === timezone.toLowerCase()) {
    return { ok: false, reason: `timezone \`${timezone}\` is mis-cased`, hint: `did you mean \`${canonical}\`?` };
  }
  return { ok: true, canonical };
}
