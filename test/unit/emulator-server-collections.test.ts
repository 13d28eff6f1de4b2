// Collections and resources: envelopes, pagination, filters, group_by, nested endpoints, 400/403/404,
// creates, patches, bulk PATCH, deletes (204 and the asynchronous 202), PATCH /calls/{id} with 301.
import { eventually } from '../support/eventually';
import { startHarness, type Harness, type Json } from './emulator-server-harness';

let h: Harness;
let otherCustomer: number;

beforeAll(async () => {
  h = await startHarness(2000);
  const other = h.emu.store.customers.find((c) => c.id !== h.emu.admin.customer_id);
  if (!other) throw new Error('the seeded store needs a second customer for the 403 tests');
  otherCustomer = other.id;
});
afterAll(async () => {
  await h.close();
});

const filterQuery = (conds: unknown) => `filter=${encodeURIComponent(JSON.stringify(conds))}`;

async function getJson(path: string): Promise<{ status: number; body: Json }> {
  const res = await h.api(path);
  return { status: res.status, body: await res.json() };
}

describe('pagination', () => {
  it('pages with page/limit and reports the total', async () => {
    const all = h.emu.store.tables.cdrs.count(h.emu.admin.customer_id);
    const first = await getJson('/cdrs?page=1&limit=100');
    expect(first.status).toBe(200);
    expect(first.body.total).toBe(all);
    expect(first.body.data).toHaveLength(100);
    const second = await getJson('/cdrs?page=2&limit=100');
    expect(second.body.data[0].id).toBeGreaterThan(first.body.data[99].id);
    const lastPage = Math.ceil(all / 100);
    const last = await getJson(`/cdrs?page=${lastPage}&limit=100`);
    expect(last.body.data).toHaveLength(all - (lastPage - 1) * 100);
    const beyond = await getJson(`/cdrs?page=${lastPage + 1}&limit=100`);
    expect(beyond.body).toEqual({ data: [], total: all });
  });

  it('orders by id, stably', async () => {
    const a = await getJson('/cdrs?limit=500');
    const ids = a.body.data.map((r: { id: number }) => r.id);
    expect([...ids].sort((x: number, y: number) => x - y)).toEqual(ids);
    expect((await getJson('/cdrs?limit=500')).body).toEqual(a.body);
  });

  it('accepts limit 5000 and answers a limit above it with a page of at most 5000', async () => {
    expect((await getJson('/cdrs?limit=5000')).status).toBe(200);
    const res = await getJson('/cdrs?limit=10000');
    expect(res.status).toBe(200);
    expect(res.body.data).toHaveLength(Math.min(5000, res.body.total));
  });

  it('refuses a non-numeric page', async () => {
    const res = await getJson('/cdrs?page=abc');
    expect(res.status).toBe(400);
    expect(res.body.errors[0].field).toBe('page');
  });
});

describe('filters', () => {
  it('filters with eq and =', async () => {
    for (const operator of ['eq', '=']) {
      const res = await getJson(
        `/cdrs?limit=5000&${filterQuery([{ property: 'type', operator, value: 'M' }])}`,
      );
      expect(res.status).toBe(200);
      expect(res.body.total).toBeGreaterThan(0);
      expect(res.body.data.every((r: { type: string }) => r.type === 'M')).toBe(true);
    }
  });

  it('compares calldate as YYYY-MM-DD H:I:S with gte/lt', async () => {
    const sample = (await getJson('/cdrs?limit=5000')).body.data as { calldate: string }[];
    const from = sample[Math.floor(sample.length / 4)]!.calldate;
    const to = sample[Math.floor(sample.length / 2)]!.calldate;
    const res = await getJson(
      `/cdrs?limit=5000&${filterQuery([
        { property: 'calldate', operator: 'gte', value: from },
        { property: 'calldate', operator: 'lt', value: to },
      ])}`,
    );
    const expected = sample.filter((r) => r.calldate >= from && r.calldate < to);
    expect(res.body.total).toBe(expected.length);
    expect(res.body.data.map((r: { calldate: string }) => r.calldate)).toEqual(
      expected.map((r) => r.calldate),
    );
  });

  it('supports gt, lte and like', async () => {
    const sample = (await getJson('/cdrs?limit=5000')).body.data as { id: number; src: string }[];
    const pivot = sample[10]!.id;
    const gt = await getJson(
      `/cdrs?limit=5000&${filterQuery([{ property: 'id', operator: 'gt', value: pivot }])}`,
    );
    expect(gt.body.total).toBe(sample.filter((r) => r.id > pivot).length);
    const lte = await getJson(
      `/cdrs?limit=5000&${filterQuery([{ property: 'id', operator: 'lte', value: pivot }])}`,
    );
    expect(lte.body.total).toBe(11);
    const prefix = sample[0]!.src.slice(0, 4);
    const like = await getJson(
      `/cdrs?limit=5000&${filterQuery([{ property: 'src', operator: 'like', value: `${prefix}%` }])}`,
    );
    expect(like.body.total).toBe(sample.filter((r) => r.src.startsWith(prefix)).length);
  });

  it('answers 400 naming filter for bad JSON and unknown operators', async () => {
    const bad = await getJson('/cdrs?filter=%5B%7Bnot-json');
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toEqual([{ field: 'filter', message: 'is not valid JSON' }]);
    const op = await getJson(`/cdrs?${filterQuery([{ property: 'type', operator: 'between', value: 1 }])}`);
    expect(op.status).toBe(400);
    expect(op.body.errors[0]).toEqual({
      field: 'filter[0].operator',
      message: expect.stringMatching(/^must be one of/),
    });
  });

  it('groups by a property', async () => {
    const all = (await getJson('/cdrs?limit=5000')).body.data as { type: string; id: number }[];
    const res = await getJson('/cdrs?group_by=type');
    const types = [...new Set(all.map((r) => r.type))];
    expect(res.body.total).toBe(types.length);
    expect(res.body.data.map((r: { type: string }) => r.type).sort()).toEqual(types.sort());
  });
});

