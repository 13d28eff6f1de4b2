import type { z } from 'zod';
import { bulkSchema } from '../schemas/fast-parse';
import { MAX_PAGE_SIZE } from '../config';
import { describeIssues, PageOrderError } from './errors';
import { encodeFilter, filterConditions, type FilterInput } from './filter';
import type { QueryParams } from './request-types';

/** Options of every collection read. */
export interface ListOptions {
  /** First page to read (1-based); resume from a checkpoint by passing the saved `nextPage`. */
  page?: number;
  /** Entries per page, at most 5000; defaults to the client's pageSize (1000). */
  limit?: number;
  /** The `filter` query parameter: a builder, a list of conditions, or JSON text. */
  filter?: FilterInput;
  /** The `group_by` query parameter: one property name. */
  groupBy?: string;
  /** Order by this property (`sort`, beyond the spec: the live API and its official CLI use it). */
  sort?: string;
  /** Direction of `sort` (`dir`), ascending by default. */
  dir?: 'asc' | 'desc';
  /** Called for each record that fails its schema while iterating records (pages carry them in `invalid`). */
  onInvalid?: (record: InvalidRecord) => void;
  signal?: AbortSignal;
}

/** A record that did not match its schema: kept raw, with the reason, so a sync can quarantine it. */
export interface InvalidRecord {
  raw: unknown;
  reason: string;
  /** Position within its page (0-based). */
  index: number;
  page: number;
}

/** One page of a collection. */
export interface Page<T> {
  data: T[];
  /** The records of `data` as received, index for index (the warehouse keeps them). */
  raw: unknown[];
  invalid: InvalidRecord[];
  /** The platform's `total` for the whole (filtered) collection; undefined when it sent none. */
  total: number | undefined;
  page: number;
  limit: number;
  /** The page to read next, or undefined when this was the last one: the resume checkpoint. */
  nextPage: number | undefined;
}

/** One page of a keyset read: records with `id > afterId` (and the filter), ascending by id. */
export interface KeysetPage<T> extends Page<T> {
  /** The id this page was read after. */
  afterId: number;
  /** The largest id on the page, invalid records included (the next page's `afterId`); `afterId` when empty. */
  lastId: number;
  /** Nothing after `lastId` matched when the page was read (an empty page, or `total` all on it). */
  done: boolean;
}

/** The raw envelope of one page, as the core hands it over. */
export interface RawPage {
  data: unknown[];
  total?: number | null | undefined;
}

/** Fetches one page given the pagination query. */
export type PageFetcher = (query: QueryParams, signal: AbortSignal | undefined) => Promise<RawPage>;

/**
 * Whether a page is a collection's last. The spec promises no page size: a server may cap pages
 * below `limit`, so a short page is the end only when `total` says so. Without `total`, only an
 * empty page is. A short page after page 1 may stand at (page - 1) * limit records (the server
 * honours limit) or at page * count (it caps every page at count): it is the last only if both
 * readings say so, unless a full page of this read showed the server honours `limit`.
 */
export function isLastPage(p: {
  page: number;
  count: number;
  limit: number;
  total: number | undefined;
  honoursLimit?: boolean;
}): boolean {
  if (p.count === 0) return true;
  if (p.total === undefined) return false;
  const honoured = (p.page - 1) * p.limit + p.count >= p.total;
  if (p.count >= p.limit || p.honoursLimit === true) return honoured;
  return honoured && p.page * p.count >= p.total;
}

/** A record's id as a number (ids may come as numeric strings); undefined when it has none. */
function numericId(raw: unknown): number | undefined {
  const id = (raw as { id?: unknown } | null)?.id;
  const n = typeof id === 'number' ? id : typeof id === 'string' && /^\d+$/.test(id) ? Number(id) : NaN;
  return Number.isSafeInteger(n) ? n : undefined;
}

/**
 * A lazy collection read: iterate it for records, or `pages()` for pages. Nothing is fetched until
 * iteration starts, each iteration starts again at the start page, and only one page is held at a time.
 * `readAfter` reads by keyset instead (`id > N`, ascending by id), which no insert or page cap can
 * shift: what the warehouse sync uses.
 */
export class Paginator<T> implements AsyncIterable<T> {
  private readonly startPage: number;
  private readonly limit: number;
  private readonly recordSchema: z.ZodType<T>;

  constructor(
    private readonly fetchPage: PageFetcher,
    schema: z.ZodType<T>,
    private readonly options: ListOptions,
    defaultLimit: number,
    /** The collection's path, for errors. */
    private readonly path = '',
  ) {
    this.startPage = options.page ?? 1;
    this.limit = options.limit ?? defaultLimit;
    // Pages parse thousands of records with one schema: use its bulk fast path (same results).
    this.recordSchema = bulkSchema(schema);
    if (!Number.isInteger(this.startPage) || this.startPage < 1) {
      throw new RangeError(`page must be an integer >= 1, got ${this.startPage}`);
    }
    if (!Number.isInteger(this.limit) || this.limit < 1 || this.limit > MAX_PAGE_SIZE) {
      throw new RangeError(`limit must be an integer from 1 to ${MAX_PAGE_SIZE}, got ${this.limit}`);
    }
  }

