// Cursor pagination edges shared by every paginated list (gaps.md): page sizes 1..100 with
// default 20, invalid page sizes and cursors (400), the empty list, a list that is an exact
// multiple of the page size, the last page, and cursors that survive inserts between pages.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { Api, aSeed, collectPages, expectDetail } from './helpers.js';

const USERS = '/api/v1/ai/credit-controls/users';
const userId = (n: number) => `55555555-5555-4555-8555-${String(n).padStart(12, '0')}`;

/** A seed whose organization has `limits` users with individual credit limits. */
function seedWithLimits(limits: number) {
  const base = aSeed();
  const members = Array.from({ length: 40 }, (_, i) => ({
    id: userId(i + 1),
    email: `member${i + 1}@tiny.example`,
    displayName: `Member ${i + 1}`,
    role: 'MEMBER' as const,
  }));
  return aSeed({
    users: [...base.users, ...members],
    userCreditLimits: members.slice(0, limits).map((member, i) => ({ user: member.email, creditLimit: i })),
  });
}

describe('pagination', () => {
  let forty: RunningEmulator;
  let none: RunningEmulator;
  let api: Api;
  beforeAll(async () => {
    forty = await startEmulator({ data: seedWithLimits(40) });
    none = await startEmulator({ data: seedWithLimits(0) });
    api = new Api(forty.url, 'tiny-org-admin');
  });
  afterAll(async () => {
    await forty.close();
    await none.close();
  });

  it('answers an empty list with an empty page', async () => {
    const response = await new Api(none.url, 'tiny-org-admin').get(USERS);
    expect(response.body).toEqual({ records: [], pageInfo: { hasNextPage: false, nextCursor: null, pageSize: 20, totalRecords: 0 } });
  });

  it('defaults to 20 records per page', async () => {
    const response = await api.get(USERS);
    expect(response.body.records).toHaveLength(20);
    expect(response.body.pageInfo).toMatchObject({ hasNextPage: true, pageSize: 20, totalRecords: 40 });
  });

  it('ends an exact multiple of the page size on a full last page with no next cursor', async () => {
    const first = await api.get(USERS, { pageSize: 20 });
    const second = await api.get(USERS, { pageSize: 20, cursor: first.body.pageInfo.nextCursor });
    expect(second.body.records).toHaveLength(20);
    expect(second.body.pageInfo).toEqual({ hasNextPage: false, nextCursor: null, pageSize: 20, totalRecords: 40 });
    expect(second.body.records[19].userId).toBe(userId(40));
  });

  it('returns a short last page', async () => {
    const { records, pages } = await collectPages(api, USERS, { pageSize: 15 });
    expect(pages).toBe(3);
    expect(records.map((record) => record.userId)).toEqual(Array.from({ length: 40 }, (_, i) => userId(i + 1)));
  });

  it('accepts page sizes 1 and 100', async () => {
    expect((await api.get(USERS, { pageSize: 1 })).body.records).toHaveLength(1);
    expect((await api.get(USERS, { pageSize: 100 })).body.records).toHaveLength(40);
  });

  it.each(['0', '101', '-1', 'abc', '1.5', ''])('answers 400 for pageSize=%j', async (pageSize) => {
    expectDetail(await api.get(USERS, { pageSize }), 400, 'Bad Request: pageSize: must be an integer from 1 to 100');
  });

  it('answers 400 for a cursor that is not one of ours', async () => {
    const garbage = Buffer.from('{"hello":"world"}').toString('base64url');
    for (const cursor of ['garbage!', garbage, Buffer.from('not json').toString('base64url'), '']) {
      expectDetail(await api.get(USERS, { cursor }), 400, 'Bad Request: cursor: invalid cursor');
    }
  });

  it('answers 400 for a cursor taken from another list', async () => {
    const documents = await api.get('/api/v1/api-keys', { pageSize: 1 });
    expectDetail(await api.get(USERS, { cursor: documents.body.pageInfo.nextCursor }), 400, 'Bad Request: cursor: invalid cursor');
  });

  it('neither repeats nor skips a record when one is added between pages', async () => {
    const first = await api.get(USERS, { pageSize: 10 });
    // ada's id sorts before every member: adding her limit must not shift the next page.
    expect((await api.patch(USERS, { users: [{ userId: '11111111-1111-4111-8111-111111111111', creditLimit: 9 }] })).status).toBe(200);
    const second = await api.get(USERS, { pageSize: 10, cursor: first.body.pageInfo.nextCursor });
    expect(second.body.records[0].userId).toBe(userId(11));
    expect(second.body.pageInfo.totalRecords).toBe(41);
    forty.reset();
  });
});
