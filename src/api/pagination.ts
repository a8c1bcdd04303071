// Walks the platform's two pagination styles (cursor `pageInfo` and SCIM `startIndex`/`count`)
// as async iterators, and refuses to follow a server that would list forever: a cursor handed
// back twice, a record seen on an earlier page, or more records than the server announced each
// stop the listing within two pages with an error naming the endpoint.

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

/** What a page iterator knows of the listing it walks. */
export interface Listing<T> {
  /** What is being done, for messages: `listing routines`. */
  operation: string;
  /** The endpoint, for messages: `GET /api/v1/ai/routines`. */
  route?: string;
  /** The identity of a record (routine id, userId, …): a record seen twice stops the listing. */
  keyOf?: (item: T) => string;
  /** Told after each page, with the number of pages when the server announced a total. */
  onPage?: (page: number, totalPages: number | undefined) => void;
}

function listingOf<T>(listing: string | Listing<T>): Listing<T> {
  return typeof listing === 'string' ? { operation: listing } : listing;
}

function paginationError(listing: { operation: string; route?: string }, what: string): StewardError {
  const where = listing.route === undefined ? '' : ` ${listing.route}:`;
  return new StewardError('api.pagination', `${listing.operation}:${where} ${what}; stopped to avoid an endless listing.`, 'server', {
    hint: 'The server pages inconsistently; nothing was planned on this partial listing. Try again, or report it to the platform.',
  });
}

/** A record identity as printed: quoted, escaped (inert on a terminal) and clipped. */
function shownKey(key: string): string {
  return JSON.stringify(key.length > 60 ? `${key.slice(0, 60)}…` : key);
}

/** Tracks the records read so far and refuses repeats and overruns of the announced total. */
class RecordTally<T> {
  private readonly seen = new Map<string, number>();
  count = 0;

  constructor(private readonly listing: Listing<T>) {}

  add(items: T[], page: number, announcedTotal: number | undefined, totalName: string): void {
    const { keyOf } = this.listing;
    if (keyOf !== undefined) {
      for (const item of items) {
        const key = keyOf(item);
        const earlier = this.seen.get(key);
        if (earlier !== undefined) {
          const where = earlier === page ? `twice on page ${page}` : `on page ${page} again after page ${earlier}`;
          throw paginationError(this.listing, `record ${shownKey(key)} came ${where}`);
        }
        this.seen.set(key, page);
      }
    }
    this.count += items.length;
    if (announcedTotal !== undefined && this.count > announcedTotal) {
      throw paginationError(
        this.listing,
        `page ${page} brings the listing to ${this.count} records, more than the ${announcedTotal} its ${totalName} announced`,
      );
    }
  }
}

function wholeNumber(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : undefined;
}

function pagesFor(total: number | undefined, pageSize: number, page: number): number | undefined {
  if (total === undefined || pageSize <= 0) return undefined;
  return Math.max(page, Math.ceil(total / pageSize));
}

/**
 * Yields every item of a cursor-paginated list. Stops on `hasNextPage: false`, a null cursor
 * or an empty page; throws a clear error when a cursor comes back that was already used (a
 * loop), when a record comes again, when more records arrive than `totalRecords` announced,
 * or when the server announces a next page without giving its cursor. `fetchPage` is told the
 * 1-based page number, for its own messages.
 */
export async function* paginateCursor<T>(
  listingOrOperation: string | Listing<T>,
  fetchPage: (cursor: string | undefined, page: number) => Promise<CursorPage<T>>,
): AsyncGenerator<T, void, undefined> {
  const listing = listingOf(listingOrOperation);
  const tally = new RecordTally(listing);
  const seen = new Set<string>();
  let cursor: string | undefined;
  for (let page = 1; ; page += 1) {
    if (page > MAX_PAGES) throw paginationError(listing, `more than ${MAX_PAGES} pages`);
    const { items, pageInfo } = await fetchPage(cursor, page);
    if (!Array.isArray(items)) throw paginationError(listing, `page ${page} has no list of records`);
    const total = wholeNumber(pageInfo?.totalRecords);
    tally.add(items, page, total, 'pageInfo.totalRecords');
    listing.onPage?.(page, pagesFor(total, wholeNumber(pageInfo?.pageSize) ?? MAX_PAGE_SIZE, page));
    yield* items;
    if (items.length === 0 || pageInfo === undefined || pageInfo === null || !pageInfo.hasNextPage) return;
    const next = pageInfo.nextCursor;
    if (next === null || next === undefined || next === '') {
      throw paginationError(listing, `page ${page} says another page exists but gives no cursor`);
    }
    if (seen.has(next) || next === cursor) {
      throw paginationError(listing, `the server returned cursor ${shownKey(next.slice(0, 40))} a second time (page ${page + 1})`);
    }
    seen.add(next);
    cursor = next;
  }
}

/**
 * Yields every resource of a SCIM list (1-based `startIndex`, `count` per page). Stops on an
 * empty page or once `totalResults` are read; throws when the server answers a different
 * `startIndex` than asked, repeats a resource, or sends more than `totalResults`.
 */
export async function* paginateScim<T>(
  listingOrOperation: string | Listing<T>,
  fetchPage: (startIndex: number, count: number, page: number) => Promise<ScimList<T>>,
  count = MAX_PAGE_SIZE,
): AsyncGenerator<T, void, undefined> {
  const listing = listingOf(listingOrOperation);
  const tally = new RecordTally(listing);
  let startIndex = 1;
  for (let page = 1; ; page += 1) {
    if (page > MAX_PAGES) throw paginationError(listing, `more than ${MAX_PAGES} pages`);
    const list = await fetchPage(startIndex, count, page);
    const resources = list.Resources ?? [];
    if (!Array.isArray(resources)) throw paginationError(listing, `page ${page} has no list of resources`);
    if (resources.length > 0 && typeof list.startIndex === 'number' && list.startIndex !== startIndex) {
      throw paginationError(listing, `asked for startIndex ${startIndex} but the server answered startIndex ${list.startIndex}`);
    }
    const total = wholeNumber(list.totalResults);
    tally.add(resources, page, total, 'totalResults');
    listing.onPage?.(page, pagesFor(total, count, page));
    yield* resources;
    if (resources.length === 0) return;
    startIndex += resources.length;
    if (total !== undefined && startIndex > total) return;
  }
}

/** Reads an async iterable to the end into an array. */
export async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of iterable) out.push(item);
  return out;
}
