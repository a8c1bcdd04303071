// A SCIM listing (users or groups) read by pages, for the readers that choose between it and
// filters (src/resolve/directory.ts, src/resolve/groups.ts): page 1 first, whose `totalResults` says how
// many pages are left, then the remaining pages side by side, by `startIndex`.
import { MAX_PAGE_SIZE } from '../api/pagination.js';
import type { ScimList } from '../api/types.js';
import { inParallel } from '../api/parallel.js';

export type ScimPageReader<T> = (startIndex: number, count: number, page: number) => Promise<ScimList<T>>;

export class ScimListing<T extends { id: string }> {
  /** Every record of the listing has been seen. */
  whole = false;
  /** What page 1 said, once read: how many records there are, and its length. */
  private first: { total: number | undefined; size: number } | undefined;
  /** Ids seen in pages of the listing: it is whole when they make the total. */
  private readonly seen = new Set<string>();

  constructor(
    private readonly readPage: ScimPageReader<T>,
    /** Told every record a page holds. */
    private readonly remember: (record: T) => void,
  ) {}

  /** Whether page 1 has been read. */
  get started(): boolean {
    return this.first !== undefined;
  }

  /** The total page 1 told, once read. */
  get total(): number | undefined {
    return this.first?.total;
  }

  /** Reads page 1, once: the listing is whole when that page holds every record. */
  async readFirst(): Promise<void> {
    if (this.first !== undefined) return;
    const page = await this.readPage(1, MAX_PAGE_SIZE, 1);
    const records = page.Resources ?? [];
    for (const record of records) this.note(record);
    const total = Number.isInteger(page.totalResults) ? page.totalResults : undefined;
    this.first = { total, size: records.length };
    if (records.length === 0 || (total !== undefined && records.length >= total)) this.whole = true;
  }

  /** How many pages follow page 1, or undefined while unknown (page 1 unread, or told no total). */
  pagesLeft(): number | undefined {
    if (this.first === undefined || this.whole) return this.whole ? 0 : undefined;
    const { total, size } = this.first;
    return total === undefined || size === 0 ? undefined : Math.ceil((total - size) / size);
  }

  /**
   * Reads the pages after page 1 side by side. Records added or removed since page 1 shift the
   * pages: a page then tells another total, or a record is seen twice, and the listing is not
   * whole (the caller looks up by name whatever it still misses, or lists again from the start).
   */
  async readRest(): Promise<void> {
    const left = this.pagesLeft();
    if (left === undefined || left === 0) return;
    const { total, size } = this.first!;
    let steady = true;
    await inParallel(Array.from({ length: left }, (_, index) => index + 2), async (page) => {
      const list = await this.readPage(1 + (page - 1) * size, size, page);
      if (list.totalResults !== total) steady = false;
      for (const record of list.Resources ?? []) {
        if (this.seen.has(record.id)) steady = false;
        this.note(record);
      }
    });
    if (steady && this.seen.size >= total!) this.whole = true;
  }

  private note(record: T): void {
    this.seen.add(record.id);
    this.remember(record);
  }
}
