// Routines updated by the documented PUT (name, prompt and schedule required; pausing and resuming
// with isActive, a model change; no timezone, destination, branch or topic), and the organization
// rules that need their own seed: model access, USE_AI, the active-routine limit (429), a run in
// progress (409) and routines not enabled (403).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { Api, aRoutine, aSeed, DEMO, emailTo, expectDetail, expectError, TOKENS, useEmulator } from './helpers.js';

const ROUTINES = '/api/v1/ai/routines';
const fixture = useEmulator({ routineUpdateMethod: 'put' });
const digestId = () => fixture.emulator.state.routines().find((routine) => routine.name === 'Weekly revenue digest')!.id;
const fullBody = (overrides: Record<string, unknown> = {}) => ({
  name: 'Weekly revenue digest',
  prompt: "Summarise last week's revenue by region and call out anomalies.",
  schedule: '0 9 ? * MON *',
  ...overrides,
});

describe('update by PUT', () => {
  it('pauses with isActive false and resumes with isActive true', async () => {
    const paused = await fixture.api.put(`${ROUTINES}/${digestId()}`, fullBody({ isActive: false }));
    expect(paused.status).toBe(200);
    expect(paused.body).toMatchObject({ disabled: true, name: 'Weekly revenue digest' });
    const resumed = await fixture.api.put(`${ROUTINES}/${digestId()}`, fullBody({ isActive: true }));
    expect(resumed.body.disabled).toBe(false);
  });

  it('replaces name, prompt, schedule and description, and keeps the timezone and destination it cannot carry', async () => {
    const response = await fixture.api.put(`${ROUTINES}/${digestId()}`, fullBody({ name: 'Revenue digest', schedule: '0 10 ? * MON *', description: 'For the board' }));
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      name: 'Revenue digest',
      schedule: '0 10 ? * MON *',
      description: 'For the board',
      timezone: 'Europe/Berlin',
      destination: { type: 'email', recipientEmails: ['ada@acme.example', 'grace@acme.example'], userGroupIds: [] },
      recipientCount: 2,
    });
  });

  it('drops timezone, destination, branch and topic when the server ignores undocumented keys', async () => {
    const lenient = await startEmulator({ unknownKeys: 'ignore' });
    try {
      const id = lenient.state.routines().find((routine) => routine.name === 'Weekly revenue digest')!.id;
      const response = await new Api(lenient.url, TOKENS.orgAdmin).put(
        `${ROUTINES}/${id}`,
        fullBody({ name: 'Revenue digest', timezone: 'UTC', destination: emailTo('grace@acme.example'), branchId: DEMO.salesBranch, topicName: 'pipeline' }),
      );
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({
        name: 'Revenue digest',
        timezone: 'Europe/Berlin',
        destination: { type: 'email', recipientEmails: ['ada@acme.example', 'grace@acme.example'], userGroupIds: [] },
        branchId: null,
        topicName: 'orders',
      });
    } finally {
      await lenient.close();
    }
  });

  it('moves to another model and clears the branch and topic of the old one', async () => {
    const response = await fixture.api.put(`${ROUTINES}/${digestId()}`, fullBody({ modelId: DEMO.models.marketing }));
    expect(response.body).toMatchObject({ modelId: DEMO.models.marketing, topicName: null, branchId: null });
  });

  it.each([
    ['a body without name', { name: undefined }, 'Bad Request: name: is required'],
    ['a body without prompt', { prompt: undefined }, 'Bad Request: prompt: is required'],
    ['a body without schedule', { schedule: undefined }, 'Bad Request: schedule: is required'],
    ['isActive that is not a boolean', { isActive: 'yes' }, 'Bad Request: isActive: must be true or false'],
    // Not PUT fields: the vendor's generic refusal of undocumented keys answers first.
    ['a topic (not part of the PUT body)', { topicName: 'orders' }, "Bad Request: formErrors: Unrecognized key(s) in object: 'topicName'"],
    ['a timezone (not part of the PUT body)', { timezone: 'UTC' }, "Bad Request: formErrors: Unrecognized key(s) in object: 'timezone'"],
    ['a destination and a branch (not part of the PUT body)', { destination: emailTo('grace@acme.example'), branchId: DEMO.salesBranch }, "Bad Request: formErrors: Unrecognized key(s) in object: 'destination', 'branchId'"],
  ])('rejects %s with 400 and changes nothing', async (_what, overrides, detail) => {
    const before = fixture.emulator.state.routine(digestId());
    expectDetail(await fixture.api.put(`${ROUTINES}/${digestId()}`, fullBody(overrides)), 400, detail);
    expect(fixture.emulator.state.routine(digestId())).toEqual(before);
  });

  it('answers 404 for an unknown model', async () => {
    expectDetail(await fixture.api.put(`${ROUTINES}/${digestId()}`, fullBody({ modelId: DEMO.unknownUuid })), 404, `Model not found: ${DEMO.unknownUuid}`);
  });

  it('answers 405 to PATCH when the server updates by the documented PUT only', async () => {
    const response = await fixture.api.patch(`${ROUTINES}/${digestId()}`, { name: 'x' });
    expectError(response, 405, 'Method PATCH is not allowed on /api/v1/ai/routines/{routineId}');
    expect(response.headers.get('allow')).toBe('GET, PUT, DELETE');
  });
});

