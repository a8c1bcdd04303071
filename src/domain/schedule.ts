// Routine schedules: the platform's six-field cron (minute hour day-of-month month day-of-week
// year, `?` in exactly one day field, at most hourly, firing at least once more) and IANA
// timezones. The config validator and the emulator both call these, so steward rejects exactly
// what the server rejects.
import { createRequire } from 'node:module';
import type AwsCronParser from 'aws-cron-parser';

let parser: typeof AwsCronParser | undefined;
/**
 * aws-cron-parser (CommonJS), required the first time a schedule is read: checking a config
 * without routines, the start-up of most commands, does not pay for loading it.
 */
export function cronParser(): typeof AwsCronParser {
  return (parser ??= createRequire(import.meta.url)('aws-cron-parser') as typeof AwsCronParser);
}

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

/** The values each field accepts, in the platform's (AWS) cron: days of the week are 1 (SUN) to 7. */
const FIELD_RANGE: readonly [min: number, max: number, unit: string][] = [
  [0, 59, 'minutes'],
  [0, 23, 'hours'],
  [1, 31, 'days of the month'],
  [1, 12, 'months'],
  [1, 7, 'days of the week'],
  [1970, 2199, 'years'],
];

/** Why one element of a field (already matching its grammar) names no value, or undefined. */
function elementProblem(index: number, element: string): string | undefined {
  const step = /\/(\d+)$/.exec(element);
  if (step !== null && Number(step[1]) < 1) return `a step (\`/${step[1]}\`) must be at least 1`;
  const week = /#(\d)$/.exec(element);
  if (week !== null && (Number(week[1]) < 1 || Number(week[1]) > 5)) return `the week of the month (\`#${week[1]}\`) is 1 to 5`;
  const [min, max, unit] = FIELD_RANGE[index]!;
  const values = (step === null ? element : element.slice(0, step.index)).replace(/#\d$|L$|W$/, '').split('-');
  for (const value of values) {
    if (!/^\d+$/.test(value)) continue; // names (MON, JAN), `*`, `L`
    if (Number(value) < min || Number(value) > max) return `${unit} are ${min} to ${max}, found ${Number(value)}`;
  }
  return undefined;
}

/**
 * A schedule as the platform stores it: its fields separated by one space, none around them.
 * The server normalises what it is sent to this, so a schedule written otherwise would differ
 * from the live one in every plan.
 */
export function canonicalSchedule(schedule: string): string {
  return schedule.trim().split(/\s+/).join(' ');
}

const SPACE_NAMES: Record<number, string> = { 0x09: 'tab', 0x0a: 'line break', 0xa0: 'no-break space', 0x2009: 'thin space', 0x202f: 'narrow no-break space', 0x3000: 'ideographic space' };

/** What in a schedule's spacing the server would change (see canonicalSchedule), or undefined. */
export function scheduleSpacingProblem(schedule: string): string | undefined {
  if (schedule.trim() === '' || schedule === canonicalSchedule(schedule)) return undefined;
  const other = /[^\S ]/.exec(schedule);
  if (other !== null) {
    const code = other[0].codePointAt(0)!;
    const name = SPACE_NAMES[code] ?? 'Unicode space';
    return `holds a ${name} (U+${code.toString(16).toUpperCase().padStart(4, '0')}) where only a plain space may separate fields`;
  }
  if (schedule !== schedule.trim()) return 'has spaces before or after it';
  return 'has more than one space between two fields';
}

export interface ParsedSchedule {
  minutes: number[];
  hours: number[];
}

export type ScheduleCheck = { ok: true; parsed: ParsedSchedule } | { ok: false; reason: string };

/**
 * Checks a routine schedule the way the platform does; `reason` is a sentence for the user.
 * A schedule must fire at least once after `now` (30 February, or only years gone by, never do).
 * Pure apart from reading the clock when `now` is not given.
 */
export function checkSchedule(schedule: string, now: Date = new Date()): ScheduleCheck {
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
    const outOfRange = field.split(',').map((element) => elementProblem(index, element)).find((problem) => problem !== undefined);
    if (outOfRange !== undefined) {
      return { ok: false, reason: `invalid ${CRON_FIELD_NAMES[index]} field \`${field}\`: ${outOfRange}` };
    }
  }
  let parsed: ReturnType<typeof AwsCronParser.parse>;
  try {
    parsed = cronParser().parse(fields.join(' '));
  } catch (error) {
    return { ok: false, reason: (error as Error).message.replace(/^Invalid: /, '') };
  }
  const minutes = parsed.minutes.filter((m): m is number => typeof m === 'number');
  const hours = parsed.hours.filter((h): h is number => typeof h === 'number');
  if (minutes.length !== 1) {
    return { ok: false, reason: 'runs more often than hourly (the minute field must name a single minute)' };
  }
  if (firstRunAfter(parsed, new Date(now.getTime() - LATEST_UTC_OFFSET_MS)) === null) {
    const everRuns = firstRunAfter(parsed, new Date(Date.UTC(FIRST_YEAR, 0, 1) - 60_000)) !== null;
    return {
      ok: false,
      reason: everRuns ? 'never runs again (every date it matches is in the past)' : 'never runs (no date matches it)',
    };
  }
  return { ok: true, parsed: { minutes, hours } };
}

