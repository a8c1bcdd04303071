// `until:` — when a declared limit or routine stops being in force. Written as text, never as
// YAML's timestamp type: a date (`2026-12-31`, the end of that day in UTC), a date and an IANA
// zone (`2026-12-31 Europe/Berlin`, the end of that day there), or a date-time with its offset
// (`2026-12-31T18:00:00+01:00`, that instant). The entry is in force before that instant and
// expired from it on.
import { instantOf } from './nextRuns.js';
import { checkTimeZone } from './schedule.js';

export type Until =
  | { ok: true; /** The first instant the entry is expired, ms since the epoch. */ expiresAt: number; /** The day as people read it: `31 Dec 2026`. */ day: string }
  | { ok: false; problem: string };

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_IN_ZONE = /^(\d{4})-(\d{2})-(\d{2}) +(\S+)$/;
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?([Zz]|[+-]\d{2}:\d{2})?$/;

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** Reads an `until:` value. */
export function parseUntil(text: string): Until {
  const trimmed = text.trim();
  const date = DATE.exec(trimmed) ?? DATE_IN_ZONE.exec(trimmed);
  if (date !== null) {
    const [, year, month, day, zone] = date;
    const calendar = calendarDay(Number(year), Number(month), Number(day));
    if (calendar === undefined) return { ok: false, problem: `\`${text}\` is not a calendar day` };
    const label = `${Number(day)} ${MONTHS[Number(month) - 1]} ${year}`;
    // The end of the day is the start of the next one.
    const nextMidnight = new Date(calendar + 86_400_000);
    if (zone === undefined) return { ok: true, expiresAt: nextMidnight.getTime(), day: label };
    const check = checkTimeZone(zone);
    if (!check.ok) return { ok: false, problem: check.reason };
    return { ok: true, expiresAt: instantOf(nextMidnight, check.canonical), day: `${label} ${check.canonical}` };
  }
  const dateTime = DATE_TIME.exec(trimmed);
  if (dateTime === null) {
    return { ok: false, problem: `\`${text}\` is not a date (2026-12-31), a date and a zone (2026-12-31 Europe/Berlin) or a date-time with its offset (2026-12-31T18:00:00+01:00)` };
  }
  const [, year, month, day, hour, minute, second, offset] = dateTime;
  if (offset === undefined) return { ok: false, problem: `\`${text}\` has a time but no offset: add \`Z\` (UTC) or one like \`+01:00\`` };
  if (calendarDay(Number(year), Number(month), Number(day)) === undefined || Number(hour) > 23 || Number(minute) > 59 || Number(second ?? 0) > 59) {
    return { ok: false, problem: `\`${text}\` is not a valid date-time` };
  }
  const instant = Date.parse(trimmed.replace(' ', 'T'));
  if (Number.isNaN(instant)) return { ok: false, problem: `\`${text}\` is not a valid date-time` };
  return { ok: true, expiresAt: instant, day: `${Number(day)} ${MONTHS[Number(month) - 1]} ${year}` };
}

/** True once `until` has passed at `now`. */
export function hasExpired(until: Extract<Until, { ok: true }>, now: Date): boolean {
  return now.getTime() >= until.expiresAt;
}

/** Midnight UTC of a calendar day, or undefined for a day that does not exist (30 Feb). */
function calendarDay(year: number, month: number, day: number): number | undefined {
  const time = Date.UTC(year, month - 1, day);
  const date = new Date(time);
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day ? time : undefined;
}