describe('organization rules', () => {
  const core = '33333333-3333-4333-8333-333333333333';
  const secret = '44444444-4444-4444-8444-444444444444';
  let tiny: RunningEmulator;
  let admin: Api;
  let bob: Api;
  beforeAll(async () => {
    tiny = await startEmulator({
      routineUpdateMethod: 'put',
      data: aSeed({
        organization: { name: 'Tiny Co', maxActiveRoutinesPerUser: 2, routineRunSeconds: 60 },
        models: [
          { id: core, name: 'Core', roles: { 'ada@tiny.example': 'MANAGER', 'bob@tiny.example': 'VIEWER' }, topics: ['orders'] },
          { id: secret, name: 'Secret', roles: { 'ada@tiny.example': 'MANAGER' } },
        ],
      }),
    });
    admin = new Api(tiny.url, 'tiny-org-admin');
    bob = new Api(tiny.url, 'tiny-bob-personal');
  });
  afterAll(() => tiny.close());

  it('answers 404 for a model the owner cannot access and 403 without USE_AI', async () => {
    expectDetail(await bob.post(ROUTINES, aRoutine({ modelId: secret })), 404, `Model not found: ${secret}`);
    expectError(await bob.post(ROUTINES, aRoutine({ modelId: core })), 403, 'User does not have USE_AI permission');
  });

  it('answers 429 in the detail form past the active-routine limit, also when resuming', async () => {
    tiny.reset();
    const first = await admin.post(ROUTINES, aRoutine({ modelId: core, name: 'one' }));
    await admin.post(ROUTINES, aRoutine({ modelId: core, name: 'two' }));
    expectDetail(
      await admin.post(ROUTINES, aRoutine({ modelId: core, name: 'three' })),
      429,
      'Too Many Requests: the user already has the maximum of 2 active routines',
    );
    const pause = { name: 'one', prompt: 'p', schedule: '0 7 1 * ? *', isActive: false };
    expect((await admin.put(`${ROUTINES}/${first.body.id}`, pause)).body.disabled).toBe(true);
    expect((await admin.post(ROUTINES, aRoutine({ modelId: core, name: 'three' }))).status).toBe(201);
    expectDetail(await admin.put(`${ROUTINES}/${first.body.id}`, { ...pause, isActive: true }), 429, /maximum of 2 active routines/);
  });

  it('answers 409 to a trigger while a run is in progress', async () => {
    tiny.reset();
    const created = await admin.post(ROUTINES, aRoutine({ modelId: core }));
    expect((await admin.post(`${ROUTINES}/${created.body.id}/trigger`)).status).toBe(202);
    expectError(await admin.post(`${ROUTINES}/${created.body.id}/trigger`), 409, 'A run of this routine is already in progress');
    expect((await admin.get(`${ROUTINES}/${created.body.id}`)).body.lastRun).toBeNull();
  });

  it('answers 403 on every routine endpoint when routines are not enabled', async () => {
    const disabled = await startEmulator({ data: aSeed({ organization: { name: 'Tiny Co', routinesEnabled: false } }) });
    try {
      const api = new Api(disabled.url, 'tiny-org-admin');
      expectError(await api.get(ROUTINES), 403, 'AI routines are not enabled for this organization');
      expectError(await api.post(ROUTINES, aRoutine({ modelId: core })), 403, 'AI routines are not enabled for this organization');
      expectError(await api.get(`${ROUTINES}/${DEMO.unknownUuid}`), 403, 'AI routines are not enabled for this organization');
    } finally {
      await disabled.close();
    }
  });
});

describe('routine pagination', () => {
  it('pages a user with more routines than the page size, newest first, without repeats', async () => {
    const api = fixture.api.as(TOKENS.gracePersonal);
    for (let index = 1; index <= 4; index += 1) {
      expect((await api.post(ROUTINES, aRoutine({ name: `Report ${index}` }))).status).toBe(201);
    }
    const first = await api.get(ROUTINES, { pageSize: 2 });
    expect(first.body.pageInfo).toMatchObject({ hasNextPage: true, pageSize: 2, totalRecords: 5 });
    const second = await api.get(ROUTINES, { pageSize: 2, cursor: first.body.pageInfo.nextCursor });
    const third = await api.get(ROUTINES, { pageSize: 2, cursor: second.body.pageInfo.nextCursor });
    expect(third.body.pageInfo).toEqual({ hasNextPage: false, nextCursor: null, pageSize: 2, totalRecords: 5 });
    const names = [...first.body.records, ...second.body.records, ...third.body.records].map((r: { name: string }) => r.name);
    expect(new Set(names).size).toBe(5);
    expect(names.at(-1)).toBe("Grace's weekly KPIs");
  });
});