// The schedule is evaluated in the routine's timezone, which this check does not know: a wall-clock
// time counts as future if it is future anywhere, i.e. after now in UTC-12, the latest timezone.
const LATEST_UTC_OFFSET_MS = 12 * 3_600_000;
const FIRST_YEAR = 1970;

export type ParsedCron = ReturnType<typeof AwsCronParser.parse>;

/**
 * The first wall-clock time after `from` the schedule matches, or null when there is none.
 * aws-cron-parser's `next` expects ascending value lists, builds dates with Date.UTC (so
 * 30 February rolls over to 2 March) and gives up with an exception after ten empty months; so
 * it is asked one month at a time, and only an answer inside that month is taken.
 */
export function firstRunAfter(parsed: ParsedCron, from: Date): Date | null {
  const sorted = ascending(parsed);
  const fromYear = from.getUTCFullYear();
  for (const year of sorted.years as number[]) {
    if (year < fromYear) continue;
    for (const month of sorted.months as number[]) {
      const monthStart = Date.UTC(year, month - 1, 1);
      const monthEnd = Date.UTC(year, month, 1);
      if (monthEnd <= from.getTime()) continue;
      // `next` answers strictly after the minute it is given.
      const searchFrom = new Date(Math.max(monthStart - 60_000, from.getTime()));
      let run: Date | null;
      try {
        run = cronParser().next(sorted, searchFrom);
      } catch {
        continue; // no matching day in this month and the months after it
      }
      if (run !== null && run.getTime() < monthEnd && run.getUTCMonth() === month - 1) return run;
    }
  }
  return null;
}

function ascending(parsed: ParsedCron): ParsedCron {
  const sort = (values: (string | number)[]) =>
    values.every((value) => typeof value === 'number') ? [...(values as number[])].sort((a, b) => a - b) : values;
  return {
    minutes: sort(parsed.minutes),
    hours: sort(parsed.hours),
    daysOfMonth: sort(parsed.daysOfMonth),
    months: sort(parsed.months),
    // Lists of weekdays are tested by membership; `L` and `#` forms keep their order.
    daysOfWeek: parsed.daysOfWeek,
    years: sort(parsed.years),
  };
}

export type TimeZoneCheck = { ok: true; canonical: string } | { ok: false; reason: string; hint?: string };

/**
 * Checks an IANA timezone identifier. Uses `Intl.DateTimeFormat`, which (unlike
 * `Intl.supportedValuesOf('timeZone')`) accepts every valid name, including `UTC` and aliases.
 */
export function checkTimeZone(timezone: string): TimeZoneCheck {
  // A pure answer that costs a DateTimeFormat each: a config of hundreds of routines uses few zones.
  let check = timeZoneChecks.get(timezone);
  if (check === undefined) timeZoneChecks.set(timezone, (check = judgeTimeZone(timezone)));
  return check;
}

const timeZoneChecks = new Map<string, TimeZoneCheck>();

function judgeTimeZone(timezone: string): TimeZoneCheck {
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
