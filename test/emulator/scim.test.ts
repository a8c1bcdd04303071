// SCIM users and groups at the documented lowercase paths: ListResponse bodies, the documented
// filters (users by userName eq/co), startIndex/count paging, organization-key-only access, and
// the open point of what a SCIM user id is (scimUserIds).
import { describe, expect, it } from 'vitest';
import { startEmulator } from '../../src/emulator/index.js';
import { Api, aSeed, TOKENS, useEmulator } from './helpers.js';

const fixture = useEmulator();
const USERS = '/api/scim/v2/users';
const GROUPS = '/api/scim/v2/groups';

describe('GET /api/scim/v2/users', () => {
  it('lists all 36 users in one ListResponse by default', async () => {
    const response = await fixture.api.get(USERS);
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      schemas: ['urn:ietf:params:scim:api:messages:2.0:ListResponse'],
      totalResults: 36,
      itemsPerPage: 36,
      startIndex: 1,
    });
  });

  it('pages with startIndex and count (1-based)', async () => {
    const first = await fixture.api.get(USERS, { count: 20 });
    const second = await fixture.api.get(USERS, { count: 20, startIndex: 21 });
    expect(first.body).toMatchObject({ totalResults: 36, itemsPerPage: 20, startIndex: 1 });
    expect(second.body).toMatchObject({ totalResults: 36, itemsPerPage: 16, startIndex: 21 });
    const ids = [...first.body.Resources, ...second.body.Resources].map((user: { id: string }) => user.id);
    expect(new Set(ids).size).toBe(36);
    const beyond = await fixture.api.get(USERS, { startIndex: 100 });
    expect(beyond.body).toMatchObject({ Resources: [], totalResults: 36, itemsPerPage: 0, startIndex: 100 });
  });

  it('filters by userName co, case-insensitively, and returns the SCIM user shape', async () => {
    const response = await fixture.api.get(USERS, { filter: 'userName co "GRACE@"' });
    expect(response.body.Resources).toEqual([
      {
        schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
        id: fixture.emulator.state.userId('grace@acme.example'),
        userName: 'grace@acme.example',
        displayName: 'Grace Hopper',
        active: true,
        emails: [{ value: 'grace@acme.example', primary: true }],
        groups: [{ value: 'fin7q2k', display: 'Finance' }],
      },
    ]);
    expect((await fixture.api.get(USERS, { filter: 'userName co "analyst0"' })).body.totalResults).toBe(9);
  });

  it('filters by userName eq, regardless of case, as the documents say of e-mails', async () => {
    const response = await fixture.api.get(USERS, { filter: 'userName eq "Ken@ACME.example"' });
    expect(response.body.Resources.map((user: { userName: string }) => user.userName)).toEqual(['ken@acme.example']);
    expect((await fixture.api.get(USERS, { filter: 'USERNAME EQ "ken@acme"' })).body.totalResults).toBe(0);
  });

  it.each([
    ['id eq (the documents filter on userName only)', 'id eq "3f1c"'],
    ['embedExternalId co (embed users only)', 'embedExternalId co "42"'],
    ['an unknown attribute', 'title co "boss"'],
    ['no quotes', 'userName co grace'],
  ])('answers 400 for %s', async (_what, filter) => {
    const response = await fixture.api.get(USERS, { filter });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({
      schemas: ['urn:ietf:params:scim:api:messages:2.0:Error'],
      detail: expect.stringMatching(/^Bad Request: filter: unsupported filter .* \(supported: userName eq "\.\.\.", userName co "\.\.\."\)$/),
      status: 400,
    });
  });

  it('answers 400 for a count that is not a number', async () => {
    const response = await fixture.api.get(USERS, { count: 'many' });
    expect(response.body).toMatchObject({ detail: 'Bad Request: count: must be an integer', status: 400 });
  });

  it('matches the resource name regardless of case and reads one user', async () => {
    expect((await fixture.api.get('/api/scim/v2/Users', { count: 1 })).body.itemsPerPage).toBe(1);
    const ada = fixture.emulator.state.userId('ada@acme.example');
    expect((await fixture.api.get(`${USERS}/${ada}`)).body).toMatchObject({ userName: 'ada@acme.example' });
    expect((await fixture.api.get(`${USERS}/nope`)).body).toMatchObject({ detail: 'User not found', status: 404 });
  });

  it('answers 403 to personal tokens, whatever their role', async () => {
    for (const token of [TOKENS.adaPersonal, TOKENS.gracePersonal]) {
      const response = await fixture.api.as(token).get(USERS);
      expect(response.status).toBe(403);
      expect(response.body.detail).toBe('User-scoped tokens cannot use SCIM');
    }
  });
});