describe('single resources and errors', () => {
  it('answers a single envelope with links', async () => {
    const first = (await getJson('/cdrs?limit=1')).body.data[0];
    const res = await getJson(`/cdrs/${first.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: first, links: { self: `${h.emu.baseUrl}/cdrs/${first.id}` } });
  });

  it('answers 404 for a missing resource and 403 for another customer', async () => {
    const missing = await getJson('/contacts/999999999');
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ message: expect.any(String), errors: expect.any(Array) });
    const created = await h.control('POST', '/records/contacts', {
      customer_id: otherCustomer,
      record: { first_name: 'Other', last_name: 'Customer' },
    });
    expect(created.status).toBe(201);
    const foreign = await getJson(`/contacts/${created.body.data.id}`);
    expect(foreign.status).toBe(403);
    expect((await h.api(`/contacts/${created.body.data.id}`, { method: 'DELETE' })).status).toBe(403);
    expect(
      (await h.api(`/contacts/${created.body.data.id}`, { method: 'PATCH', json: { first_name: 'X' } }))
        .status,
    ).toBe(403);
  });

  it('answers unknown routes with JSON 404 and wrong methods with 405', async () => {
    const nf = await getJson('/nosuchthing');
    expect(nf.status).toBe(404);
    expect(nf.body.message).toEqual(expect.any(String));
    const res = await h.api('/cdrs', { method: 'POST', json: {} });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toContain('GET');
  });
});

describe('writes', () => {
  it('creates, reads, patches and deletes a contact', async () => {
    const created = await h.api('/contacts', {
      method: 'POST',
      json: { first_name: 'Ada', last_name: 'Lovelace', tel: '+441234567890' },
    });
    expect(created.status).toBe(201);
    const { data, links } = await created.json();
    expect(data).toMatchObject({ first_name: 'Ada', last_name: 'Lovelace', user_id: h.emu.admin.user_id });
    expect(links.self).toBe(`${h.emu.baseUrl}/contacts/${data.id}`);
    const patched = await h.api(`/contacts/${data.id}`, {
      method: 'PATCH',
      json: { company: 'Analytical Engines' },
    });
    expect(patched.status).toBe(200);
    expect((await patched.json()).data).toMatchObject({ first_name: 'Ada', company: 'Analytical Engines' });
    expect((await getJson(`/contacts/${data.id}`)).body.data.company).toBe('Analytical Engines');
  });

  it('answers 400 naming each bad field of a body', async () => {
    const res = await h.api('/sms', { method: 'POST', json: { to: '12345', message: 5 } });
    expect(res.status).toBe(400);
    const body = await res.json();
    expect(body.message).toBe('Validation failed');
    expect(body.errors).toEqual(
      expect.arrayContaining([
        { field: 'to', message: 'must be an E.164 number' },
        { field: 'message', message: expect.any(String) },
      ]),
    );
  });

  it('answers 400 for a body that is not JSON', async () => {
    const res = await h.api('/contacts', {
      method: 'POST',
      headers: { authorization: h.adminKey, 'content-type': 'application/json' },
      body: '{"first_name":',
    });
    expect(res.status).toBe(400);
    expect((await res.json()).errors).toEqual([{ field: 'body', message: 'is not valid JSON' }]);
  });

  it('bulk-patches voicemessages and refuses an unknown id with 404 without changing any', async () => {
    const [a, b] = (await getJson('/voicemessages?limit=2')).body.data;
    const ok = await h.api('/voicemessages', {
      method: 'PATCH',
      json: [
        { id: a.id, folder: 'Old' },
        { id: b.id, folder: 'Old' },
      ],
    });
    expect(ok.status).toBe(200);
    const body = await ok.json();
    expect(body.total).toBe(2);
    expect(body.data.map((r: { folder: string }) => r.folder)).toEqual(['Old', 'Old']);
    const bad = await h.api('/voicemessages', {
      method: 'PATCH',
      json: [{ id: a.id, folder: 'New' }, { id: 999999999 }],
    });
    expect(bad.status).toBe(404);
    expect((await getJson(`/voicemessages/${a.id}`)).body.data.folder).toBe('Old');
  });

  it('deletes {ids} of contacts asynchronously: 202, gone shortly after', async () => {
    const ids: number[] = [];
    for (const name of ['One', 'Two']) {
      const res = await h.api('/contacts', { method: 'POST', json: { first_name: name } });
      ids.push((await res.json()).data.id);
    }
    const res = await h.api(`/contacts/${ids.join(',')}`, { method: 'DELETE' });
    expect(res.status).toBe(202);
    expect((await getJson(`/contacts/${ids[0]}`)).status).toBe(200);
    await eventually(
      async () => ((await getJson(`/contacts/${ids[0]}`)).status === 404 ? true : undefined),
      'the first contact to be deleted',
      10_000,
    );
    expect((await getJson(`/contacts/${ids[1]}`)).status).toBe(404);
  });

  it('deletes {ids} synchronously with 204 and refuses invalid id lists', async () => {
    const [m] = (await getJson('/monitors?limit=1')).body.data;
    expect((await h.api(`/monitors/${m.id}`, { method: 'DELETE' })).status).toBe(204);
    expect((await getJson(`/monitors/${m.id}`)).status).toBe(404);
    expect((await h.api('/monitors/1,x', { method: 'DELETE' })).status).toBe(400);
    expect((await h.api(`/monitors/${m.id}`, { method: 'DELETE' })).status).toBe(404);
  });

  it('deletes the whole SMS collection with 202', async () => {
    const before = (await getJson('/sms?limit=1')).body.total;
    expect(before).toBeGreaterThan(0);
    expect((await h.api('/sms', { method: 'DELETE' })).status).toBe(202);
    await eventually(
      async () => ((await getJson('/sms?limit=1')).body.total === 0 ? true : undefined),
      'the SMS collection to be emptied',
      10_000,
    );
  });

  it('places a call, patches it with a 301 and the Live Call, no Location, then hangs it up', async () => {
    const placed = await h.api('/calls', { method: 'POST', json: { to: '+441632960001' } });
    expect(placed.status).toBe(201);
    const call = (await placed.json()).data;
    expect(call).toMatchObject({ dst: '+441632960001', src_id: String(h.emu.admin.user_id) });
    const patched = await h.api(`/calls/${call.id}`, {
      method: 'PATCH',
      json: { dst: '+441632960002', monitor_state: 'start' },
      redirect: 'manual',
    });
    expect(patched.status).toBe(301);
    expect(patched.headers.get('location')).toBeNull();
    const body = await patched.json();
    expect(body.data).toMatchObject({ id: call.id, dst: '+441632960002', monitor_state: 1 });
    expect((await h.api(`/calls/${call.id}`, { method: 'DELETE' })).status).toBe(204);
    expect((await getJson(`/calls/${call.id}`)).status).toBe(404);
  });
});

describe('nested collections', () => {
  it('lists the CDRs of a user', async () => {
    const uid = h.emu.admin.user_id;
    const res = await getJson(`/users/${uid}/cdrs?limit=5000`);
    expect(res.status).toBe(200);
    expect(res.body.data.every((r: { user_id: number }) => r.user_id === uid)).toBe(true);
    const all = (await getJson('/cdrs?limit=5000')).body.data.filter(
      (r: { user_id: number }) => r.user_id === uid,
    );
    expect(res.body.total).toBe(all.length);
  });

  it('lists the CDRs of a contact (as source or destination)', async () => {
    const all = (await getJson('/cdrs?limit=5000')).body.data as { src_id: string; dst_id: string }[];
    const withContact = all.find((r) => r.src_id.startsWith('contact:') || r.dst_id.startsWith('contact:'));
    expect(withContact).toBeDefined();
    const ref = withContact!.src_id.startsWith('contact:') ? withContact!.src_id : withContact!.dst_id;
    const contactId = ref.slice('contact:'.length);
    const res = await getJson(`/contacts/${contactId}/cdrs?limit=5000`);
    expect(res.status).toBe(200);
    expect(res.body.total).toBe(all.filter((r) => r.src_id === ref || r.dst_id === ref).length);
  });

  it('lists the monitors of a call by live_id', async () => {
    const [m] = (await getJson('/monitors?limit=1')).body.data;
    const res = await getJson(`/calls/${m.live_id}/monitors`);
    expect(res.body.data.map((r: { id: number }) => r.id)).toContain(m.id);
  });

  it('answers 404 for the collection of a missing user', async () => {
    expect((await getJson('/users/999999999/cdrs')).status).toBe(404);
  });

  it('answers /me with the caller metadata', async () => {
    const res = await getJson('/me');
    expect(res.body.data).toMatchObject({
      id: String(h.emu.admin.user_id),
      currency_iso: expect.any(String),
    });
  });

  it('answers dictionaries without credentials', async () => {
    const res = await h.api('/cdrs/dictionaries', { headers: {} });
    expect(res.status).toBe(200);
    expect((await res.json()).data.type).toMatchObject({ O: expect.any(String) });
  });
});
