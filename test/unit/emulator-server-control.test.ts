// Control endpoints and fault injection: routes, clock, new CDRs, record changes, stats, reseed, faults
// of every kind (latency, status, 429 with Retry-After, connection reset, times, token expiry).
import { SPEC_ENDPOINTS } from '../contract/spec-endpoints';
import { emulatorRouteTemplates } from '../../emulator/server/routes';
import { login, basic, startHarness, type Harness } from './emulator-server-harness';

let h: Harness;

beforeAll(async () => {
  h = await startHarness(1000);
});
afterAll(async () => {
  await h.close();
});
afterEach(async () => {
  await h.control('DELETE', '/faults');
});

describe('routes', () => {
  it('serves every spec endpoint, and lists them at /_emulator/routes', async () => {
    const served = emulatorRouteTemplates();
    expect(SPEC_ENDPOINTS.filter((e) => !served.includes(e))).toEqual([]);
    const { body } = await h.control('GET', '/routes');
    expect(body.routes).toEqual(served);
    expect(new Set(served).size).toBe(served.length);
  });
});

describe('clock', () => {
  it('reads, advances and sets the emulator clock', async () => {
    const before = (await h.control('GET', '/clock')).body;
    const advanced = (await h.control('POST', '/clock/advance', { seconds: 90 })).body;
    expect(advanced.epoch_ms - before.epoch_ms).toBe(90_000);
    const set = await h.control('POST', '/clock', { now: '2027-01-02 03:04:05' });
    expect(set.body.now).toBe('2027-01-02 03:04:05');
    expect((await h.control('POST', '/clock', { now: 'yesterday' })).status).toBe(400);
    expect((await h.control('POST', '/clock/advance', { secs: 1 })).status).toBe(400);
  });
});

describe('records', () => {
  it('adds CDRs that a later incremental read finds', async () => {
    const before = (await (await h.api('/cdrs?limit=1')).json()).total;
    const last = (await (await h.api(`/cdrs?limit=1&page=${before}`)).json()).data[0];
    const added = await h.control('POST', '/cdrs', { count: 3 });
    expect(added.status).toBe(201);
    expect(added.body.ids).toHaveLength(3);
    const filter = encodeURIComponent(JSON.stringify([{ property: 'id', operator: 'gt', value: last.id }]));
    const fresh = await (await h.api(`/cdrs?filter=${filter}`)).json();
    expect(fresh.data.map((r: { id: number }) => r.id)).toEqual(added.body.ids);
  });

  it('changes a record (a transcript arriving later) and fires onChange', async () => {
    const [monitor] = (await (await h.api('/monitors?limit=1')).json()).data;
    const events: unknown[] = [];
    const off = h.emu.store.onChange((e) => events.push(e));
    const res = await h.control('PATCH', `/records/monitors/${monitor.id}`, { transcript: 'Hello, later.' });
    off();
    expect(res.status).toBe(200);
    expect(res.body.data.transcript).toBe('Hello, later.');
    expect(events).toEqual([expect.objectContaining({ table: 'monitors', op: 'update' })]);
    const read = await (await h.api(`/monitors/${monitor.id}`)).json();
    expect(read.data.transcript).toBe('Hello, later.');
    expect((await h.control('PATCH', '/records/monitors/999999999', { transcript: 'x' })).status).toBe(404);
    expect((await h.control('PATCH', '/records/nosuchtable/1', { x: 1 })).status).toBe(400);
  });

  it('reads any record without platform authentication', async () => {
    const res = await h.control('GET', `/records/users/${h.emu.admin.user_id}`);
    expect(res.body.customer_id).toBe(h.emu.admin.customer_id);
  });
});

describe('stats', () => {
  it('counts API requests by route template, not control requests', async () => {
    await h.control('POST', '/stats/reset');
    await h.api('/cdrs?limit=1');
    await h.api('/cdrs?limit=1');
    await h.api(`/users/${h.emu.admin.user_id}`);
    const { body } = await h.control('GET', '/stats');
    expect(body).toEqual({ requests: 3, by_route: { 'GET /cdrs': 2, 'GET /users/{id}': 1 } });
  });
});

describe('faults', () => {
  it('adds latency', async () => {
    await h.control('POST', '/faults', { route: 'GET /cdrs', latency_ms: 300 });
    const started = Date.now();
    expect((await h.api('/cdrs?limit=1')).status).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
  });

  it('answers an error status with probability 1, only on the named route', async () => {
    await h.control('POST', '/faults', { route: 'GET /cdrs', status: 503 });
    const res = await h.api('/cdrs');
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({ message: 'Service Unavailable', errors: expect.any(Array) });
    expect((await h.api('/users')).status).toBe(200);
  });

  it('never applies a fault with probability 0', async () => {
    await h.control('POST', '/faults', { route: '*', status: 500, probability: 0 });
    expect((await h.api('/users')).status).toBe(200);
  });

  it('answers 429 with Retry-After', async () => {
    await h.control('POST', '/faults', { route: '/cdrs', status: 429, retry_after_s: 2 });
    const res = await h.api('/cdrs');
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBe('2');
  });

  it('resets the connection', async () => {
    await h.control('POST', '/faults', { route: 'GET /cdrs/{id}', reset: true });
    await expect(h.api('/cdrs/1')).rejects.toThrow();
    expect((await h.api('/cdrs?limit=1')).status).toBe(200);
  });

  it('applies at most `times` times', async () => {
    const added = await h.control('POST', '/faults', { route: '*', status: 500, times: 2 });
    expect(added.status).toBe(201);
    expect((await h.api('/users')).status).toBe(500);
    expect((await h.api('/users')).status).toBe(500);
    expect((await h.api('/users')).status).toBe(200);
    const { body } = await h.control('GET', '/faults');
    expect(body.faults[0]).toMatchObject({ id: added.body.id, applied: 2, times: 2 });
  });

  it('expires the caller token', async () => {
    const token = await login(h);
    const auth = { authorization: basic(h.emu.admin.user_id, token) };
    await h.control('POST', '/faults', { route: 'GET /me', expire_token: true, times: 1 });
    expect((await h.api('/me', { headers: auth })).status).toBe(401);
    expect((await h.api('/users', { headers: auth })).status).toBe(401);
  });

  it('removes one fault and refuses unknown routes and empty faults', async () => {
    const added = await h.control('POST', '/faults', { route: 'GET /users', status: 500 });
    expect((await h.control('DELETE', `/faults/${added.body.id}`)).status).toBe(204);
    expect((await h.api('/users')).status).toBe(200);
    expect((await h.control('DELETE', `/faults/${added.body.id}`)).status).toBe(404);
    expect((await h.control('POST', '/faults', { route: 'GET /nothing', status: 500 })).status).toBe(400);
    expect((await h.control('POST', '/faults', { route: '*' })).status).toBe(400);
  });
});

describe('reseed', () => {
  it('rebuilds the store from a seed and drops sessions', async () => {
    const token = await login(h);
    const res = await h.control('POST', '/seed', { seed: 7, cdrs: 300 });
    expect(res.status).toBe(200);
    expect(res.body.admin).toMatchObject({ email: expect.any(String), user_id: expect.any(Number) });
    expect(
      (await h.api('/me', { headers: { authorization: basic(h.emu.admin.user_id, token) } })).status,
    ).toBe(401);
    expect(h.emu.store.tables.cdrs.count(h.emu.admin.customer_id)).toBeLessThanOrEqual(300);
    const page = await (await h.api('/cdrs?limit=1')).json();
    expect(page.total).toBe(h.emu.store.tables.cdrs.count(h.emu.admin.customer_id));
  });
});
