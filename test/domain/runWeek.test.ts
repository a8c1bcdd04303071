// A week of routine runs per hour: counted from each routine's schedule in its own zone, shown in
// one zone, paused routines apart, and the hours where more than a limit start.
import { describe, expect, it } from 'vitest';
import { crowdedHours, runWeek, sharedZone, type ScheduledRoutine } from '../../src/domain/runWeek.js';

const NOW = new Date('2026-11-25T15:30:00Z'); // a Wednesday
const routine = (name: string, schedule: string, timezone = 'UTC', paused = false): ScheduledRoutine => ({ name, schedule, timezone, paused });

describe('a week of runs', () => {
  it('starts at today\'s midnight in the display zone and counts each start in its hour', () => {
    const week = runWeek([routine('Weekdays', '0 8 ? * MON-FRI *', 'America/New_York'), routine('Mondays', '30 13 ? * MON *'), routine('Off', '0 1 * * ? *', 'UTC', true)], NOW, 'UTC');
    expect(week.start).toBe('2026-11-25T00:00:00.000Z');
    expect(week.end).toBe('2026-12-02T00:00:00.000Z');
    expect(week.days.map((day) => `${day.weekday} ${day.date}`)).toEqual(['Wed 2026-11-25', 'Thu 2026-11-26', 'Fri 2026-11-27', 'Sat 2026-11-28', 'Sun 2026-11-29', 'Mon 2026-11-30', 'Tue 2026-12-01']);
    // 08:00 in New York is 13:00 UTC in November; Monday has both routines in that hour.
    expect(week.days.map((day) => day.hours[13])).toEqual([1, 1, 1, 0, 0, 2, 1]);
    expect(week.runs).toBe(6);
    expect({ routines: week.routines, paused: week.paused }).toEqual({ routines: 2, paused: 1 });
  });

  it('shows the hours in another zone', () => {
    const week = runWeek([routine('Mondays', '30 13 ? * MON *')], NOW, 'Asia/Tokyo');
    const monday = week.days.find((day) => day.weekday === 'Mon')!;
    expect(monday.hours[22]).toBe(1);
    // 15:30 UTC is 00:30 on Thursday in Tokyo: the week starts at that midnight, 15:00 UTC the day before.
    expect(week.start).toBe('2026-11-25T15:00:00.000Z');
  });

  it('flags the hours where more routines start than the limit', () => {
    const routines = [routine('A', '0 8 ? * MON *'), routine('B', '15 8 ? * MON *'), routine('C', '45 8 ? * MON *'), routine('D', '0 9 ? * MON *')];
    expect(crowdedHours(routines, NOW, 'UTC', 2)).toEqual([{ date: '2026-11-30', weekday: 'Mon', hour: 8, names: ['A', 'B', 'C'] }]);
    expect(crowdedHours(routines, NOW, 'UTC', 3)).toEqual([]);
  });

  it('is shown in the zone all routines share, else in UTC', () => {
    expect(sharedZone([routine('A', '0 8 ? * MON *', 'Europe/Berlin'), routine('B', '0 8 ? * MON *', 'Europe/Berlin')])).toBe('Europe/Berlin');
    expect(sharedZone([routine('A', '0 8 ? * MON *', 'Europe/Berlin'), routine('B', '0 8 ? * MON *')])).toBe('UTC');
  });
});
