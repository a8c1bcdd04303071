// When a routine runs: next runs in its time zone, exact across daylight-saving changes (a
// skipped hour runs past the jump, a repeated hour runs once, the first time), and how people
// read them.
import { describe, expect, it } from 'vitest';
import { describeRun, describeRuns, instantOf, nextRuns } from '../../src/domain/nextRuns.js';
import { withNextRuns } from '../../src/kinds/routines/routineSchedule.js';
import type { PlanStep } from '../../src/model/plan.js';

const iso = (runs: Date[]) => runs.map((run) => run.toISOString());

describe('nextRuns', () => {
  it('gives the next three runs of a weekly schedule in its time zone, as UTC instants', () => {
    expect(iso(nextRuns('0 8 ? * MON *', 'Europe/Berlin', new Date('2025-11-20T10:00:00Z')))).toEqual([
      '2025-11-24T07:00:00.000Z',
      '2025-12-01T07:00:00.000Z',
      '2025-12-08T07:00:00.000Z',
    ]);
  });

  it('follows Europe/Berlin out of summer time at the end of October', () => {
    // Clocks go back from 03:00 CEST to 02:00 CET on Sunday 25 October 2026.
    expect(iso(nextRuns('0 9 * * ? *', 'Europe/Berlin', new Date('2026-10-23T12:00:00Z')))).toEqual([
      '2026-10-24T07:00:00.000Z',
      '2026-10-25T08:00:00.000Z',
      '2026-10-26T08:00:00.000Z',
    ]);
  });

  it('runs a time of the repeated hour once, at its first occurrence', () => {
    expect(iso(nextRuns('30 2 * * ? *', 'Europe/Berlin', new Date('2026-10-24T12:00:00Z')))).toEqual([
      '2026-10-25T00:30:00.000Z', // 02:30 CEST, not again at 02:30 CET an hour later
      '2026-10-26T01:30:00.000Z',
      '2026-10-27T01:30:00.000Z',
    ]);
  });

  it('runs a time of the skipped hour just past the jump', () => {
    // 29 March 2026 has no 02:30 in Berlin: the run happens at 03:30 CEST.
    expect(iso(nextRuns('30 2 * * ? *', 'Europe/Berlin', new Date('2026-03-28T12:00:00Z')))).toEqual([
      '2026-03-29T01:30:00.000Z',
      '2026-03-30T00:30:00.000Z',
      '2026-03-31T00:30:00.000Z',
    ]);
  });

  it('follows America/New_York into daylight time in March', () => {
    // Clocks go forward on Sunday 8 March 2026: 08:00 EST is 13:00 UTC, 08:00 EDT 12:00 UTC.
    expect(iso(nextRuns('0 8 ? * FRI,MON *', 'America/New_York', new Date('2026-03-05T20:00:00Z')))).toEqual([
      '2026-03-06T13:00:00.000Z',
      '2026-03-09T12:00:00.000Z',
      '2026-03-13T12:00:00.000Z',
    ]);
  });

  it('gives fewer runs when the year field ends, and none when it has ended', () => {
    expect(iso(nextRuns('0 6 1 12 ? 2026-2027', 'UTC', new Date('2026-11-20T00:00:00Z')))).toEqual(['2026-12-01T06:00:00.000Z', '2027-12-01T06:00:00.000Z']);
    expect(nextRuns('0 6 1 12 ? 2025', 'UTC', new Date('2026-11-20T00:00:00Z'))).toEqual([]);
  });

  it('never counts a run at the very minute the plan is made', () => {
    expect(iso(nextRuns('0 8 ? * MON *', 'UTC', new Date('2025-11-24T08:00:00Z')))[0]).toBe('2025-12-01T08:00:00.000Z');
  });

  it('resolves wall-clock times to instants the way the runs do', () => {
    expect(new Date(instantOf(new Date(Date.UTC(2026, 9, 25, 2, 30)), 'Europe/Berlin')).toISOString()).toBe('2026-10-25T00:30:00.000Z');
    expect(new Date(instantOf(new Date(Date.UTC(2026, 2, 29, 2, 30)), 'Europe/Berlin')).toISOString()).toBe('2026-03-29T01:30:00.000Z');
  });
});

