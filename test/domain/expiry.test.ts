import { describe, expect, it } from 'vitest';
import { hasExpired, parseUntil } from '../../src/domain/expiry.js';

const at = (text: string) => {
  const until = parseUntil(text);
  if (!until.ok) throw new Error(until.problem);
  return { at: new Date(until.expiresAt).toISOString(), day: until.day };
};

describe('until', () => {
  it('reads a date as the end of that day in UTC', () => {
    expect(at('2026-12-31')).toEqual({ at: '2027-01-01T00:00:00.000Z', day: '31 Dec 2026' });
  });

  it('reads a date and a zone as the end of that day there, summer time included', () => {
    expect(at('2026-12-31 Europe/Berlin')).toEqual({ at: '2026-12-31T23:00:00.000Z', day: '31 Dec 2026 Europe/Berlin' });
    expect(at('2026-07-15 America/New_York')).toEqual({ at: '2026-07-16T04:00:00.000Z', day: '15 Jul 2026 America/New_York' });
  });

  it('reads a date-time with its offset as that instant', () => {
    expect(at('2026-12-31T18:00:00+01:00').at).toBe('2026-12-31T17:00:00.000Z');
    expect(at('2026-12-31T18:00Z').at).toBe('2026-12-31T18:00:00.000Z');
  });

  it('refuses what is no day, no zone, or a time without an offset, saying why', () => {
    expect(parseUntil('2026-02-30')).toEqual({ ok: false, problem: '`2026-02-30` is not a calendar day' });
    expect(parseUntil('2026-12-31 Mars/Olympus')).toMatchObject({ ok: false, problem: expect.stringContaining('Mars/Olympus') });
    expect(parseUntil('2026-12-31T18:00:00')).toMatchObject({ ok: false, problem: expect.stringContaining('no offset') });
    expect(parseUntil('next friday')).toMatchObject({ ok: false, problem: expect.stringContaining('is not a date') });
  });

  it('is in force up to the instant, and expired from it on', () => {
    const until = parseUntil('2026-12-31');
    if (!until.ok) throw new Error('unreadable');
    expect(hasExpired(until, new Date('2026-12-31T23:59:59.999Z'))).toBe(false);
    expect(hasExpired(until, new Date('2027-01-01T00:00:00.000Z'))).toBe(true);
  });
});
