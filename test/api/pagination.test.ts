// Listing walks every page and stops where it should: hasNextPage false, an empty page, the
// last SCIM index. A server that hands back a cursor twice gets a clear error, not a hang.

import nock from 'nock';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { collect, paginateCursor, paginateScim, type CursorPage } from '../../src/api/pagination.js';
import { PlatformApi } from '../../src/api/platform.js';
import type { PageInfo, ScimList } from '../../src/api/types.js';
import { StewardError } from '../../src/errors.js';
import { ORIGIN, rejectionOf, testClient, type TestClient } from './helpers.js';
import { routineRecord } from './wire.js';

function page<T>(items: T[], nextCursor: string | null, hasNextPage = nextCursor !== null): CursorPage<T> {
  const pageInfo: PageInfo = { hasNextPage, nextCursor, pageSize: 100 };
  return { items, pageInfo };
}

/** A fetcher serving fixed pages keyed by cursor ('' for the first), recording the cursors asked for. */
function serve<T>(pages: Record<string, CursorPage<T>>): { fetchPage: (cursor: string | undefined) => Promise<CursorPage<T>>; asked: (string | undefined)[] } {
  const asked: (string | undefined)[] = [];
  return {
    asked,
    fetchPage: (cursor) => {
      asked.push(cursor);
      const found = pages[cursor ?? ''];
      if (found === undefined) throw new Error(`no page for cursor ${String(cursor)}`);
      return Promise.resolve(found);
    },
  };
}

describe('cursor pagination', () => {
  it('follows nextCursor until hasNextPage is false', async () => {
    const { fetchPage, asked } = serve({ '': page([1, 2], 'c2'), c2: page([3], 'c3'), c3: page([4], null) });
    expect(await collect(paginateCursor('listing things', fetchPage))).toEqual([1, 2, 3, 4]);
    expect(asked).toEqual([undefined, 'c2', 'c3']);
  });

  it('stops on hasNextPage false even when a cursor is present', async () => {
    const { fetchPage, asked } = serve({ '': page([1], 'c2', false) });
    expect(await collect(paginateCursor('listing things', fetchPage))).toEqual([1]);
    expect(asked).toEqual([undefined]);
  });

  it('stops on an empty page even when the server claims more', async () => {
    const { fetchPage, asked } = serve({ '': page([1], 'c2'), c2: page<number>([], 'c3') });
    expect(await collect(paginateCursor('listing things', fetchPage))).toEqual([1]);
    expect(asked).toEqual([undefined, 'c2']);
  });

  it('refuses a cursor it has already used (loop guard)', async () => {
    const { fetchPage } = serve({ '': page([1], 'c2'), c2: page([2], 'c3'), c3: page([3], 'c2') });
    const error = await rejectionOf(collect(paginateCursor('listing routines', fetchPage)));
    expect(error).toBeInstanceOf(StewardError);
    expect((error as StewardError).code).toBe('api.pagination');
    expect((error as StewardError).fault).toBe('server');
    expect((error as StewardError).message).toBe(
      'listing routines: the server returned cursor "c2" a second time (page 4); stopped to avoid an endless listing.',
    );
  });

  it('refuses a page that promises more but gives no cursor', async () => {
    const { fetchPage } = serve({ '': page([1], null, true) });
    const error = (await rejectionOf(collect(paginateCursor('listing labels', fetchPage)))) as StewardError;
    expect(error.message).toBe('listing labels: page 1 says another page exists but gives no cursor; stopped to avoid an endless listing.');
  });

  it('reads lazily: stopping early fetches no further page', async () => {
    const { fetchPage, asked } = serve({ '': page([1, 2], 'c2'), c2: page([3], null) });
    for await (const item of paginateCursor('listing things', fetchPage)) {
      if (item === 1) break;
    }
    expect(asked).toEqual([undefined]);
  });
});

