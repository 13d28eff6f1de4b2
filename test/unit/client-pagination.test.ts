// Collections as async iterables of pages and records: page/limit/filter/group_by on the wire,
// stopping on total or a short page, resuming from a start page, and invalid records surfaced.
import { filter, type Cdr, type InvalidRecord } from '../../connectors/platform';
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

  it('stops on a short page when the platform sends no total', async () => {
    const { client, seen } = testClient(cdrCollection(5, { reportTotal: false }));
    const pages = await collect(client.history.cdrs.list({ limit: 2 }).pages());
    expect(pages.map((p) => p.data.length)).toEqual([2, 2, 1]);
    expect(pages.map((p) => p.nextPage)).toEqual([2, 3, undefined]);
    expect(seen).toHaveLength(3);
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
