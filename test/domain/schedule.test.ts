import { describe, expect, it } from 'vitest';
import { checkSchedule, checkTimeZone } from '../../src/domain/schedule.js';

describe('checkSchedule', () => {
  it.each([
    '0 9 ? * MON-FRI *',
    '15 8 1 * ? *',
    '0 */2 ? * * *',
    '0 9 ? * 2#1 *',
    '0 9 L * ? 2027',
    '30 7 ? JAN-MAR MON 2026-2030',
  ])('accepts %s', (schedule) => {
    expect(checkSchedule(schedule)).toMatchObject({ ok: true });
  });

  it.each([
    ['0 9 ? * MON', 'must have six fields (minute hour day-of-month month day-of-week year), found 5'],
    ['', 'must have six fields (minute hour day-of-month month day-of-week year), found 0'],
    ['0 9 * * * *', 'exactly one of day-of-month and day-of-week must be `?`'],
    ['0 9 ? * ? *', 'exactly one of day-of-month and day-of-week must be `?`'],
    ['61 9 ? * MON *', 'number 61 is not between 0 and 59'],
    ['0 x ? * * *', 'invalid hour field `x`'],
    ['0/15 * * * ? *', 'runs more often than hourly (the minute field must name a single minute)'],
    ['5,10 * ? * * *', 'runs more often than hourly (the minute field must name a single minute)'],
    ['* 9 ? * MON *', 'runs more often than hourly (the minute field must name a single minute)'],
  ])('rejects %j: %s', (schedule, reason) => {
    expect(checkSchedule(schedule)).toEqual({ ok: false, reason });
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
