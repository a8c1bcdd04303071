// When a routine runs: the next runs of a six-field schedule evaluated in its IANA time zone, as
// instants. The schedule matches wall-clock times; across a daylight-saving change a wall-clock
// time the day skips (02:30 when clocks jump from 02:00 to 03:00) runs at the same distance past
// the jump (03:30), and one the day has twice (02:30 when clocks fall back) runs once, the first
// time; this is what cron daemons and the platform's scheduler family do ("compatible" in
// Temporal's terms). Pure: "now" is a parameter, so a plan made at a given time always says the same.
import { cronParser, firstRunAfter } from './schedule.js';

const MINUTE = 60_000;
const DAY = 86_400_000;

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string): Intl.DateTimeFormat {
  let format = formatters.get(timeZone);
  if (format === undefined) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
      weekday: 'short',
    });
    formatters.set(timeZone, format);
  }
  return format;
}

/** The wall clock of `instant` in `timeZone`, as a Date whose UTC fields are the local ones. */
export function wallClock(instant: number, timeZone: string): Date {
  const parts = Object.fromEntries(formatter(timeZone).formatToParts(new Date(instant)).map((part) => [part.type, part.value]));
  return new Date(Date.UTC(Number(parts.year), Number(parts.month) - 1, Number(parts.day), Number(parts.hour) % 24, Number(parts.minute), Number(parts.second)));
}

/** How far `timeZone` is ahead of UTC at `instant`, in milliseconds (whole seconds). */
function offsetAt(instant: number, timeZone: string): number {
  const whole = Math.floor(instant / 1000) * 1000;
  return wallClock(whole, timeZone).getTime() - whole;
}

/**
 * The instant a wall-clock time (UTC fields = local fields) happens in `timeZone`: the earlier of
 * two in a repeated hour; in a skipped hour, the same distance past the change.
 */
export function instantOf(wall: Date, timeZone: string): number {
  const local = wall.getTime();
  const before = offsetAt(local - DAY, timeZone);
  const after = offsetAt(local + DAY, timeZone);
  const fits = [...new Set([before, after])].map((offset) => local - offset).filter((instant) => wallClock(instant, timeZone).getTime() === local);
  if (fits.length > 0) return Math.min(...fits);
  return local - before;
}

/**
 * The next `count` runs of a valid schedule strictly after `now`, in `timeZone`, earliest first;
 * fewer when the schedule runs fewer times (its year field ends). Searches wall-clock times
 * month by month, so a yearly schedule costs no more than an hourly one.
 */
export function nextRuns(schedule: string, timeZone: string, now: Date, count = 3): Date[] {
  const parsed = cronParser().parse(schedule.trim().split(/\s+/).join(' '));
  const runs: number[] = [];
  let wall: Date | null = wallClock(now.getTime(), timeZone);
  // A repeated hour maps two wall-clock times to runs already passed or taken: a few extra steps.
  for (let guard = 0; runs.length < count && guard < count + 8; guard += 1) {
    wall = firstRunAfter(parsed, wall);
    if (wall === null) break;
    const instant = instantOf(wall, timeZone);
    if (instant > now.getTime() && !runs.includes(instant)) runs.push(instant);
  }
  return runs.sort((a, b) => a - b).map((instant) => new Date(instant));
}

const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const two = (n: number) => String(n).padStart(2, '0');

function day(wall: Date, year: boolean): string {
  return `${WEEKDAYS[wall.getUTCDay()]} ${wall.getUTCDate()} ${MONTHS[wall.getUTCMonth()]}${year ? ` ${wall.getUTCFullYear()}` : ''}`;
}

function time(wall: Date): string {
  return `${two(wall.getUTCHours())}:${two(wall.getUTCMinutes())}`;
}

/**
 * One run as people read it: `Mon 24 Nov 08:00 Europe/Berlin (07:00 UTC)`, the UTC date named
 * when it is another day, the year when `withYear`; a UTC routine is said once.
 */
export function describeRun(run: Date, timeZone: string, withYear = false): string {
  const local = wallClock(run.getTime(), timeZone);
  const utc = new Date(Math.floor(run.getTime() / MINUTE) * MINUTE);
  if (local.getTime() === utc.getTime()) return `${day(utc, withYear)} ${time(utc)} ${timeZone === 'UTC' || timeZone === 'Etc/UTC' ? timeZone : `${timeZone} (UTC)`}`;
  const sameDay = local.getUTCFullYear() === utc.getUTCFullYear() && local.getUTCMonth() === utc.getUTCMonth() && local.getUTCDate() === utc.getUTCDate();
  return `${day(local, withYear)} ${time(local)} ${timeZone} (${sameDay ? '' : `${day(utc, withYear)} `}${time(utc)} UTC)`;
}

/** The runs of one routine as one line's worth: years shown when the runs span several, or there is one run. */
export function describeRuns(runs: readonly Date[], timeZone: string): string {
  const years = new Set(runs.map((run) => wallClock(run.getTime(), timeZone).getUTCFullYear()));
  return runs.map((run) => describeRun(run, timeZone, years.size > 1 || runs.length === 1)).join(', ');
}
