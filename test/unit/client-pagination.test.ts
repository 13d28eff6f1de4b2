// Collections as async iterables of pages and records: page/limit/filter/group_by on the wire,
// stopping on total or an empty page (never on a short page while total says more), resuming from a
// start page, invalid records surfaced; and keyset reads (id > N, sort=id, dir=ASC).
import { filter, PageOrderError, type Cdr, type InvalidRecord } from '../../connectors/platform';
import { isLastPage } from '../../connectors/platform/core/pagination';
import { json, testClient, type SeenRequest } from './client-fakes';

/** A collection of `total` CDRs with ids 1..total served page by page. */
function cdrCollection(total: number, opts: { reportTotal?: boolean; bad?: number[] } = {}) {
  return (req: SeenRequest): Response => {
    const page = Number(req.query.get('page'));
    const limit = Number(req.query.get('limit'));
    const data = [];
    for (let id = (page - 1) * limit + 1; id <= Math.min(total, page * limit); id++) {
      data.push(
        opts.bad?.includes(id) ? { id: `bad-${id}` } : { id, type: 'O', calldate: '2026-10-01 10:00:00' },
      );
    }
    return json(200, opts.reportTotal === false ? { data } : { data, total });
  };
}

const range = (from: number, to: number): number[] =>
  Array.from({ length: to - from + 1 }, (_, i) => from + i);

interface ServerRules {
  /** Rows per page at most, whatever `limit` asks (total stays the whole match). */
  cap?: number;
  /** Without `sort`, list newest (largest id) first, as the platform's CLI asks for. */
  newestFirstByDefault?: boolean;
  /** Answer as if `sort` and `dir` were not sent. */
  ignoreSort?: boolean;
  reportTotal?: boolean;
}

/**
 * A collection of CDRs with the given ids, as a server that honours page, limit, `id` filters
 * (gt/gte/lt/lte), sort=id and dir, within `rules`. `ids` is read on every request (insert into it).
 */
function served(ids: number[], rules: ServerRules = {}) {
  return (req: SeenRequest): Response => {
    const page = Number(req.query.get('page'));
    const limit = Math.min(Number(req.query.get('limit')), rules.cap ?? Infinity);
    const conditions = JSON.parse(req.query.get('filter') ?? '[]') as {
      property: string;
      operator: string;
      value: number;
    }[];
    const ops: Record<string, (a: number, b: number) => boolean> = {
      gt: (a, b) => a > b,
      gte: (a, b) => a >= b,
      lt: (a, b) => a < b,
      lte: (a, b) => a <= b,
    };
    let rows = [...ids].sort((a, b) => a - b);
    for (const c of conditions)
      if (c.property === 'id') rows = rows.filter((id) => ops[c.operator]!(id, c.value));
    const sort = rules.ignoreSort ? null : req.query.get('sort');
    const desc = sort === null ? rules.newestFirstByDefault === true : req.query.get('dir') === 'DESC';
    if (desc) rows.reverse();
    const data = rows
      .slice((page - 1) * limit, page * limit)
      .map((id) => ({ id, type: 'O', calldate: '2026-10-01 10:00:00' }));
    return json(200, rules.reportTotal === false ? { data } : { data, total: rows.length });
  };
}

async function collect<T>(it: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
}

