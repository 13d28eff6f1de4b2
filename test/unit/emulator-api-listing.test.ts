// The API's listing settings (POST /_emulator/api): collections newest first when a request names no
// order, and pages capped below `limit` with `total` still the whole count. Off by default.
import { startHarness, type Harness, type Json } from './emulator-server-harness';

let h: Harness;

beforeAll(async () => {
  h = await startHarness(2300);
});
afterAll(async () => {
  await h.close();
});
afterEach(async () => {
  await h.control('DELETE', '/api');
});

async function getJson(path: string): Promise<{ status: number; body: Json }> {
  const res = await h.api(path);
  return { status: res.status, body: await res.json() };
}

const ids = (body: Json): number[] => (body.data as { id: number }[]).map((r) => r.id);

describe('settings', () => {
  it('are off by default, read back, change only the fields given, and reset', async () => {
    expect((await h.control('GET', '/api')).body).toEqual({ default_order: 'asc', page_cap: null });
    expect((await h.control('POST', '/api', { default_order: 'desc' })).body).toEqual({
      default_order: 'desc',
      page_cap: null,
    });
    expect((await h.control('POST', '/api', { page_cap: 500 })).body).toEqual({
      default_order: 'desc',
      page_cap: 500,
    });
    expect((await h.control('GET', '/api')).body).toEqual({ default_order: 'desc', page_cap: 500 });
    expect((await h.control('POST', '/api', { page_cap: null })).body.page_cap).toBeNull();
    expect((await h.control('DELETE', '/api')).body).toEqual({ default_order: 'asc', page_cap: null });
  });

  it('refuse bad input with a 400 naming the field', async () => {
    for (const [body, field] of [
      [{ default_order: 'newest' }, 'default_order: must be asc or desc'],
      [{ page_cap: 0 }, 'page_cap: must be at least 1'],
      [{ page_cap: 5001 }, 'page_cap: must be at most 5000'],
      [{ page_cap: 2.5 }, 'page_cap: must be an integer'],
      [{ pagecap: 10 }, 'body: unknown field(s) pagecap'],
    ] as const) {
      const res = await h.control('POST', '/api', body);
      expect(res.status).toBe(400);
      const errors = res.body.errors.map(
        (e: { field: string; message: string }) => `${e.field}: ${e.message}`,
      );
      expect(errors).toContain(field);
    }
    expect((await h.control('GET', '/api')).body).toEqual({ default_order: 'asc', page_cap: null });
  });

  it('can be changed in process too', async () => {
    expect(h.emu.api({ default_order: 'desc' })).toEqual({ default_order: 'desc', page_cap: null });
    expect((await h.control('GET', '/api')).body.default_order).toBe('desc');
    expect(() => h.emu.api({ page_cap: -1 })).toThrow();
  });
});

describe('default_order desc', () => {
  it('lists newest first (by id) when the request names no order', async () => {
    const asc = await getJson('/cdrs?limit=5000');
    await h.control('POST', '/api', { default_order: 'desc' });
    const desc = await getJson('/cdrs?limit=5000');
    expect(desc.body.total).toBe(asc.body.total);
    expect(ids(desc.body)).toEqual([...ids(asc.body)].reverse());
    const page2 = await getJson('/cdrs?page=2&limit=100');
    expect(ids(page2.body)).toEqual(ids(desc.body).slice(100, 200));
    // A filter is ordered the same way.
    const filter = encodeURIComponent(JSON.stringify([{ property: 'type', operator: 'eq', value: 'M' }]));
    const missed = await getJson(`/cdrs?limit=5000&filter=${filter}`);
    const missedIds = ids(missed.body);
    expect(missedIds.length).toBeGreaterThan(1);
    expect([...missedIds].sort((a, b) => b - a)).toEqual(missedIds);
  });

  it('leaves an explicit sort or dir as asked', async () => {
    await h.control('POST', '/api', { default_order: 'desc' });
    const byId = await getJson('/cdrs?limit=300&sort=id');
    expect([...ids(byId.body)].sort((a, b) => a - b)).toEqual(ids(byId.body));
    const asc = await getJson('/cdrs?limit=300&dir=asc');
    expect(ids(asc.body)).toEqual(ids(byId.body));
    const byDate = await getJson('/cdrs?limit=300&sort=calldate&dir=asc');
    const dates = byDate.body.data.map((r: { calldate: string }) => r.calldate);
    expect([...dates].sort()).toEqual(dates);
  });
});

describe('page_cap', () => {
  it('returns at most the cap, keeps total, and pages cover every row exactly once', async () => {
    const all = (await getJson('/cdrs?limit=5000')).body;
    await h.control('POST', '/api', { page_cap: 300 });
    const seen: number[] = [];
    for (let page = 1; ; page++) {
      const res = await getJson(`/cdrs?page=${page}&limit=1000`);
      expect(res.status).toBe(200);
      expect(res.body.total).toBe(all.total);
      expect(res.body.data.length).toBeLessThanOrEqual(300);
      if (res.body.data.length === 0) break;
      seen.push(...ids(res.body));
    }
    expect(seen).toEqual(ids(all));
  });

  it('caps a limit above 5000 instead of refusing it, at 5000 without a cap and at the cap with one', async () => {
    const uncapped = await getJson('/cdrs?limit=10000');
    expect(uncapped.status).toBe(200);
    expect(uncapped.body.data).toHaveLength(Math.min(5000, uncapped.body.total));
    await h.control('POST', '/api', { page_cap: 400 });
    const res = await getJson('/cdrs?limit=10000');
    expect(res.status).toBe(200);
    expect(res.body.data).toHaveLength(Math.min(400, res.body.total));
    const small = await getJson('/cdrs?limit=7');
    expect(small.body.data).toHaveLength(7);
  });

  it('pages newest first under a cap', async () => {
    const asc = ids((await getJson('/cdrs?limit=5000')).body);
    await h.control('POST', '/api', { page_cap: 250, default_order: 'desc' });
    const seen: number[] = [];
    for (let page = 1; page <= 20; page++)
      seen.push(...ids((await getJson(`/cdrs?page=${page}&limit=5000`)).body));
    expect(seen).toEqual([...asc].reverse());
  });
});
