// Fault injection: its text syntax, and each action's effect by write number and by route —
// 500 answers, connection resets, and commit-then-drop (the write happens although the client
// only sees a socket error).
import { describe, expect, it } from 'vitest';
import { formatFault, parseFault, startEmulator } from '../../src/emulator/index.js';
import { Api, aRoutine, expectError, useEmulator } from './helpers.js';

const fixture = useEmulator();
const ROUTINES = '/api/v1/ai/routines';
const LABELS = '/api/v1/labels';
const labelNames = () => fixture.emulator.state.labels().map((label) => label.name);

describe('fault syntax', () => {
  it.each([
    ['write:3=drop-after-commit', { write: 3, action: 'drop-after-commit', times: 1 }],
    ['write:2=500x3', { write: 2, action: '500', times: 3 }],
    ['POST /api/v1/ai/routines=reset', { route: 'POST /api/v1/ai/routines', action: 'reset', times: 1 }],
    ['patch /api/v1/ai/routines/{routineId} = 500 x always', { route: 'PATCH /api/v1/ai/routines/{routineId}', action: '500', times: Number.POSITIVE_INFINITY }],
    ['DELETE /api/v1/labels/obsolete=500*2', { route: 'DELETE /api/v1/labels/obsolete', action: '500', times: 2 }],
  ])('reads %j', (text, fault) => {
    expect(parseFault(text)).toEqual(fault);
    expect(parseFault(formatFault(parseFault(text)))).toEqual(fault);
  });

  it.each([
    ['write:0=500', 'write numbers start at 1'],
    ['write:1=explode', 'not in the fault syntax'],
    ['FETCH /api=500', 'a route is `METHOD /path` with METHOD one of GET, POST, PUT, PATCH, DELETE'],
    ['POST api/v1/labels=500', 'not in the fault syntax'],
    ['write:1=500x0', 'times must be a whole number of at least 1'],
    ['reset', 'not in the fault syntax'],
  ])('rejects %j', (text, reason) => {
    expect(() => parseFault(text)).toThrow(`invalid fault \`${text}\`: ${reason}`);
  });
});

describe('500 faults', () => {
  it('answers the Nth write with 500 in the error form and does not carry it out', async () => {
    fixture.emulator.injectFault('write:2=500');
    expect((await fixture.api.post(LABELS, { name: 'first' })).status).toBe(201);
    const second = await fixture.api.post(LABELS, { name: 'second' });
    expectError(second, 500, 'Internal Server Error (injected fault)');
    expect((await fixture.api.post(LABELS, { name: 'third' })).status).toBe(201);
    expect(labelNames()).toEqual(expect.arrayContaining(['first', 'third']));
    expect(labelNames()).not.toContain('second');
    expect(fixture.emulator.stats().faultsFired).toBe(1);
  });

  it('fails a route N times, then lets requests through (reads count too)', async () => {
    fixture.emulator.injectFault({ route: 'GET /api/v1/labels/{name}', action: '500', times: 2 });
    expect((await fixture.api.get(`${LABELS}/finance`)).status).toBe(500);
    expect((await fixture.api.get(`${LABELS}/draft`)).status).toBe(500);
    expect((await fixture.api.get(`${LABELS}/finance`)).status).toBe(200);
  });

  it('matches a concrete path as well as a template', async () => {
    fixture.emulator.injectFault('DELETE /api/v1/labels/obsolete=500');
    expect((await fixture.api.delete(`${LABELS}/draft`)).status).toBe(409);
    expect((await fixture.api.delete(`${LABELS}/obsolete`)).status).toBe(500);
    expect((await fixture.api.delete(`${LABELS}/obsolete`)).status).toBe(204);
  });

  it('covers consecutive writes with xN and every write with xalways', async () => {
    fixture.emulator.injectFault('write:1=500x2');
    const statuses = [];
    for (const name of ['a1', 'a2', 'a3']) statuses.push((await fixture.api.post(LABELS, { name })).status);
    expect(statuses).toEqual([500, 500, 201]);
    fixture.emulator.clearFaults();
    fixture.emulator.injectFault('POST /api/v1/labels=500xalways');
    for (const name of ['b1', 'b2', 'b3']) expect((await fixture.api.post(LABELS, { name })).status).toBe(500);
  });
});