describe('platform pagination', () => {
  it('iterates records across pages and stops on total without an extra request', async () => {
    const { client, seen } = testClient(cdrCollection(6));
    const cdrs = await collect(client.history.cdrs.list({ limit: 3 }));
    expect(cdrs.map((c) => c.id)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(seen.map((s) => s.query.get('page'))).toEqual(['1', '2']);
    expect(seen.every((s) => s.query.get('limit') === '3')).toBe(true);
  });

  it('reads on after a short page when the platform sends no total, until an empty page', async () => {
    const { client, seen } = testClient(cdrCollection(5, { reportTotal: false }));
    const pages = await collect(client.history.cdrs.list({ limit: 2 }).pages());
    expect(pages.map((p) => p.data.length)).toEqual([2, 2, 1, 0]);
    expect(pages.map((p) => p.nextPage)).toEqual([2, 3, 4, undefined]);
    expect(seen).toHaveLength(4);
  });

  it('does not end on a short page while total says more (a server that caps pages)', async () => {
    const { client, seen } = testClient(served(range(1, 7), { cap: 2 }));
    const cdrs = await collect(client.history.cdrs.list({ limit: 5 }));
    expect(cdrs.map((c) => c.id)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    // The last short page could be the end or one more capped page: one empty page settles it.
    expect(seen.map((s) => s.query.get('page'))).toEqual(['1', '2', '3', '4', '5']);
  });

  it('stops on an empty page', async () => {
    const { client, seen } = testClient(() => json(200, { data: [], total: 0 }));
    expect(await collect(client.history.cdrs.list())).toEqual([]);
    expect(seen).toHaveLength(1);
  });

  it('uses the default page size of 1000', async () => {
    const { client, seen } = testClient(cdrCollection(3));
    await collect(client.history.cdrs.list());
    expect(seen[0]!.query.get('limit')).toBe('1000');
    expect(seen[0]!.query.get('page')).toBe('1');
  });

  it('resumes from a start page (a checkpoint) and reports total and page numbers', async () => {
    const { client, seen } = testClient(cdrCollection(10));
    const pages = await collect(client.history.cdrs.list({ page: 3, limit: 3 }).pages());
    expect(pages.map((p) => [p.page, p.data.map((c) => c.id), p.total])).toEqual([
      [3, [7, 8, 9], 10],
      [4, [10], 10],
    ]);
    expect(seen.map((s) => s.query.get('page'))).toEqual(['3', '4']);
  });

  it('sends filter JSON and group_by', async () => {
    const { client, seen } = testClient(cdrCollection(1));
    const f = filter<Cdr>().gte('calldate', '2026-10-01 00:00:00').eq('type', 'M');
    await collect(client.history.cdrs.list({ filter: f, groupBy: 'src' }));
    expect(JSON.parse(seen[0]!.query.get('filter')!)).toEqual([
      { property: 'calldate', operator: 'gte', value: '2026-10-01 00:00:00' },
      { property: 'type', operator: 'eq', value: 'M' },
    ]);
    expect(seen[0]!.query.get('group_by')).toBe('src');
  });

  it('leaves out filter and group_by when not given', async () => {
    const { client, seen } = testClient(cdrCollection(1));
    await collect(client.history.cdrs.list({ filter: [] }));
    expect(seen[0]!.query.has('filter')).toBe(false);
    expect(seen[0]!.query.has('group_by')).toBe(false);
  });

  it.each([5001, 0, 2.5])('rejects limit %p before any request', (limit) => {
    const { client, seen } = testClient(cdrCollection(1));
    expect(() => client.history.cdrs.list({ limit })).toThrow(RangeError);
    expect(seen).toHaveLength(0);
  });

  it('accepts the maximum limit of 5000', async () => {
    const { client, seen } = testClient(cdrCollection(1));
    await collect(client.history.cdrs.list({ limit: 5000 }));
    expect(seen[0]!.query.get('limit')).toBe('5000');
  });

  it('rejects a start page below 1', () => {
    const { client } = testClient(cdrCollection(1));
    expect(() => client.history.cdrs.list({ page: 0 })).toThrow(RangeError);
  });

  it('hands invalid records to the caller instead of throwing, and goes on', async () => {
    const { client } = testClient(cdrCollection(5, { bad: [2, 4] }));
    const pages = await collect(client.history.cdrs.list({ limit: 3 }).pages());
    expect(pages[0]!.data.map((c) => c.id)).toEqual([1, 3]);
    expect(pages[0]!.invalid).toEqual([
      expect.objectContaining({
        raw: { id: 'bad-2' },
        index: 1,
        page: 1,
        reason: expect.stringContaining('id'),
      }),
    ]);
    expect(pages[1]!.invalid).toEqual([expect.objectContaining({ raw: { id: 'bad-4' }, index: 0, page: 2 })]);
    // A short page by raw count: invalid records count towards the page size.
    expect(pages).toHaveLength(2);

    const invalid: InvalidRecord[] = [];
    const ids = (
      await collect(client.history.cdrs.list({ limit: 3, onInvalid: (r) => invalid.push(r) }))
    ).map((c) => c.id);
    expect(ids).toEqual([1, 3, 5]);
    expect(invalid.map((r) => r.raw)).toEqual([{ id: 'bad-2' }, { id: 'bad-4' }]);
  });

  it('starts again from the start page on each iteration and fetches nothing until iterated', async () => {
    const { client, seen } = testClient(cdrCollection(2));
    const p = client.history.cdrs.list({ limit: 1 });
    expect(seen).toHaveLength(0);
    await collect(p);
    await collect(p);
    expect(seen.map((s) => s.query.get('page'))).toEqual(['1', '2', '1', '2']);
  });

  it('reads nested collections with their path parameters', async () => {
    const { client, seen } = testClient(cdrCollection(1));
    await collect(client.customer.users.cdrs(17));
    await collect(client.customer.users.smsThreads(17, '+441111111111', '+442222222222'));
    expect(seen.map((s) => s.path)).toEqual([
      '/users/17/cdrs',
      '/users/17/smsthreads/%2B441111111111/%2B442222222222',
    ]);
  });

  it('throws a SchemaError when the envelope itself is not a collection', async () => {
    const { client } = testClient(() => json(200, { data: 'nope', total: 1 }));
    await expect(collect(client.history.cdrs.list())).rejects.toMatchObject({ name: 'SchemaError' });
  });
});

describe('isLastPage', () => {
  it('ends on an empty page, or where total says; never on a short page while total says more', () => {
    expect(isLastPage({ page: 3, count: 0, limit: 5, total: undefined })).toBe(true);
    expect(isLastPage({ page: 1, count: 2, limit: 5, total: undefined })).toBe(false);
    expect(isLastPage({ page: 1, count: 2, limit: 5, total: 2 })).toBe(true);
    expect(isLastPage({ page: 1, count: 2, limit: 5, total: 7 })).toBe(false);
    expect(isLastPage({ page: 2, count: 5, limit: 5, total: 10 })).toBe(true);
    // Page 4 of 1 record: the end if the server honours limit 5, not if it caps pages at 1.
    expect(isLastPage({ page: 4, count: 1, limit: 5, total: 16 })).toBe(false);
    expect(isLastPage({ page: 4, count: 1, limit: 5, total: 16, honoursLimit: true })).toBe(true);
  });
});

describe('keyset reads', () => {
  it('find the newest id with one record sorted by id descending, 0 for an empty collection', async () => {
    const { client, seen } = testClient(served([5, 12, 9]));
    expect(await client.history.cdrs.list({ limit: 500 }).newestId()).toBe(12);
    expect([seen[0]!.query.get('sort'), seen[0]!.query.get('dir'), seen[0]!.query.get('limit')]).toEqual([
      'id',
      'DESC',
      '1',
    ]);
    expect(await testClient(served([])).client.history.cdrs.list().newestId()).toBe(0);
  });

  it('ask for id > N in the filter, sort=id, dir=ASC and page 1, and go on after the last id', async () => {
    const { client, seen } = testClient(served(range(1, 7)));
    const list = client.history.cdrs.list({ limit: 3, filter: filter<Cdr>().eq('type', 'O') });
    const first = await list.readAfter(0);
    expect(first).toMatchObject({ afterId: 0, lastId: 3, done: false, total: 7 });
    expect(first.data.map((c) => c.id)).toEqual([1, 2, 3]);
    expect(seen[0]!.query.get('sort')).toBe('id');
    expect(seen[0]!.query.get('dir')).toBe('ASC');
    expect(seen[0]!.query.get('page')).toBe('1');
    expect(JSON.parse(seen[0]!.query.get('filter')!)).toEqual([
      { property: 'type', operator: 'eq', value: 'O' },
      { property: 'id', operator: 'gt', value: 0 },
    ]);
    const second = await list.readAfter(first.lastId);
    const third = await list.readAfter(second.lastId);
    expect([second.data.map((c) => c.id), third.data.map((c) => c.id)]).toEqual([[4, 5, 6], [7]]);
    // `total` counts what is left after the id: all of it on this page ends the read, no extra request.
    expect(third).toMatchObject({ lastId: 7, done: true });
    expect(seen).toHaveLength(3);
  });

  it('lose and repeat nothing from a server that lists newest first by default, while records are added', async () => {
    const ids = range(1, 10);
    const { client } = testClient(served(ids, { newestFirstByDefault: true }));
    const list = client.history.cdrs.list({ limit: 4 });
    const read: number[] = [];
    for (let afterId = 0, done = false; !done;) {
      const page = await list.readAfter(afterId);
      read.push(...page.data.map((c) => c.id));
      ids.push(ids.length + 1); // written while the read goes on
      ({ lastId: afterId, done } = page);
    }
    expect(read).toEqual(range(1, read.length));
    expect(read.length).toBeGreaterThanOrEqual(10);
  });

  it('read every record from a server that caps pages below limit, and end without total on an empty page', async () => {
    const { client, seen } = testClient(served(range(1, 7), { cap: 2, reportTotal: false }));
    const list = client.history.cdrs.list({ limit: 5 });
    const read: number[] = [];
    for (let afterId = 0, done = false; !done;) {
      const page = await list.readAfter(afterId);
      read.push(...page.data.map((c) => c.id));
      ({ lastId: afterId, done } = page);
    }
    expect(read).toEqual(range(1, 7));
    expect(seen).toHaveLength(5);
  });

  it('fail with PageOrderError when the server ignores the order asked for', async () => {
    const { client } = testClient(served(range(1, 7), { newestFirstByDefault: true, ignoreSort: true }));
    await expect(client.history.cdrs.list({ limit: 3 }).readAfter(0)).rejects.toThrow(PageOrderError);
    await expect(client.history.cdrs.list({ limit: 3 }).readAfter(0)).rejects.toThrow(
      /asked for id > 0 with sort=id&dir=ASC, got id 6 after 7/,
    );
  });

  it('fail with PageOrderError when the server ignores the id filter', async () => {
    const { client } = testClient(cdrCollection(6));
    await expect(client.history.cdrs.list({ limit: 3 }).readAfter(3)).rejects.toThrow(/got id 1 after 3/);
  });
});
