import type { z } from 'zod';
import { bulkSchema } from '../schemas/fast-parse';
import { MAX_PAGE_SIZE } from '../config';
import { describeIssues } from './errors';
import { encodeFilter, type FilterInput } from './filter';
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

/** The raw envelope of one page, as the core hands it over. */
export interface RawPage {
  data: unknown[];
  total?: number | null | undefined;
}

/** Fetches one page given the pagination query. */
export type PageFetcher = (query: QueryParams, signal: AbortSignal | undefined) => Promise<RawPage>;

/**
 * A lazy collection read: iterate it for records, or `pages()` for pages. Nothing is fetched until
 * iteration starts, each iteration starts again at the start page, and only one page is held at a time.
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

  /** Pages from the start page on; stops on `total` or on a short (or empty) page. */
  async *pages(): AsyncGenerator<Page<T>, void, undefined> {
    for (let page: number | undefined = this.startPage; page !== undefined;) {
      const current = await this.readPage(page);
      yield current;
      page = current.nextPage;
    }
  }

  /** Reads a single page (for callers that checkpoint page by page themselves). */
  async readPage(page: number): Promise<Page<T>> {
    const query: QueryParams = {
      page,
      limit: this.limit,
      filter: encodeFilter(this.options.filter),
      group_by: this.options.groupBy,
      sort: this.options.sort,
      dir: this.options.dir?.toUpperCase(),
    };
    const raw = await this.fetchPage(query, this.options.signal);
    const data: T[] = [];
    const received: unknown[] = [];
    const invalid: InvalidRecord[] = [];
    raw.data.forEach((item, index) => {
      const parsed = this.recordSchema.safeParse(item);
      if (parsed.success) {
        data.push(parsed.data);
        received.push(item);
      } else invalid.push({ raw: item, reason: describeIssues(parsed.error.issues), index, page });
    });
    const count = raw.data.length;
    const total = raw.total ?? undefined;
    // A short page ends the collection; so does reaching `total` (when the platform sent one).
    const done = count < this.limit || (total !== undefined && page * this.limit >= total);
    return {
      data,
      raw: received,
      invalid,
      total,
      page,
      limit: this.limit,
      nextPage: done ? undefined : page + 1,
    };
  }

  /** Records of every page; invalid ones go to `onInvalid` instead. */
  async *[Symbol.asyncIterator](): AsyncGenerator<T, void, undefined> {
    for await (const page of this.pages()) {
      for (const bad of page.invalid) this.options.onInvalid?.(bad);
      yield* page.data;
    }
  }
}