  /** Pages from the start page on, until `isLastPage` says a page was the last. */
  async *pages(): AsyncGenerator<Page<T>, void, undefined> {
    let honoursLimit = false;
    for (let page: number | undefined = this.startPage; page !== undefined;) {
      const current = await this.readPage(page, honoursLimit);
      honoursLimit ||= current.data.length + current.invalid.length >= this.limit;
      yield current;
      page = current.nextPage;
    }
  }

  /**
   * Reads a single page (for callers that checkpoint page by page themselves). `honoursLimit`:
   * an earlier page of the same read came full, so a short page is not a capped one.
   */
  async readPage(page: number, honoursLimit = false): Promise<Page<T>> {
    const raw = await this.fetchPage(
      {
        page,
        limit: this.limit,
        filter: encodeFilter(this.options.filter),
        group_by: this.options.groupBy,
        sort: this.options.sort,
        dir: this.options.dir?.toUpperCase(),
      },
      this.options.signal,
    );
    const total = raw.total ?? undefined;
    const last = isLastPage({ page, count: raw.data.length, limit: this.limit, total, honoursLimit });
    return {
      ...this.parse(raw.data, page),
      total,
      page,
      limit: this.limit,
      nextPage: last ? undefined : page + 1,
    };
  }

  /** The largest id the filter matches now (0 when none): page 1 of one record, sort=id, dir=DESC. */
  async newestId(): Promise<number> {
    const raw = await this.fetchPage(
      {
        page: 1,
        limit: 1,
        filter: encodeFilter(this.options.filter),
        group_by: this.options.groupBy,
        sort: 'id',
        dir: 'DESC',
      },
      this.options.signal,
    );
    return raw.data.length > 0 ? (numericId(raw.data[0]) ?? 0) : 0;
  }

  /**
   * Reads the records after `afterId`: page 1 of the filter and `id > afterId`, sort=id, dir=ASC.
   * Keyset pages stay exact while records are inserted and when the server returns fewer rows than
   * asked; a page whose ids do not ascend past `afterId` throws PageOrderError.
   */
  async readAfter(afterId: number): Promise<KeysetPage<T>> {
    if (!Number.isSafeInteger(afterId) || afterId < 0) {
      throw new RangeError(`afterId must be an integer >= 0, got ${afterId}`);
    }
    const filter = [
      ...filterConditions(this.options.filter),
      { property: 'id', operator: 'gt', value: afterId },
    ];
    const raw = await this.fetchPage(
      {
        page: 1,
        limit: this.limit,
        filter: JSON.stringify(filter),
        group_by: this.options.groupBy,
        sort: 'id',
        dir: 'ASC',
      },
      this.options.signal,
    );
    let lastId = afterId;
    for (const item of raw.data) {
      const id = numericId(item);
      // A record without a usable id is quarantined with the page; its neighbours place the page.
      if (id === undefined) continue;
      if (id <= lastId) {
        throw new PageOrderError({
          method: 'GET',
          path: this.path,
          message:
            `GET ${this.path}: asked for id > ${afterId} with sort=id&dir=ASC, got id ${id} after ${lastId}: ` +
            'the platform did not honour the order or the filter',
        });
      }
      lastId = id;
    }
    if (raw.data.length > 0 && lastId === afterId) {
      throw new PageOrderError({
        method: 'GET',
        path: this.path,
        message: `GET ${this.path}: a page after id ${afterId} holds no record with an id: cannot read on`,
      });
    }
    const total = raw.total ?? undefined;
    const count = raw.data.length;
    // `total` counts what matches `id > afterId`: all of it is on this page, or more follows.
    const done = count === 0 || (total !== undefined && count >= total);
    return {
      ...this.parse(raw.data, 1),
      total,
      page: 1,
      limit: this.limit,
      nextPage: done ? undefined : 1,
      afterId,
      lastId,
      done,
    };
  }

  /** Checks each record against the schema: the valid ones with their raw form, the others as invalid. */
  private parse(items: unknown[], page: number): Pick<Page<T>, 'data' | 'raw' | 'invalid'> {
    const data: T[] = [];
    const received: unknown[] = [];
    const invalid: InvalidRecord[] = [];
    items.forEach((item, index) => {
      const parsed = this.recordSchema.safeParse(item);
      if (parsed.success) {
        data.push(parsed.data);
        received.push(item);
      } else invalid.push({ raw: item, reason: describeIssues(parsed.error.issues), index, page });
    });
    return { data, raw: received, invalid };
  }

  /** Records of every page; invalid ones go to `onInvalid` instead. */
  async *[Symbol.asyncIterator](): AsyncGenerator<T, void, undefined> {
    for await (const page of this.pages()) {
      for (const bad of page.invalid) this.options.onInvalid?.(bad);
      yield* page.data;
    }
  }
}