describe('connection resets', () => {
  it('resets the connection before answering and does not carry out the write', async () => {
    fixture.emulator.injectFault('POST /api/v1/labels=reset');
    await expect(fixture.api.post(LABELS, { name: 'lost' })).rejects.toThrow(TypeError);
    expect(labelNames()).not.toContain('lost');
    expect((await fixture.api.post(LABELS, { name: 'lost' })).status).toBe(201);
  });

  it('resets by write number', async () => {
    fixture.emulator.injectFault('write:1=reset');
    await expect(fixture.api.patch('/api/v1/ai/credit-controls', { shutoffCredits: 20000 })).rejects.toThrow(TypeError);
    expect(fixture.emulator.state.creditControls().shutoffCredits).toBe(10000);
  });
});

describe('commit-then-drop', () => {
  it('creates the routine although the client only sees a socket error', async () => {
    fixture.emulator.injectFault('POST /api/v1/ai/routines=drop-after-commit');
    const before = fixture.emulator.state.routines().length;
    await expect(fixture.api.post(ROUTINES, aRoutine({ name: 'Dropped but done' }))).rejects.toThrow(TypeError);
    const routines = fixture.emulator.state.routines();
    expect(routines).toHaveLength(before + 1);
    expect(routines.map((routine) => routine.name)).toContain('Dropped but done');
    // A naive retry duplicates it: two routines with the same name.
    await fixture.api.post(ROUTINES, aRoutine({ name: 'Dropped but done' }));
    expect(fixture.emulator.state.routines().filter((routine) => routine.name === 'Dropped but done')).toHaveLength(2);
  });

  it('commits by write number (the 2nd write) and counts the fault', async () => {
    fixture.emulator.injectFault('write:2=drop-after-commit');
    expect((await fixture.api.put('/api/v1/documents/3a9b7c6d/labels/draft')).status).toBe(204);
    await expect(fixture.api.put('/api/v1/documents/3a9b7c6d/labels/finance')).rejects.toThrow(TypeError);
    expect(fixture.emulator.state.documentLabels('3a9b7c6d')).toEqual(['draft', 'finance']);
    expect(fixture.emulator.stats()).toMatchObject({ writes: 2, faultsFired: 1 });
  });
});

describe('arming faults', () => {
  it('arms faults given at start, and write numbers restart after a reset', async () => {
    const emulator = await startEmulator({ faults: ['write:1=500'] });
    try {
      const api = new Api(emulator.url, 'demo-org-admin-token');
      expect((await api.post(LABELS, { name: 'one' })).status).toBe(500);
      emulator.injectFault('write:1=500');
      emulator.reset();
      expect((await api.post(LABELS, { name: 'one' })).status).toBe(500);
      expect((await api.post(LABELS, { name: 'two' })).status).toBe(201);
    } finally {
      await emulator.close();
    }
  });

  it('arms, lists and clears faults over the control routes', async () => {
    const control = `${fixture.emulator.url}/__emulator/faults`;
    const armed = await fetch(control, { method: 'POST', body: JSON.stringify({ faults: ['write:1=500', 'GET /api/v1/whoami=reset'] }) });
    expect(await armed.json()).toEqual({ faults: ['write:1=500', 'GET /api/v1/whoami=reset'] });
    const bad = await fetch(control, { method: 'POST', body: JSON.stringify({ fault: 'write:x=500' }) });
    expect(bad.status).toBe(400);
    expect((await fixture.api.post(LABELS, { name: 'x1' })).status).toBe(500);
    expect(await (await fetch(control)).json()).toEqual({ faults: ['GET /api/v1/whoami=reset'] });
    await fetch(control, { method: 'DELETE' });
    expect((await fixture.api.get('/api/v1/whoami')).status).toBe(200);
  });

  it('refuses a malformed fault object', () => {
    expect(() => fixture.emulator.injectFault({ write: 0, action: '500' })).toThrow(/write numbers start at 1/);
    expect(() => fixture.emulator.injectFault({ route: 'POST', action: '500' })).toThrow(/a route is `METHOD \/path`/);
  });
});
