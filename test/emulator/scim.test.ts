// SCIM users and groups: ListResponse bodies, the supported filters, startIndex/count paging
// and organization-key-only access.
import { describe, expect, it } from 'vitest';
import { startEmulator } from '../../src/emulator/index.js';
import { Api, aSeed, TOKENS, useEmulator } from './helpers.js';

const fixture = useEmulator();
const USERS = '/api/scim/v2/Users';
const GROUPS = '/api/scim/v2/Groups';

describe('GET /api/scim/v2/Users', () => {
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

  it('filters by id eq', async () => {
    const ken = fixture.emulator.state.userId('ken@acme.example');
    const response = await fixture.api.get(USERS, { filter: `id eq "${ken}"` });
    expect(response.body.Resources.map((user: { userName: string }) => user.userName)).toEqual(['ken@acme.example']);
  });

  it('filters by embedExternalId co', async () => {
    const seeded = await startEmulator({
      data: aSeed({
        users: [
          { id: '11111111-1111-4111-8111-111111111111', email: 'ada@tiny.example', displayName: 'Ada', role: 'ORG_ADMIN' },
          { id: '22222222-2222-4222-8222-222222222222', email: 'bob@tiny.example', displayName: 'Bob', role: 'MEMBER', embedExternalId: 'partner-42' },
        ],
      }),
    });
    try {
      const response = await new Api(seeded.url, 'tiny-org-admin').get(USERS, { filter: 'embedExternalId co "42"' });
      expect(response.body.Resources).toEqual([expect.objectContaining({ userName: 'bob@tiny.example', embedExternalId: 'partner-42' })]);
    } finally {
      await seeded.close();
    }
  });

  it.each([
    ['userName eq (only co is supported)', 'userName eq "grace@acme.example"'],
    ['id co (only eq is supported)', 'id co "3f1c"'],
    ['an unknown attribute', 'title co "boss"'],
    ['no quotes', 'userName co grace'],
  ])('answers 400 for %s', async (_what, filter) => {
    const response = await fixture.api.get(USERS, { filter });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({
      schemas: ['urn:ietf:params:scim:api:messages:2.0:Error'],
      detail: expect.stringMatching(/^Bad Request: filter: unsupported filter .* \(supported: id eq "\.\.\.", userName co "\.\.\.", embedExternalId co "\.\.\."\)$/),
      status: 400,
    });
  });

  it('answers 400 for a count that is not a number', async () => {
    const response = await fixture.api.get(USERS, { count: 'many' });
    expect(response.body).toMatchObject({ detail: 'Bad Request: count: must be an integer', status: 400 });
  });

  it('matches the resource name regardless of case and reads one user', async () => {
    expect((await fixture.api.get('/api/scim/v2/users', { count: 1 })).body.itemsPerPage).toBe(1);
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

describe('GET /api/scim/v2/Groups', () => {
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
          { value: fixture.emulator.state.userId('ada@acme.example'), display: 'Ada Lovelace' },
          { value: fixture.emulator.state.userId('grace@acme.example'), display: 'Grace Hopper' },
        ],
      },
      expect.objectContaining({ id: 'ops3m8x', displayName: 'Sales Ops' }),
    ]);
  });

  it('filters by displayName eq, pages, and can leave members out', async () => {
    const filtered = await fixture.api.get(GROUPS, { filter: 'displayName eq "Sales Ops"', excludedAttributes: 'members' });
    expect(filtered.body.Resources).toEqual([expect.objectContaining({ id: 'ops3m8x', members: [] })]);
    const paged = await fixture.api.get(GROUPS, { count: 1, startIndex: 3 });
    expect(paged.body.Resources.map((group: { id: string }) => group.id)).toEqual(['ops3m8x']);
  });

  it('answers 403 to personal tokens', async () => {
    expect((await fixture.api.as(TOKENS.adaPersonal).get(GROUPS)).status).toBe(403);
  });
});
