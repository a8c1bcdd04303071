// Two applies racing: identical routines created at the same moment must both be created, with
// distinct ids and distinct, strictly increasing `createdAt` (millisecond precision), so a client
// can tell the copies apart and keep the oldest. Over HTTP in both profiles, and on the handler
// with one fixed clock, where every create lands in the same millisecond.
import { describe, expect, it } from 'vitest';
import { authenticate } from '../../src/emulator/auth.js';
import { routineRoutes } from '../../src/emulator/areas/routines.js';
import type { RequestContext } from '../../src/emulator/context.js';
import { datasetSeed, EMULATOR_PROFILES, PROFILE_KNOBS } from '../../src/emulator/index.js';
import { seedToState } from '../../src/emulator/seed.js';
import { aRoutine, TOKENS, useEmulator } from './helpers.js';

const ROUTINES = '/api/v1/ai/routines';
const COPIES = 12;

describe.each(EMULATOR_PROFILES)('concurrent identical creates over HTTP, profile %s', (profile) => {
  const fixture = useEmulator({ profile });

  it('creates every copy, each with its own id and a later createdAt than the one before', async () => {
    const query = { userId: fixture.emulator.state.userId('grace@acme.example') };
    const body = aRoutine({ destination: { type: 'email', recipientEmails: ['grace@acme.example'], userGroupIds: [] } });
    const responses = await Promise.all(Array.from({ length: COPIES }, () => fixture.api.post(ROUTINES, body, query)));
    expect(responses.map((response) => response.status)).toEqual(Array(COPIES).fill(201));
    const ids = responses.map((response) => response.body.id as string);
    expect(new Set(ids).size).toBe(COPIES);

    // In the order the server created them, createdAt strictly increases.
    const created = fixture.emulator.state.snapshot().routines.filter((routine) => ids.includes(routine.id));
    const times = created.map((routine) => Date.parse(routine.createdAt));
    expect(times.every((time, index) => index === 0 || time > times[index - 1]!)).toBe(true);
    expect(created.every((routine) => /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/.test(routine.createdAt))).toBe(true);

    // The list, newest first, shows every copy once, ordered by createdAt.
    const listed = await fixture.api.get(ROUTINES, { ...query, pageSize: 100 });
    const copies = listed.body.records.filter((routine: { name: string }) => routine.name === 'Monthly margin review');
    expect(copies.map((routine: { id: string }) => routine.id)).toEqual([...created].reverse().map((routine) => routine.id));
  });
});

describe('creates within one millisecond', () => {
  it('still get distinct, strictly increasing createdAt, each after every existing routine', () => {
    const state = seedToState(datasetSeed('demo'), 'dataset demo');
    const caller = authenticate(`Bearer ${TOKENS.adaPersonal}`, state);
    const create = routineRoutes(PROFILE_KNOBS.vendor.routineUpdateMethod).find((route) => route.method === 'POST' && route.template === ROUTINES)!.handler;
    const now = new Date('2025-06-01T12:00:00.000Z');
    const context = (): RequestContext => ({
      method: 'POST',
      params: {},
      query: new URLSearchParams(),
      body: aRoutine(),
      caller,
      state,
      now,
      origin: 'http://127.0.0.1',
      knobs: PROFILE_KNOBS.vendor,
      memo: (_name, compute) => compute(),
    });
    const ids = [0, 1, 2].map(() => (create(context()).body as { id: string }).id);
    const createdAt = ids.map((id) => state.routines.find((routine) => routine.id === id)!.createdAt);
    expect(createdAt).toEqual(['2025-06-01T12:00:00.000Z', '2025-06-01T12:00:00.001Z', '2025-06-01T12:00:00.002Z']);
    expect(new Set(ids).size).toBe(3);
  });

  it('keeps the clock time when it is already later than every routine', () => {
    const state = seedToState(datasetSeed('demo'), 'dataset demo');
    const caller = authenticate(`Bearer ${TOKENS.adaPersonal}`, state);
    const create = routineRoutes('put').find((route) => route.method === 'POST' && route.template === ROUTINES)!.handler;
    const base = { method: 'POST' as const, params: {}, query: new URLSearchParams(), body: aRoutine(), caller, state, origin: '', knobs: PROFILE_KNOBS.other, memo: <T>(_name: string, compute: () => T) => compute() };
    create({ ...base, now: new Date('2025-06-01T12:00:00.000Z') });
    create({ ...base, now: new Date('2025-06-01T12:00:05.000Z') });
    expect(state.routines.slice(-2).map((routine) => routine.createdAt)).toEqual(['2025-06-01T12:00:00.000Z', '2025-06-01T12:00:05.000Z']);
  });
});
