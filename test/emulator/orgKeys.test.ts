// The two OPEN points about organization keys (gaps.md, "whoami and organization keys"), both
// ways: what whoami answers as `user` (the creator, or no user in three forms), whether such a
// key then acts for its creator, and whether routine endpoints require `userId` from it.
import { describe, expect, it } from 'vitest';
import { ORG_KEY_USER_FORMS, startEmulator, type OrgKeyUser } from '../../src/emulator/index.js';
import { Api, aRoutine, expectDetail, TOKENS, useEmulator } from './helpers.js';

const ROUTINES = '/api/v1/ai/routines';
const USER_ID_REQUIRED = 'Bad Request: userId: required for organization API keys';

const creator = useEmulator({ orgKeyUser: 'creator' });
const nobody = useEmulator({ orgKeyUser: 'null-fields' });
const requiring = useEmulator({ routinesRequireUserId: true });

const ada = () => creator.emulator.state.userId('ada@acme.example');
const digestOf = (fixture: typeof creator) =>
  fixture.emulator.state.routines().find((routine) => routine.name === 'Weekly revenue digest')!.id;
/** A documented PUT body for routine `id` (name, prompt and schedule are required), renamed. */
const renameBody = (fixture: typeof creator, id: string, name: string) => {
  const routine = fixture.emulator.state.routine(id)!;
  return { name, prompt: routine.prompt, schedule: routine.schedule };
};

describe('whoami user of an organization key (orgKeyUser)', () => {
  it('is the creator with creator (the vendor profile answer): her user id and, distinct from it, her membership id', async () => {
    const whoami = await creator.api.get('/api/v1/whoami');
    expect(whoami.body).toMatchObject({ keyScope: 'organization', orgRole: 'ORG_ADMIN' });
    expect(whoami.body.user).toEqual({ id: expect.stringMatching(/^[0-9a-f-]{36}$/), membershipId: ada() });
    expect(whoami.body.user.id).not.toBe(ada());
  });

  const forms: [OrgKeyUser, (body: Record<string, unknown>) => void][] = [
    ['absent', (body) => expect('user' in body).toBe(false)],
    ['null', (body) => expect(body.user).toBeNull()],
    ['null-fields', (body) => expect(body.user).toEqual({ id: null, membershipId: null })],
  ];
  it.each(forms)('with %s, the key has no user and keeps its scope, role and model roles', async (form, expectUser) => {
    const emulator = await startEmulator({ orgKeyUser: form });
    try {
      const response = await fetch(`${emulator.url}/api/v1/whoami`, { headers: { authorization: `Bearer ${TOKENS.orgAdmin}` } });
      const body = (await response.json()) as Record<string, unknown>;
      expect(response.status).toBe(200);
      expectUser(body);
      expect(body).toMatchObject({ keyScope: 'organization', orgRole: 'ORG_ADMIN' });
      expect(Object.keys(body.rolesByModel as object)).toHaveLength(2);
    } finally {
      await emulator.close();
    }
  });

  it('has no form without a test above', () => {
    expect(ORG_KEY_USER_FORMS).toEqual(['creator', ...forms.map(([form]) => form)]);
  });

  it('leaves personal tokens with their user in every form', async () => {
    const whoami = await nobody.api.as(TOKENS.gracePersonal).get('/api/v1/whoami');
    expect(whoami.body).toMatchObject({ keyScope: 'user', user: { membershipId: nobody.emulator.state.userId('grace@acme.example') } });
  });
});

describe('an organization key acting for its creator (orgKeyUser creator)', () => {
  it('lists and creates the creator’s routines without userId', async () => {
    const listed = await creator.api.get(ROUTINES);
    expect(listed.body.records.map((routine: { name: string }) => routine.name)).toEqual([
      'Daily pipeline check',
      'Weekly revenue digest',
      'Old experiment',
    ]);
    const created = await creator.api.post(ROUTINES, aRoutine());
    expect(created.status).toBe(201);
    expect(creator.emulator.state.routines('ada@acme.example').map((routine) => routine.id)).toContain(created.body.id);
  });
});

