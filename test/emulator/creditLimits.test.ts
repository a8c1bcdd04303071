// Individual credit limits: the user and entity-group lists (ordered, paginated) and their bulk
// PATCH (up to 1000 entries, atomic) with every 400/404 case of gaps.md.
import { describe, expect, it } from 'vitest';
import { Api, collectPages, expectDetail, expectError, TOKENS, useEmulator } from './helpers.js';

const fixture = useEmulator();
const USERS = '/api/v1/ai/credit-controls/users';
const ENTITIES = '/api/v1/ai/credit-controls/entity-groups';
const id = (email: string) => fixture.emulator.state.userId(email);

describe('GET /api/v1/ai/credit-controls/users', () => {
  it('lists individual limits ordered by userId, with pageInfo', async () => {
    const response = await fixture.api.get(USERS);
    expect(response.status).toBe(200);
    const expected = [
      { userId: id('grace@acme.example'), creditLimit: 500 },
      { userId: id('linus@acme.example'), creditLimit: null },
      { userId: id('ken@acme.example'), creditLimit: 100 },
      { userId: id('analyst01@acme.example'), creditLimit: 50 },
    ].sort((a, b) => (a.userId < b.userId ? -1 : 1));
    expect(response.body).toEqual({
      records: expected,
      pageInfo: { hasNextPage: false, nextCursor: null, pageSize: 20, totalRecords: 4 },
    });
  });

  it('pages with pageSize and an opaque cursor', async () => {
    const first = await fixture.api.get(USERS, { pageSize: 3 });
    expect(first.body.records).toHaveLength(3);
    expect(first.body.pageInfo).toMatchObject({ hasNextPage: true, pageSize: 3, totalRecords: 4 });
    const second = await fixture.api.get(USERS, { pageSize: 3, cursor: first.body.pageInfo.nextCursor });
    expect(second.body.records).toHaveLength(1);
    expect(second.body.pageInfo).toEqual({ hasNextPage: false, nextCursor: null, pageSize: 3, totalRecords: 4 });
  });

  it('refuses a MEMBER with 403', async () => {
    expectError(await fixture.api.as(TOKENS.orgMember).get(USERS), 403, 'Insufficient permissions');
  });
});

describe('PATCH /api/v1/ai/credit-controls/users', () => {
  it('sets limits, explicit unlimited and back-to-default in one request', async () => {
    const response = await fixture.api.patch(USERS, {
      users: [
        { userId: id('margaret@acme.example'), creditLimit: 300 },
        { userId: id('grace@acme.example'), creditLimit: null },
        { userId: id('ken@acme.example'), useDefaultLimit: true },
      ],
    });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      users: [
        { userId: id('margaret@acme.example'), creditLimit: 300, usesDefaultLimit: false },
        { userId: id('grace@acme.example'), creditLimit: null, usesDefaultLimit: false },
        { userId: id('ken@acme.example'), creditLimit: 200, usesDefaultLimit: true },
      ],
    });
    const limits = Object.fromEntries(fixture.emulator.state.userCreditLimits().map((r) => [r.userId, r.creditLimit]));
    expect(limits).toEqual({
      [id('margaret@acme.example')]: 300,
      [id('grace@acme.example')]: null,
      [id('linus@acme.example')]: null,
      [id('analyst01@acme.example')]: 50,
    });
  });

  it('accepts exactly 1000 entries', async () => {
    const grace = id('grace@acme.example');
    const ken = id('ken@acme.example');
    const users = Array.from({ length: 1000 }, (_, i) => ({ userId: i === 0 ? grace : `${ken}-${i}`, creditLimit: 1 }));
    // 999 of these are not members: the 404 proves the 1000-entry body passed validation.
    expectDetail(await fixture.api.patch(USERS, { users }), 404, `User not found: ${ken}-1`);
  });

  const grace = () => id('grace@acme.example');
  it.each([
    ['an empty list', () => ({ users: [] }), 'Bad Request: users: must contain at least one entry'],
    ['more than 1000 entries', () => ({ users: Array.from({ length: 1001 }, () => ({ userId: grace(), creditLimit: 1 })) }), 'Bad Request: users: at most 1000 entries per request, got 1001'],
    ['a missing list', () => ({}), 'Bad Request: users: is required'],
    ['a list that is not an array', () => ({ users: { userId: grace() } }), 'Bad Request: users: must be an array'],
    ['both creditLimit and useDefaultLimit', () => ({ users: [{ userId: grace(), creditLimit: 5, useDefaultLimit: true }] }), 'Bad Request: users[0]: give either creditLimit or useDefaultLimit, not both'],
    ['neither creditLimit nor useDefaultLimit', () => ({ users: [{ userId: grace() }] }), 'Bad Request: users[0]: give either creditLimit or useDefaultLimit'],
    ['useDefaultLimit false', () => ({ users: [{ userId: grace(), useDefaultLimit: false }] }), 'Bad Request: users[0].useDefaultLimit: must be true'],
    ['a negative limit', () => ({ users: [{ userId: grace(), creditLimit: -5 }] }), 'Bad Request: users[0].creditLimit: must be a non-negative number or null'],
    ['a duplicate userId', () => ({ users: [{ userId: grace(), creditLimit: 5 }, { userId: grace(), creditLimit: 6 }] }), () => `Bad Request: users[1].userId: duplicate userId ${grace()} (also users[0])`],
    ['a missing userId', () => ({ users: [{ creditLimit: 5 }] }), 'Bad Request: users[0].userId: is required'],
    ['an unknown entry field', () => ({ users: [{ userId: grace(), creditLimit: 5, note: 'x' }] }), 'Bad Request: users[0].note: unknown field'],
    // Top-level keys the contract does not document meet the vendor's generic refusal first; keys
    // inside an entry are the handler's own to refuse (above).
    ['an unknown top-level field', () => ({ users: [{ userId: grace(), creditLimit: 5 }], dryRun: true }), "Bad Request: formErrors: Unrecognized key(s) in object: 'dryRun'"],
  ] as [string, () => unknown, string | (() => string)][])('rejects %s with 400', async (_what, body, detail) => {
    expectDetail(await fixture.api.patch(USERS, body()), 400, typeof detail === 'function' ? detail() : detail);
  });

  it('answers 404 for a userId that is not a member and changes nothing (atomic)', async () => {
    const before = fixture.emulator.state.userCreditLimits();
    const response = await fixture.api.patch(USERS, {
      users: [
        { userId: id('margaret@acme.example'), creditLimit: 1 },
        { userId: '00000000-0000-4000-8000-000000000000', creditLimit: 2 },
      ],
    });
    expectDetail(response, 404, 'User not found: 00000000-0000-4000-8000-000000000000');
    expect(fixture.emulator.state.userCreditLimits()).toEqual(before);
  });
});

