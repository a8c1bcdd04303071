// When routines run, a week at a glance: how many routines start in each hour of the seven days
// from today's midnight in a chosen zone, counted from their six-field schedules evaluated in
// their own zones (nextRuns.ts). Pure: "now" is a parameter. The week starts at midnight of the
// day `now` falls on, so a schedule seen today is in the picture; hours are the display zone's
// wall clock (a day that skips an hour leaves it empty; one that repeats an hour counts both in it).
import { cronParser, firstRunAfter, type ParsedCron } from './schedule.js';
import { instantOf, wallClock } from './nextRuns.js';
import { arrayOf, described, enumOf, objectOf, scalar, type Static, type Typed } from '../typedSchema.js';

/** What a week of runs needs of a routine. */
export interface ScheduledRoutine {
  name: string;
  schedule: string;
  timezone: string;
  /** A paused routine does not run: counted apart. */
  paused: boolean;
}

/** The days of the week as a week of runs names them, Monday first (ISO 8601). */
const WEEKDAYS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'] as const;

/**
 * The week as `steward schedule --json` and a plan's `routineRuns` carry it, declared once: its
 * schema (in the plan's, schemas/plan.schema.json) and its type (RunWeek). `count` is a count as
 * the document that holds the week writes one (the plan: its `$defs/count`).
 */
export function runWeekSchema(count: Typed<number>) {
  const instant = scalar('string', { format: 'date-time' });
  const day = objectOf(
    {
      date: scalar('string', { format: 'date' }),
      weekday: enumOf(...WEEKDAYS),
      hours: described('Routines starting in each hour, hour 0 first.', arrayOf(count, { minItems: 24, maxItems: 24 })),
    },
    ['date', 'weekday', 'hours'],
  );
  return objectOf(
    {
      timezone: scalar('string', { minLength: 1 }),
      start: described("The week's first instant (midnight in `timezone`).", instant),
      end: described('The instant after its last.', instant),
      routines: described('Routines counted.', count),
      paused: described('Paused routines, not counted.', count),
      runs: described('Runs in the week.', count),
      maxRunsPerHour: described("The environment's routines.maxRunsPerHour, when set: hours above it are marked.", scalar('integer', { minimum: 1 })),
      days: arrayOf(day, { minItems: 7, maxItems: 7 }),
    },
    ['timezone', 'start', 'end', 'routines', 'paused', 'runs', 'days'],
  );
}

/** A week of runs: the zone, the week's bounds, the routines counted and paused, and each day's starts per hour. */
export type RunWeek = Static<ReturnType<typeof runWeekSchema>>;

/** One day of the week: its date in the display zone (`2026-11-23`), its weekday and the starts in each of its 24 hours. */
export type RunDay = RunWeek['days'][number];

/** An hour in which more routines start than a limit allows, with their names. */
export interface CrowdedHour {
  date: string;
  weekday: string;
  hour: number;
  names: string[];
}

const DAY = 86_400_000;
const MINUTE = 60_000;

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
    // getUTCDay counts from Sunday.
    return { date: day.toISOString().slice(0, 10), weekday: WEEKDAYS[(day.getUTCDay() + 6) % 7]! };
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