describe('an organization key tied to no user (orgKeyUser other than creator)', () => {
  it('lists no routines without userId, and the named user’s with it', async () => {
    const withoutUser = await nobody.api.get(ROUTINES);
    expect(withoutUser.status).toBe(200);
    expect(withoutUser.body.records).toEqual([]);
    expect(withoutUser.body.pageInfo).toMatchObject({ hasNextPage: false, totalRecords: 0 });
    const grace = nobody.emulator.state.userId('grace@acme.example');
    const forGrace = await nobody.api.get(ROUTINES, { userId: grace });
    expect(forGrace.body.records.map((routine: { name: string }) => routine.name)).toEqual(["Grace's weekly KPIs"]);
  });

  it('refuses to create a routine without userId (nobody to own it) and creates it for the named user', async () => {
    expectDetail(await nobody.api.post(ROUTINES, aRoutine()), 400, USER_ID_REQUIRED);
    expect(nobody.emulator.stats().byStatus).toEqual({ 400: 1 });
    const grace = nobody.emulator.state.userId('grace@acme.example');
    const created = await nobody.api.post(ROUTINES, aRoutine({ destination: { type: 'email', recipientEmails: ['grace@acme.example'], userGroupIds: [] } }), {
      userId: grace,
    });
    expect(created.status).toBe(201);
    expect(nobody.emulator.state.routine(created.body.id)).toMatchObject({ name: 'Monthly margin review' });
    expect(nobody.emulator.state.routines('grace@acme.example')).toHaveLength(2);
  });

  it('still reads, updates, triggers and deletes any routine of the organization by id', async () => {
    const id = digestOf(nobody);
    expect((await nobody.api.get(`${ROUTINES}/${id}`)).body.name).toBe('Weekly revenue digest');
    expect((await nobody.api.put(`${ROUTINES}/${id}`, renameBody(nobody, id, 'Revenue digest'))).body.name).toBe('Revenue digest');
    expect((await nobody.api.post(`${ROUTINES}/${id}/trigger`)).status).toBe(202);
    expect((await nobody.api.delete(`${ROUTINES}/${id}`)).body).toEqual({ deleted: true, id });
  });

  it('creates labels with the key’s own role, for no user', async () => {
    const created = await nobody.api.post('/api/v1/labels', { name: 'key-made', verified: true });
    expect(created.status).toBe(201);
    const member = await nobody.api.as(TOKENS.orgMember).post('/api/v1/labels', { name: 'member-made', verified: true });
    expect(member.status).toBe(403);
  });

  it('leaves personal tokens acting for their own user', async () => {
    const listed = await nobody.api.as(TOKENS.gracePersonal).get(ROUTINES);
    expect(listed.body.records.map((routine: { name: string }) => routine.name)).toEqual(["Grace's weekly KPIs"]);
    expect((await nobody.api.as(TOKENS.gracePersonal).post(ROUTINES, aRoutine({ destination: { type: 'email', recipientEmails: ['grace@acme.example'], userGroupIds: [] } }))).status).toBe(201);
  });
});

describe('routine endpoints requiring userId from organization keys (routinesRequireUserId)', () => {
  const graceId = () => requiring.emulator.state.userId('grace@acme.example');
  const kpisId = () => requiring.emulator.state.routines('grace@acme.example')[0]!.id;

  it.each([
    ['list', 'GET', (): string => ROUTINES],
    ['create', 'POST', (): string => ROUTINES],
    ['get', 'GET', (): string => `${ROUTINES}/${kpisId()}`],
    ['update', 'PUT', (): string => `${ROUTINES}/${kpisId()}`],
    ['delete', 'DELETE', (): string => `${ROUTINES}/${kpisId()}`],
    ['trigger', 'POST', (): string => `${ROUTINES}/${kpisId()}/trigger`],
  ] as const)('answers 400 to %s without userId and changes nothing', async (_what, method, path) => {
    const body = method === 'POST' && path() === ROUTINES ? aRoutine() : method === 'PUT' ? renameBody(requiring, kpisId(), 'Renamed') : undefined;
    const before = requiring.emulator.state.routines();
    expectDetail(await requiring.api.request(method, path(), { body }), 400, USER_ID_REQUIRED);
    expect(requiring.emulator.state.routines()).toEqual(before);
  });

  it('asks the generated client\'s PATCH for userId too, where the server serves it', async () => {
    const patching = await startEmulator({ routinesRequireUserId: true, routineUpdateMethod: 'patch' });
    try {
      const api = new Api(patching.url, TOKENS.orgAdmin);
      const kpis = patching.state.routines('grace@acme.example')[0]!.id;
      expectDetail(await api.patch(`${ROUTINES}/${kpis}`, { name: 'Renamed' }), 400, USER_ID_REQUIRED);
      expect(patching.state.routine(kpis)!.name).toBe("Grace's weekly KPIs");
      const userId = patching.state.userId('grace@acme.example');
      expect((await api.patch(`${ROUTINES}/${kpis}`, { name: 'KPIs' }, { userId })).body.name).toBe('KPIs');
    } finally {
      await patching.close();
    }
  });

  it('serves every routine endpoint when userId names the owner', async () => {
    const query = { userId: graceId() };
    expect((await requiring.api.get(ROUTINES, query)).body.records).toHaveLength(1);
    expect((await requiring.api.get(`${ROUTINES}/${kpisId()}`, query)).body.name).toBe("Grace's weekly KPIs");
    expect((await requiring.api.put(`${ROUTINES}/${kpisId()}`, renameBody(requiring, kpisId(), 'KPIs'), query)).body.name).toBe('KPIs');
    expect((await requiring.api.post(`${ROUTINES}/${kpisId()}/trigger`, undefined, query)).status).toBe(202);
    const created = await requiring.api.post(ROUTINES, aRoutine({ destination: { type: 'email', recipientEmails: ['grace@acme.example'], userGroupIds: [] } }), query);
    expect(created.status).toBe(201);
    expect((await requiring.api.delete(`${ROUTINES}/${created.body.id}`, query)).status).toBe(200);
  });

  it('does not ask personal tokens for userId', async () => {
    const grace = requiring.api.as(TOKENS.gracePersonal);
    expect((await grace.get(ROUTINES)).body.records).toHaveLength(1);
    expect((await grace.get(`${ROUTINES}/${kpisId()}`)).status).toBe(200);
  });

  it('leaves other endpoints of organization keys alone', async () => {
    expect((await requiring.api.get('/api/v1/labels')).status).toBe(200);
    expect((await requiring.api.get('/api/v1/whoami')).body.user.membershipId).toBe(requiring.emulator.state.userId('ada@acme.example'));
  });

  it('takes routines without userId when not required (the vendor profile answer)', async () => {
    expect((await creator.api.get(`${ROUTINES}/${digestOf(creator)}`)).status).toBe(200);
  });
});