describe('GET /api/scim/v2/groups', () => {
  it('lists groups with short ids and members', async () => {
    const response = await fixture.api.get(GROUPS);
    expect(response.body).toMatchObject({ totalResults: 3, itemsPerPage: 3, startIndex: 1 });
    expect(response.body.Resources).toEqual([
      expect.objectContaining({ id: 'ana4r6d', displayName: 'Analysts' }),
      {
        schemas: ['urn:ietf:params:scim:schemas:core:2.0:Group'],
        id: 'fin7q2k',
        displayName: 'Finance',
        members: [
          { value: fixture.emulator.state.userId('ada@acme.example'), display: 'ada@acme.example' },
          { value: fixture.emulator.state.userId('grace@acme.example'), display: 'grace@acme.example' },
        ],
      },
      expect.objectContaining({ id: 'ops3m8x', displayName: 'Sales Ops' }),
    ]);
  });

  it('pages with startIndex and count', async () => {
    const paged = await fixture.api.get(GROUPS, { count: 1, startIndex: 3 });
    expect(paged.body).toMatchObject({ totalResults: 3, itemsPerPage: 1, startIndex: 3 });
    expect(paged.body.Resources.map((group: { id: string }) => group.id)).toEqual(['ops3m8x']);
  });

  it('refuses filter and excludedAttributes on the vendor profile: the groups documents name neither', async () => {
    const response = await fixture.api.get(GROUPS, { filter: 'displayName eq "Sales Ops"', excludedAttributes: 'members' });
    expect(response.status).toBe(400);
    expect(response.body.detail).toBe("Bad Request: formErrors: Unrecognized key(s) in object: 'filter', 'excludedAttributes'");
  });

  it('filters by displayName eq in any case and can leave members out, where undocumented keys are not refused', async () => {
    // The vendor CLI's file shows both keys; a server that does not refuse undocumented keys serves them.
    const lenient = await startEmulator({ unknownKeys: 'ignore' });
    try {
      const api = new Api(lenient.url, TOKENS.orgAdmin);
      const filtered = await api.get(GROUPS, { filter: 'displayName eq "sales ops"', excludedAttributes: 'members' });
      expect(filtered.body).toMatchObject({ totalResults: 1, itemsPerPage: 1, startIndex: 1 });
      expect(filtered.body.Resources).toEqual([expect.objectContaining({ id: 'ops3m8x', displayName: 'Sales Ops', members: [] })]);
      const finance = await api.get(GROUPS, { filter: 'displayName eq "Finance"' });
      expect(finance.body.Resources).toEqual([expect.objectContaining({ id: 'fin7q2k', members: expect.arrayContaining([expect.objectContaining({ display: 'ada@acme.example' })]) })]);
      expect((await api.get(GROUPS, { filter: 'displayName co "Sales"' })).status).toBe(400);
    } finally {
      await lenient.close();
    }
  });

  it('answers 403 to personal tokens', async () => {
    expect((await fixture.api.as(TOKENS.adaPersonal).get(GROUPS)).status).toBe(403);
  });
});

describe('embed users', () => {
  it('are listed by /embed/users with their external id, and not by the users list', async () => {
    const seeded = await startEmulator({
      data: aSeed({
        users: [
          { id: '11111111-1111-4111-8111-111111111111', email: 'ada@tiny.example', displayName: 'Ada', role: 'ORG_ADMIN' },
          { id: '22222222-2222-4222-8222-222222222222', email: 'bob@tiny.example', displayName: 'Bob', role: 'MEMBER', embedExternalId: 'partner-42' },
        ],
      }),
    });
    try {
      const api = new Api(seeded.url, 'tiny-org-admin');
      expect((await api.get(USERS)).body.Resources.map((user: { userName: string }) => user.userName)).toEqual(['ada@tiny.example']);
      expect((await api.get(`${USERS}/22222222-2222-4222-8222-222222222222`)).status).toBe(404);
      const embed = await api.get('/api/scim/v2/embed/users', { filter: 'embedExternalId eq "partner-42"' });
      expect(embed.body.Resources).toEqual([expect.objectContaining({ userName: 'bob@tiny.example', embedExternalId: 'partner-42' })]);
    } finally {
      await seeded.close();
    }
  });
});

describe('what a SCIM user id is (scimUserIds)', () => {
  it('is the membership id by default, and the user\'s own id (whoami user.id) under `user`', async () => {
    const other = await startEmulator({ scimUserIds: 'user' });
    try {
      const api = new Api(other.url, TOKENS.orgAdmin);
      const membership = other.state.userId('ada@acme.example');
      const listed = (await api.get(USERS, { filter: 'userName eq "ada@acme.example"' })).body.Resources[0].id;
      expect(listed).not.toBe(membership);
      expect((await api.as(TOKENS.adaPersonal).get('/api/v1/whoami')).body.user).toEqual({ id: listed, membershipId: membership });
      expect((await api.get(`${USERS}/${listed}`)).body).toMatchObject({ userName: 'ada@acme.example' });
      expect((await api.get(`${USERS}/${membership}`)).status).toBe(404);
    } finally {
      await other.close();
    }
    const ada = fixture.emulator.state.userId('ada@acme.example');
    expect((await fixture.api.get(USERS, { filter: 'userName eq "ada@acme.example"' })).body.Resources[0].id).toBe(ada);
  });
});