describe('records the server repeats or runs past its total', () => {
  const keyOf = (item: { id: string }) => item.id;
  const ids = (...names: string[]) => names.map((id) => ({ id }));

  it('refuses a record that comes twice on one page', async () => {
    const { fetchPage } = serve({ '': page(ids('a', 'b', 'a'), null) });
    const error = (await rejectionOf(collect(paginateCursor({ operation: 'listing things', route: 'GET /things', keyOf }, fetchPage)))) as StewardError;
    expect(error.message).toBe('listing things: GET /things: record "a" came twice on page 1; stopped to avoid an endless listing.');
  });

  it('takes the same identity on two pages as a loop, not as new records', async () => {
    const { fetchPage, asked } = serve({ '': page(ids('a', 'b'), 'c2'), c2: page(ids('c', 'a'), 'c3'), c3: page(ids('d'), null) });
    const error = (await rejectionOf(collect(paginateCursor({ operation: 'listing things', keyOf }, fetchPage)))) as StewardError;
    expect(error.message).toBe('listing things: record "a" came on page 2 again after page 1; stopped to avoid an endless listing.');
    expect(asked).toEqual([undefined, 'c2']);
  });

  it('accepts exactly totalRecords and tells each page with the number of pages', async () => {
    const pageInfo = (nextCursor: string | null) => ({ hasNextPage: nextCursor !== null, nextCursor, pageSize: 2, totalRecords: 3 });
    const told: [number, number | undefined][] = [];
    const { fetchPage } = serve({ '': { items: ids('a', 'b'), pageInfo: pageInfo('c2') }, c2: { items: ids('c'), pageInfo: pageInfo(null) } });
    const listing = { operation: 'listing things', keyOf, onPage: (n: number, total: number | undefined) => void told.push([n, total]) };
    expect(await collect(paginateCursor(listing, fetchPage))).toEqual(ids('a', 'b', 'c'));
    expect(told).toEqual([
      [1, 2],
      [2, 2],
    ]);
  });
});

describe('SCIM pagination', () => {
  function scim<T>(resources: T[], startIndex: number, totalResults: number): ScimList<T> {
    return { schemas: [], Resources: resources, startIndex, totalResults, itemsPerPage: resources.length };
  }

  it('advances startIndex by what was read and stops at totalResults', async () => {
    const asked: [number, number][] = [];
    const pages: Record<number, ScimList<string>> = { 1: scim(['a', 'b'], 1, 5), 3: scim(['c', 'd'], 3, 5), 5: scim(['e'], 5, 5) };
    const items = await collect(
      paginateScim('listing users', (startIndex, count) => {
        asked.push([startIndex, count]);
        return Promise.resolve(pages[startIndex] as ScimList<string>);
      }),
    );
    expect(items).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(asked).toEqual([
      [1, 100],
      [3, 100],
      [5, 100],
    ]);
  });

  it('stops on an empty page', async () => {
    const items = await collect(paginateScim('listing users', () => Promise.resolve(scim<string>([], 1, 0))));
    expect(items).toEqual([]);
  });

  it('refuses a server that ignores startIndex (it would repeat the first page forever)', async () => {
    const error = (await rejectionOf(
      collect(paginateScim('listing users', () => Promise.resolve(scim(['a', 'b'], 1, 10)))),
    )) as StewardError;
    expect(error.message).toBe(
      'listing users: asked for startIndex 3 but the server answered startIndex 1; stopped to avoid an endless listing.',
    );
  });
});

describe('listing through the platform API', () => {
  let setup: TestClient;
  beforeAll(() => nock.disableNetConnect());
  afterEach(async () => {
    await setup.client.close();
    nock.cleanAll();
  });
  afterAll(() => nock.enableNetConnect());

  it('sends pageSize 100 and the cursor of the previous page', async () => {
    setup = testClient();
    const record = (userId: string) => ({ userId, creditLimit: 5 });
    const scope = nock(ORIGIN)
      .get('/api/v1/ai/credit-controls/users')
      .query({ pageSize: '100' })
      .reply(200, { records: [record('u1'), record('u2')], pageInfo: { hasNextPage: true, nextCursor: 'abc=/+', pageSize: 100 } })
      .get('/api/v1/ai/credit-controls/users')
      .query({ pageSize: '100', cursor: 'abc=/+' })
      .reply(200, { records: [record('u3')], pageInfo: { hasNextPage: false, nextCursor: null, pageSize: 100 } });
    const users = await collect(new PlatformApi(setup.client).listUserCreditLimits());
    expect(users.map((u) => u.userId)).toEqual(['u1', 'u2', 'u3']);
    scope.done();
    expect(setup.client.stats().byRoute).toEqual({ 'GET /api/v1/ai/credit-controls/users': 2 });
  });

  it('fails the listing with the loop guard when the server repeats a cursor', async () => {
    setup = testClient();
    let served = 0;
    nock(ORIGIN)
      .get('/api/v1/ai/routines')
      .query(true)
      .times(3)
      .reply(200, () => ({ records: [routineRecord(`r${(served += 1)}`)], pageInfo: { hasNextPage: true, nextCursor: 'same', pageSize: 100 } }));
    const error = (await rejectionOf(collect(new PlatformApi(setup.client).listRoutines()))) as StewardError;
    expect(error.code).toBe('api.pagination');
    expect(error.message).toContain('listing routines: GET /api/v1/ai/routines: the server returned cursor "same" a second time');
    expect(setup.client.stats().requests).toBe(2);
  });
});
