// Cursor pagination as gaps.md settles it: `pageSize` 1..100 (default 20), opaque cursors that
// name the last record of the previous page (so inserts between pages do not repeat or skip
// records), and the `pageInfo` envelope with `totalRecords`.
import type { PageInfo } from '../api/types.js';
import { badRequest } from './http.js';

export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 100;

export type SortKey = (string | number)[];
export type SortDirection = 'asc' | 'desc';

/** `pageSize` from the query: an integer 1..100, or the default; 400 otherwise. */
export function parsePageSize(query: URLSearchParams, fallback = DEFAULT_PAGE_SIZE): number {
  const raw = query.get('pageSize');
  if (raw === null) return fallback;
  const size = /^\d{1,3}$/.test(raw.trim()) ? Number(raw.trim()) : Number.NaN;
  if (!Number.isInteger(size) || size < 1 || size > MAX_PAGE_SIZE) {
    throw badRequest('pageSize', `must be an integer from 1 to ${MAX_PAGE_SIZE}`);
  }
  return size;
}

function compareKeys(a: SortKey, b: SortKey, directions: readonly SortDirection[]): number {
  for (let index = 0; index < a.length; index += 1) {
    const left = a[index]!;
    const right = b[index]!;
    if (left === right) continue;
    const order = left < right ? -1 : 1;
    return directions[index] === 'desc' ? -order : order;
  }
  return 0;
}

function encodeCursor(list: string, key: SortKey): string {
  return Buffer.from(JSON.stringify({ l: list, k: key }), 'utf8').toString('base64url');
}

function decodeCursor(cursor: string, list: string, keyLength: number): SortKey {
  const invalid = () => badRequest('cursor', 'invalid cursor');
  if (cursor === '' || !/^[A-Za-z0-9_-]+$/.test(cursor)) throw invalid();
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw invalid();
  }
  const { l, k } = (decoded ?? {}) as { l?: unknown; k?: unknown };
  if (l !== list || !Array.isArray(k) || k.length !== keyLength) throw invalid();
  if (!k.every((part) => typeof part === 'string' || typeof part === 'number')) throw invalid();
  return k as SortKey;
}

export interface PageSpec<T> {
  /** Names the list and its order; a cursor from another list or order is invalid. */
  list: string;
  /** The sort key of a record; it must be unique (end with an id). */
  keyOf: (record: T) => SortKey;
  /** Direction per key part. */
  directions: readonly SortDirection[];
  defaultPageSize?: number;
}

export interface Page<T> {
  records: T[];
  pageInfo: Required<PageInfo>;
}

/** Records in a listing's order with their sort keys: what paginate works on, kept to serve several pages. */
export interface Ordered<T> {
  keyed: readonly { record: T; key: SortKey }[];
}

/** `records` (in any order) in the order of `spec`. */
export function ordered<T>(records: readonly T[], spec: Pick<PageSpec<T>, 'keyOf' | 'directions'>): Ordered<T> {
  const keyed = records.map((record) => ({ record, key: spec.keyOf(record) }));
  keyed.sort((a, b) => compareKeys(a.key, b.key, spec.directions));
  return { keyed };
}

/**
 * One page of `records` (in any order: they are sorted here; or already ordered) after the
 * query's `cursor`, with `pageInfo`. 400 for an invalid `pageSize` or `cursor`.
 */
export function paginate<T>(records: readonly T[] | Ordered<T>, query: URLSearchParams, spec: PageSpec<T>): Page<T> {
  const pageSize = parsePageSize(query, spec.defaultPageSize);
  const list = `${spec.list}:${spec.directions.join(',')}`;
  const { keyed } = 'keyed' in records ? records : ordered(records, spec);
  const cursor = query.get('cursor');
  let start = 0;
  if (cursor !== null) {
    const after = decodeCursor(cursor, list, spec.directions.length);
    start = keyed.findIndex((entry) => compareKeys(entry.key, after, spec.directions) > 0);
    if (start === -1) start = keyed.length;
  }
  const page = keyed.slice(start, start + pageSize);
  const hasNextPage = start + pageSize < keyed.length;
  const last = page.at(-1);
  return {
    records: page.map((entry) => entry.record),
    pageInfo: {
      hasNextPage,
      nextCursor: hasNextPage && last ? encodeCursor(list, last.key) : null,
      pageSize,
      totalRecords: keyed.length,
    },
  };
}
