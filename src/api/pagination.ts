// Walks the platform's two pagination styles (cursor `pageInfo` and SCIM `startIndex`/`count`)
// as async iterators, and refuses to loop forever when a server hands back a cursor twice.

import { StewardError } from '../errors.js';
import type { PageInfo, ScimList } from './types.js';

/** Largest page every paginated endpoint accepts; always sent explicitly. */
export const MAX_PAGE_SIZE = 100;
/** Hard stop for a listing that never ends (a server bug, not a big organization). */
export const MAX_PAGES = 10_000;

/** One page of a cursor-paginated list. */
export interface CursorPage<T> {
  items: T[];
  pageInfo: PageInfo;
}

function paginationError(operation: string, what: string): StewardError {
  return new StewardError('api.pagination', `${operation}: ${what}; stopped to avoid an endless listing.`, 'server');
}

/**
 * Yields every item of a cursor-paginated list. Stops on `hasNextPage: false`, a null cursor
 * or an empty page; throws a clear error when a cursor comes back that was already used (a
 * loop), or when the server announces a next page without giving its cursor.
 */
export async function* paginateCursor<T>(
  operation: string,
  fetchPage: (cursor: string | undefined) => Promise<CursorPage<T>>,
): AsyncGenerator<T, void, undefined> {
  const seen = new Set<string>();
  let cursor: string | undefined;
  for (let page = 1; ; page += 1) {
    if (page > MAX_PAGES) throw paginationError(operation, `more than ${MAX_PAGES} pages`);
    const { items, pageInfo } = await fetchPage(cursor);
    if (!Array.isArray(items)) throw paginationError(operation, `page ${page} has no list of records`);
    yield* items;
    if (items.length === 0 || pageInfo === undefined || pageInfo === null || !pageInfo.hasNextPage) return;
    const next = pageInfo.nextCursor;
    if (next === null || next === undefined || next === '') {
      throw paginationError(operation, `page ${page} says another page exists but gives no cursor`);
    }
    if (seen.has(next) || next === cursor) {
      throw paginationError(operation, `the server returned cursor ${JSON.stringify(next.slice(0, 40))} a second time (page ${page + 1})`);
    }
    seen.add(next);
    cursor = next;
  }
}

/**
 * Yields every resource of a SCIM list (1-based `startIndex`, `count` per page). Stops on an
 * empty page or once `totalResults` are read; throws when the server answers a different
 * `startIndex` than asked, which would repeat or skip resources.
 */
export async function* paginateScim<T>(
  operation: string,
  fetchPage: (startIndex: number, count: number) => Promise<ScimList<T>>,
  count = MAX_PAGE_SIZE,
): AsyncGenerator<T, void, undefined> {
  let startIndex = 1;
  for (let page = 1; ; page += 1) {
    if (page > MAX_PAGES) throw paginationError(operation, `more than ${MAX_PAGES} pages`);
    const list = await fetchPage(startIndex, count);
    const resources = list.Resources ?? [];
    if (!Array.isArray(resources)) throw paginationError(operation, `page ${page} has no list of resources`);
    if (resources.length > 0 && typeof list.startIndex === 'number' && list.startIndex !== startIndex) {
      throw paginationError(operation, `asked for startIndex ${startIndex} but the server answered startIndex ${list.startIndex}`);
    }
    yield* resources;
    if (resources.length === 0) return;
    startIndex += resources.length;
    if (typeof list.totalResults === 'number' && startIndex > list.totalResults) return;
  }
}

/** Reads an async iterable to the end into an array. */
export async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of iterable) out.push(item);
  return out;
}
