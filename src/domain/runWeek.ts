// When routines run, a week at a glance: how many routines start in each hour of the seven days
// from today's midnight in a chosen zone, counted from their six-field schedules evaluated in
// their own zones (nextRuns.ts). Pure: "now" is a parameter. The week starts at midnight of the
// day `now` falls on, so a schedule seen today is in the picture; hours are the display zone's
// wall clock (a day that skips an hour leaves it empty; one that repeats an hour counts both in it).
import { cronParser, firstRunAfter, type ParsedCron } from './schedule.js';
import { instantOf, wallClock } from './nextRuns.js';

/** What a week of runs needs of a routine. */
export interface ScheduledRoutine {
  name: string;
  schedule: string;
  timezone: string;
  /** A paused routine does not run: counted apart. */
  paused: boolean;
}

/** One day of the week: its date in the display zone and the starts in each of its 24 hours. */
export interface RunDay {
  /** `2026-11-23` */
  date: string;
  /** `Mon` */
  weekday: string;
  /** 24 counts, hour 0 first. */
  hours: number[];
}

/** The week as `steward schedule --json` and a plan's `routineRuns` carry it. */
export interface RunWeek {
  /** The zone the days and hours are in. */
  timezone: string;
  /** The week's first and last instant (exclusive), ISO-8601 UTC. */
  start: string;
  end: string;
  /** Routines counted (not paused), and paused ones left out. */
  routines: number;
  paused: number;
  /** Runs in the week. */
  runs: number;
  days: RunDay[];
  /** The environment's routines.maxRunsPerHour, when set: hours above it are marked. */
  maxRunsPerHour?: number;
}

/** An hour in which more routines start than a limit allows, with their names. */
export interface CrowdedHour {
  date: string;
  weekday: string;
  hour: number;
  names: string[];
}

const DAY = 86_400_000;
const MINUTE = 60_000;
const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];

/** Counts each routine's starts per hour of the week from today's midnight in `timezone`. */
export function runWeek(routines: readonly ScheduledRoutine[], now: Date, timezone: string): RunWeek {
  const { start, end, days, cells } = bucketRuns(routines, now, timezone);
  return {
    timezone,
    start: new Date(start).toISOString(),
    end: new Date(end).toISOString(),
    routines: routines.filter((routine) => !routine.paused).length,
    paused: routines.filter((routine) => routine.paused).length,
    runs: [...cells.values()].reduce((sum, names) => sum + names.length, 0),
    days: days.map((day, index) => ({ ...day, hours: Array.from({ length: 24 }, (_, hour) => cells.get(index * 24 + hour)?.length ?? 0) })),
  };
}

/** The hours of that week in which more than `limit` routines start, earliest first. */
export function crowdedHours(routines: readonly ScheduledRoutine[], now: Date, timezone: string, limit: number): CrowdedHour[] {
  const { days, cells } = bucketRuns(routines, now, timezone);
  return [...cells]
    .filter(([, names]) => names.length > limit)
    .sort(([a], [b]) => a - b)
    .map(([cell, names]) => ({ ...days[Math.floor(cell / 24)]!, hour: cell % 24, names: [...names].sort() }));
}

/**
 * The zone a week is best shown in: the one every routine shares, else UTC (routines in several
 * zones have no other common clock).
 */
export function sharedZone(routines: readonly ScheduledRoutine[]): string {
  const zones = new Set(routines.map((routine) => routine.timezone));
  return zones.size === 1 ? [...zones][0]! : 'UTC';
}

function bucketRuns(routines: readonly ScheduledRoutine[], now: Date, timezone: string) {
  const today = wallClock(now.getTime(), timezone);
  const midnight = Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate());
  const start = instantOf(new Date(midnight), timezone);
  const end = instantOf(new Date(midnight + 7 * DAY), timezone);
  const days = Array.from({ length: 7 }, (_, index) => {
    const day = new Date(midnight + index * DAY);
    return { date: day.toISOString().slice(0, 10), weekday: WEEKDAYS[day.getUTCDay()]! };
  });
  const cells = new Map<number, string[]>();
  for (const routine of routines) {
    if (routine.paused) continue;
    for (const run of runsBetween(routine, start, end)) {
      const local = wallClock(run, timezone);
      const index = Math.floor((Date.UTC(local.getUTCFullYear(), local.getUTCMonth(), local.getUTCDate()) - midnight) / DAY);
      if (index < 0 || index > 6) continue;
      const cell = index * 24 + local.getUTCHours();
      cells.set(cell, [...(cells.get(cell) ?? []), routine.name]);
    }
  }
  return { start, end, days, cells };
}

/** The instants in [start, end) a routine's schedule runs at, in its own zone; none for a schedule the config check refuses. */
function runsBetween(routine: ScheduledRoutine, start: number, end: number): number[] {
  let parsed: ParsedCron;
  try {
    parsed = cronParser().parse(routine.schedule.trim().split(/\s+/).join(' '));
  } catch {
    return [];
  }
  const runs = new Set<number>();
  let wall: Date | null = wallClock(start - MINUTE, routine.timezone);
  const lastWall = wallClock(end, routine.timezone).getTime() + DAY;
  // At most hourly: a week holds at most 7 × 25 runs; the guard only bounds a wrong parse.
  for (let guard = 0; guard < 7 * 25 + 10; guard += 1) {
    try {
      wall = firstRunAfter(parsed, wall);
    } catch {
      break;
    }
    if (wall === null || wall.getTime() > lastWall) break;
    const instant = instantOf(wall, routine.timezone);
    if (instant >= start && instant < end) runs.add(instant);
  }
  return [...runs];
}
