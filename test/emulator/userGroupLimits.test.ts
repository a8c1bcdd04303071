// User group credit limits (gaps.md): the list (ordered by userGroupId, paginated) and the bulk
// PATCH `{userGroups: [...]}` of 1..1000 entries, validated whole and applied atomically, answered
// in request order. Whether `userGroupId` is the SCIM id or a uuid is OPEN: the emulator speaks
// either (`userGroupIdForm`), and both are specified here.
import { describe, expect, it } from 'vitest';
import { Api, collectPages, expectDetail, expectError, TOKENS, useEmulator } from './helpers.js';

const GROUPS = '/api/v1/ai/credit-controls/user-groups';
// The demo dataset's SCIM ids: Finance has no limit, Sales Ops 400, Analysts 100.
const FINANCE = 'fin7q2k';
const SALES_OPS = 'ops3m8x';
const ANALYSTS = 'ana4r6d';

describe('user group limits keyed by SCIM id (both profiles)', () => {
  const fixture = useEmulator();

  it('lists the groups with a limit of their own, ordered by userGroupId, with pageInfo', async () => {
    const response = await fixture.api.get(GROUPS);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      records: [
        { userGroupId: ANALYSTS, creditLimit: 100 },
        { userGroupId: SALES_OPS, creditLimit: 400 },
      ],
      pageInfo: { hasNextPage: false, nextCursor: null, pageSize: 20, totalRecords: 2 },
    });
    const { records, pages } = await collectPages(fixture.api, GROUPS, { pageSize: 1 });
    expect(pages).toBe(2);
    expect(records.map((record) => record.userGroupId)).toEqual([ANALYSTS, SALES_OPS]);
  });

  it('sets, makes unlimited and resets in one atomic request, answering in request order', async () => {
    const response = await fixture.api.patch(GROUPS, {
      userGroups: [
        { userGroupId: SALES_OPS, creditLimit: null },
        { userGroupId: FINANCE, creditLimit: 1500 },
        { userGroupId: ANALYSTS, useDefaultLimit: true },
      ],
    });
    expect(response.status).toBe(200);
    // A group back at the default answers the user default (200 in the demo), its effective limit.
    expect(response.body).toEqual({
      userGroups: [
        { userGroupId: SALES_OPS, creditLimit: null, usesDefaultLimit: false },
        { userGroupId: FINANCE, creditLimit: 1500, usesDefaultLimit: false },
        { userGroupId: ANALYSTS, creditLimit: 200, usesDefaultLimit: true },
      ],
    });
    expect(fixture.emulator.state.userGroupCreditLimits()).toEqual([
      { userGroupId: FINANCE, creditLimit: 1500 },
      { userGroupId: SALES_OPS, creditLimit: null },
    ]);
  });

  const one = (entry: Record<string, unknown>) => ({ userGroups: [entry] });
  it.each([
    ['no list', {}, 'Bad Request: userGroups: is required'],
    ['an empty list', { userGroups: [] }, 'Bad Request: userGroups: must contain at least one entry'],
    [
      'over 1000 entries',
      { userGroups: Array.from({ length: 1001 }, () => ({ userGroupId: FINANCE, creditLimit: 1 })) },
      'Bad Request: userGroups: at most 1000 entries per request, got 1001',
    ],
    ['both fields', one({ userGroupId: FINANCE, creditLimit: 1, useDefaultLimit: true }), 'Bad Request: userGroups[0]: give either creditLimit or useDefaultLimit, not both'],
    ['neither field', one({ userGroupId: FINANCE }), 'Bad Request: userGroups[0]: give either creditLimit or useDefaultLimit'],
    ['a negative limit', one({ userGroupId: FINANCE, creditLimit: -1 }), 'Bad Request: userGroups[0].creditLimit: must be a non-negative number or null'],
    [
      'a duplicate group',
      { userGroups: [{ userGroupId: FINANCE, creditLimit: 1 }, { userGroupId: FINANCE, useDefaultLimit: true }] },
      `Bad Request: userGroups[1].userGroupId: duplicate userGroupId ${FINANCE} (also userGroups[0])`,
    ],
  ])('rejects %s with 400 and changes nothing', async (_what, body, detail) => {
    expectDetail(await fixture.api.patch(GROUPS, body), 400, detail);
    expect(fixture.emulator.state.userGroupCreditLimits()).toHaveLength(2);
  });

  it('answers 404 for a group the organization does not have, changing nothing', async () => {
    const response = await fixture.api.patch(GROUPS, {
      userGroups: [
        { userGroupId: SALES_OPS, creditLimit: 5 },
        { userGroupId: 'nosuch1', creditLimit: 5 },
      ],
    });
    expectDetail(response, 404, 'User group not found: nosuch1');
    expect(fixture.emulator.state.userGroupCreditLimits()).toEqual([
      { userGroupId: ANALYSTS, creditLimit: 100 },
      { userGroupId: SALES_OPS, creditLimit: 400 },
    ]);
  });

  it('refuses a MEMBER with 403', async () => {
    const member = new Api(fixture.emulator.url, TOKENS.gracePersonal);
    expectError(await member.patch(GROUPS, one({ userGroupId: FINANCE, creditLimit: 1 })), 403, 'Insufficient permissions');
    expectError(await fixture.api.as(TOKENS.orgMember).get(GROUPS), 403, 'Insufficient permissions');
  });
});

describe('user group limits keyed by uuid (userGroupIdForm: uuid)', () => {
  const fixture = useEmulator({ userGroupIdForm: 'uuid' });
  const uuidOf = (scimId: string) => fixture.emulator.state.snapshot().groups.find((group) => group.id === scimId)!.uuid;

  it('lists and takes each group by its uuid, and answers 404 for a SCIM id', async () => {
    const listed = await fixture.api.get(GROUPS);
    expect(listed.body.records).toEqual(
      [
        { userGroupId: uuidOf(ANALYSTS), creditLimit: 100 },
        { userGroupId: uuidOf(SALES_OPS), creditLimit: 400 },
      ].sort((a, b) => (a.userGroupId < b.userGroupId ? -1 : 1)),
    );
    expectDetail(await fixture.api.patch(GROUPS, { userGroups: [{ userGroupId: FINANCE, creditLimit: 1 }] }), 404, `User group not found: ${FINANCE}`);
    const patched = await fixture.api.patch(GROUPS, { userGroups: [{ userGroupId: uuidOf(FINANCE), creditLimit: 1 }] });
    expect(patched.body).toEqual({ userGroups: [{ userGroupId: uuidOf(FINANCE), creditLimit: 1, usesDefaultLimit: false }] });
    // The state keeps SCIM ids whatever the wire speaks.
    expect(fixture.emulator.state.userGroupCreditLimits().map((record) => record.userGroupId).sort()).toEqual([ANALYSTS, FINANCE, SALES_OPS]);
  });
});
