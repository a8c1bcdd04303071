import { describe, expect, it } from 'vitest';
import { canonicalSchedule, checkSchedule, checkTimeZone, scheduleSpacingProblem } from '../../src/domain/schedule.js';

// A fixed clock, so accepted schedules with a year range do not expire.
const NOW = new Date('2026-06-15T10:00:00Z');

describe('checkSchedule', () => {
  it.each([
    '0 9 ? * MON-FRI *',
    '15 8 1 * ? *',
    '0 */2 ? * * *',
    '0 9 ? * 2#1 *',
    '0 9 L * ? 2027',
    '30 7 ? JAN-MAR MON 2026-2030',
  ])('accepts %s', (schedule) => {
    expect(checkSchedule(schedule, NOW)).toMatchObject({ ok: true });
  });

  it.each([
    ['0 9 ? * MON', 'must have six fields (minute hour day-of-month month day-of-week year), found 5'],
    ['', 'must have six fields (minute hour day-of-month month day-of-week year), found 0'],
    ['0 9 * * * *', 'exactly one of day-of-month and day-of-week must be `?`'],
    ['0 9 ? * ? *', 'exactly one of day-of-month and day-of-week must be `?`'],
    ['61 9 ? * MON *', 'invalid minute field `61`: minutes are 0 to 59, found 61'],
    ['*/0 9 ? * MON *', 'invalid minute field `*/0`: a step (`/0`) must be at least 1'],
    ['0 9/0 ? * MON *', 'invalid hour field `9/0`: a step (`/0`) must be at least 1'],
    ['0 24 ? * MON *', 'invalid hour field `24`: hours are 0 to 23, found 24'],
    ['0 9 0 * ? *', 'invalid day-of-month field `0`: days of the month are 1 to 31, found 0'],
    ['0 9 ? 1-13 * *', 'invalid month field `1-13`: months are 1 to 12, found 13'],
    ['0 9 ? * 8 *', 'invalid day-of-week field `8`: days of the week are 1 to 7, found 8'],
    ['0 9 ? * 2#6 *', 'invalid day-of-week field `2#6`: the week of the month (`#6`) is 1 to 5'],
    ['0 9 ? * MON 1969', 'invalid year field `1969`: years are 1970 to 2199, found 1969'],
    ['0 x ? * * *', 'invalid hour field `x`'],
    ['0/15 * * * ? *', 'runs more often than hourly (the minute field must name a single minute)'],
    ['5,10 * ? * * *', 'runs more often than hourly (the minute field must name a single minute)'],
    ['* 9 ? * MON *', 'runs more often than hourly (the minute field must name a single minute)'],
  ])('rejects %j: %s', (schedule, reason) => {
    expect(checkSchedule(schedule, NOW)).toEqual({ ok: false, reason });
  });

  describe('requires at least one run after now', () => {
    it.each([
      ['0 8 30 2 ? *', 'never runs (no date matches it)'],
      ['0 8 31 4,6,9,11 ? *', 'never runs (no date matches it)'],
      ['0 8 29 2 ? 2027', 'never runs (no date matches it)'],
      ['0 8 L-30 2 ? *', 'never runs (no date matches it)'],
      ['0 8 ? 2 MON#5 2026-2040', 'never runs (no date matches it)'],
      ['0 8 ? * MON 1999', 'never runs again (every date it matches is in the past)'],
      ['0 8 1 1 ? 2026', 'never runs again (every date it matches is in the past)'],
    ])('rejects %j: %s', (schedule, reason) => {
      expect(checkSchedule(schedule, NOW)).toEqual({ ok: false, reason });
    });

    it.each([
      '0 8 29 2 ? *', // leap years
      '0 8 31 4,6,7 ? 2026', // 31 July
      '0 8 30,15 2 ? 2027', // the 15th, whatever order the list is in
      '0 8 ? DEC,JAN MON 2027',
      '0 8 ? 2 MON#5 *', // February 2044 has five Mondays
      '0 8 ? * MON 2199',
    ])('accepts %s', (schedule) => {
      expect(checkSchedule(schedule, NOW)).toMatchObject({ ok: true });
    });

    it('counts a time later today somewhere on Earth as a future run', () => {
      // 15 June 2026, 10:00 UTC: 21:00 on 14 June has passed everywhere, 23:00 has not in UTC-12.
      expect(checkSchedule('0 23 14 6 ? 2026', NOW)).toMatchObject({ ok: true });
      expect(checkSchedule('0 21 14 6 ? 2026', NOW)).toEqual({
        ok: false,
        reason: 'never runs again (every date it matches is in the past)',
      });
    });

    it('reads the clock when no time is given', () => {
      expect(checkSchedule('0 8 ? * MON 2025')).toMatchObject({ ok: false });
      expect(checkSchedule('0 9 ? * MON-FRI *')).toMatchObject({ ok: true });
    });
  });
});

describe('scheduleSpacingProblem', () => {
  it.each([
    [' 0 9 ? * MON * ', 'has spaces before or after it'],
    ['0 9 ? * MON * ', 'has spaces before or after it'],
    ['0 9 ?  * MON *', 'has more than one space between two fields'],
    ['0 9\u00a0? * MON *', 'holds a no-break space (U+00A0) where only a plain space may separate fields'],
    ['0 9 ? *\u2009MON *', 'holds a thin space (U+2009) where only a plain space may separate fields'],
    ['0 9 ? *\tMON *', 'holds a tab (U+0009) where only a plain space may separate fields'],
  ])('finds what the server would normalise in %j', (schedule, problem) => {
    expect(scheduleSpacingProblem(schedule)).toBe(problem);
    expect(canonicalSchedule(schedule)).toBe(schedule.includes('MON') ? '0 9 ? * MON *' : schedule);
  });

  it('finds nothing in a schedule written with single spaces, or in a blank one (reported as having no fields)', () => {
    expect(scheduleSpacingProblem('0 9 ? * MON *')).toBeUndefined();
    expect(scheduleSpacingProblem('  ')).toBeUndefined();
  });
});

describe('checkTimeZone', () => {
  it('accepts names Intl.supportedValuesOf leaves out, and aliases', () => {
    expect(checkTimeZone('UTC')).toEqual({ ok: true, canonical: 'UTC' });
    expect(checkTimeZone('US/Pacific')).toMatchObject({ ok: true });
    expect(checkTimeZone('Europe/Berlin')).toEqual({ ok: true, canonical: 'Europe/Berlin' });
  });
  it('rejects unknown, offset and mis-cased names', () => {
    expect(checkTimeZone('Mars/Olympus')).toEqual({ ok: false, reason: 'unknown timezone `Mars/Olympus`' });
    expect(checkTimeZone('+05:00')).toMatchObject({ ok: false });
    expect(checkTimeZone('europe/berlin')).toEqual({
      ok: false,
      reason: 'timezone `europe/berlin` is mis-cased',
      hint: 'did you mean `Europe/Berlin`?',
    });
  });
});