describe('entity-group limits', () => {
  it('lists the entity-group limits ordered by entity', async () => {
    const response = await fixture.api.get(ENTITIES);
    expect(response.body).toEqual({
      records: [
        { entity: 'embed-partners', creditLimit: 1000 },
        { entity: 'embed-trial', creditLimit: 50 },
      ],
      pageInfo: { hasNextPage: false, nextCursor: null, pageSize: 20, totalRecords: 2 },
    });
  });

  it('sets and removes entity-group limits in one atomic request', async () => {
    const response = await fixture.api.patch(ENTITIES, {
      entityGroups: [
        { entity: 'embed-resellers', creditLimit: 250 },
        { entity: 'embed-partners', useDefaultLimit: true },
      ],
    });
    expect(response.body).toEqual({
      entityGroups: [
        { entity: 'embed-resellers', creditLimit: 250, usesDefaultLimit: false },
        { entity: 'embed-partners', creditLimit: null, usesDefaultLimit: true },
      ],
    });
    const { records } = await collectPages(fixture.api, ENTITIES, { pageSize: 1 });
    expect(records).toEqual([
      { entity: 'embed-resellers', creditLimit: 250 },
      { entity: 'embed-trial', creditLimit: 50 },
    ]);
  });

  it.each([
    ['an empty list', { entityGroups: [] }, 'Bad Request: entityGroups: must contain at least one entry'],
    ['both fields', { entityGroups: [{ entity: 'embed-partners', creditLimit: 1, useDefaultLimit: true }] }, 'Bad Request: entityGroups[0]: give either creditLimit or useDefaultLimit, not both'],
    ['a duplicate entity', { entityGroups: [{ entity: 'embed-partners', creditLimit: 1 }, { entity: 'embed-partners', creditLimit: 2 }] }, 'Bad Request: entityGroups[1].entity: duplicate entity embed-partners (also entityGroups[0])'],
    ['a negative limit', { entityGroups: [{ entity: 'embed-partners', creditLimit: -1 }] }, 'Bad Request: entityGroups[0].creditLimit: must be a non-negative number or null'],
  ])('rejects %s with 400', async (_what, body, detail) => {
    expectDetail(await fixture.api.patch(ENTITIES, body), 400, detail);
  });

  it('answers 404 for an entity group the organization does not know, changing nothing', async () => {
    const response = await fixture.api.patch(ENTITIES, {
      entityGroups: [
        { entity: 'embed-partners', creditLimit: 5 },
        { entity: 'embed-strangers', creditLimit: 5 },
      ],
    });
    expectDetail(response, 404, 'Entity group not found: embed-strangers');
    expect(fixture.emulator.state.entityGroupCreditLimits()).toEqual([
      { entity: 'embed-partners', creditLimit: 1000 },
      { entity: 'embed-trial', creditLimit: 50 },
    ]);
  });

  it('refuses a MEMBER with 403', async () => {
    const member = new Api(fixture.emulator.url, TOKENS.gracePersonal);
    expectError(await member.patch(ENTITIES, { entityGroups: [{ entity: 'embed-partners', creditLimit: 1 }] }), 403, 'Insufficient permissions');
  });
});