describe('describing runs', () => {
  it('says the local time with its zone and the UTC time, the UTC day when it differs, UTC once', () => {
    expect(describeRun(new Date('2025-11-24T07:00:00Z'), 'Europe/Berlin')).toBe('Mon 24 Nov 08:00 Europe/Berlin (07:00 UTC)');
    expect(describeRun(new Date('2026-11-23T07:00:00Z'), 'America/Los_Angeles')).toBe('Sun 22 Nov 23:00 America/Los_Angeles (Mon 23 Nov 07:00 UTC)');
    expect(describeRun(new Date('2026-12-01T06:00:00Z'), 'UTC')).toBe('Tue 1 Dec 06:00 UTC');
    expect(describeRun(new Date('2026-12-01T06:00:00Z'), 'Europe/London')).toBe('Tue 1 Dec 06:00 Europe/London (UTC)');
  });

  it('names the year when the runs span two', () => {
    const runs = nextRuns('0 9 1 * ? *', 'Europe/Berlin', new Date('2026-11-20T00:00:00Z'));
    expect(describeRuns(runs, 'Europe/Berlin')).toBe(
      'Tue 1 Dec 2026 09:00 Europe/Berlin (08:00 UTC), Fri 1 Jan 2027 09:00 Europe/Berlin (08:00 UTC), Mon 1 Feb 2027 09:00 Europe/Berlin (08:00 UTC)',
    );
  });
});

describe('withNextRuns', () => {
  const routine = (after: Record<string, unknown>, action: 'create' | 'update' = 'create'): PlanStep =>
    action === 'create'
      ? { id: `routines//${String(after.name)}`, kind: 'routines', key: String(after.name), dependsOn: [], ref: {}, action, after }
      : { id: `routines//${String(after.name)}`, kind: 'routines', key: String(after.name), dependsOn: [], ref: {}, action, before: after, after, fields: [] };
  const now = new Date('2026-10-23T12:00:00Z');

  it('puts the next three runs on each routine created or updated, computed from the given time', () => {
    const { steps, warnings } = withNextRuns([routine({ name: 'Digest', schedule: '0 9 * * ? *', timezone: 'Europe/Berlin', paused: false }, 'update')], now);
    expect(steps[0]!.nextRuns).toEqual(['2026-10-24T07:00:00.000Z', '2026-10-25T08:00:00.000Z', '2026-10-26T08:00:00.000Z']);
    expect(warnings).toEqual([]);
  });

  it('warns when the next run is more than a year away, or there is none, and shows none for a paused routine', () => {
    const { steps, warnings } = withNextRuns(
      [
        routine({ name: 'Far', schedule: '0 0 1 1 ? 2029', timezone: 'Asia/Tokyo', paused: false }),
        routine({ name: 'Near', schedule: '0 0 1 1 ? 2027', timezone: 'UTC', paused: false }),
        routine({ name: 'Paused', schedule: '0 9 * * ? *', timezone: 'UTC', paused: true }),
        routine({ name: 'Gone', schedule: '0 0 1 1 ? 2026', timezone: 'UTC', paused: false }),
      ],
      now,
    );
    expect(steps.map((step) => step.nextRuns)).toEqual([['2028-12-31T15:00:00.000Z'], ['2027-01-01T00:00:00.000Z'], undefined, []]);
    expect(warnings).toEqual([
      { code: 'routines.next-run-far', message: 'routine "Far": its next run is Mon 1 Jan 2029 00:00 Asia/Tokyo (Sun 31 Dec 2028 15:00 UTC), more than a year away (schedule `0 0 1 1 ? 2029`)' },
      { code: 'routines.never-runs', message: 'routine "Gone": schedule `0 0 1 1 ? 2026` never runs again after 2026-10-23T12:00:00.000Z' },
    ]);
  });
});
