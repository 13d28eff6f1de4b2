// The Zoho test server's rules for requests on several records (test/fakes/zoho-bulk.ts): update and
// delete take at most 100 records, each record answered alone (200, 207 when some are refused, 400
// when all are), a mandatory field cannot be emptied, search by e-mail sees a record once indexed, the
// deleted records list, custom field creation, and COQL's offset reach.
import { startFakeZoho, type FakeZoho } from '../fakes/zoho-server';
import { eventually } from '../support/eventually';

const client = { clientId: '1000.BULK', clientSecret: 's', refreshToken: '1000.r' };

describe('Zoho test server: requests on several records', () => {
  let fake: FakeZoho;
  let auth: Record<string, string>;
  const api = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${fake.url}${path}`, {
      method,
      headers: { ...auth, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return {
      status: res.status,
      body: res.status === 204 ? null : ((await res.json()) as { data?: Record<string, unknown>[] }),
    };
  };

  beforeEach(async () => {
    fake = await startFakeZoho({ client, searchLagMs: 2000, serviceMs: 1 });
    const res = await fetch(`${fake.url}/oauth/v2/token`, {
      method: 'POST',
      body: new URLSearchParams({
        grant_type: 'refresh_token',
        client_id: client.clientId,
        client_secret: client.clientSecret,
        refresh_token: client.refreshToken,
      }),
    });
    const t = (await res.json()) as { access_token: string };
    auth = { authorization: `Zoho-oauthtoken ${t.access_token}` };
  });
  afterEach(() => fake.close());

  it('insert and update answer each record: 207 when some are refused, 400 when all are', async () => {
    const insert = await api('POST', '/crm/v8/Contacts', {
      data: [{ Last_Name: 'A' }, { First_Name: 'no last name' }],
    });
    expect(insert.status).toBe(207);
    expect(insert.body?.data?.map((d) => d.code)).toEqual(['SUCCESS', 'MANDATORY_NOT_FOUND']);
    const id = (insert.body!.data![0]!.details as { id: string }).id;
    expect(fake.counters.personWrites).toBe(1);

    const update = await api('PUT', '/crm/v8/Contacts', {
      data: [
        { id, First_Name: 'Ann' },
        { id, Last_Name: null },
        { id: '1', First_Name: 'x' },
        { First_Name: 'no id' },
      ],
    });
    expect(update.status).toBe(207);
    expect(update.body?.data?.map((d) => d.code)).toEqual([
      'SUCCESS',
      'MANDATORY_NOT_FOUND',
      'INVALID_DATA',
      'MANDATORY_NOT_FOUND',
    ]);
    expect(fake.records.get(id)!.fields).toMatchObject({ First_Name: 'Ann', Last_Name: 'A' });
    expect(fake.counters.personWrites).toBe(2);
    const none = await api('PUT', '/crm/v8/Contacts', { data: [{ id: '1', First_Name: 'x' }] });
    expect(none.status).toBe(400);
  });

  it('update and delete take at most 100 records a request', async () => {
    const data = Array.from({ length: 101 }, () => ({ id: '1', First_Name: 'x' }));
    expect(await api('PUT', '/crm/v8/Contacts', { data })).toMatchObject({
      status: 400,
      body: { code: 'LIMIT_EXCEEDED' },
    });
    const ids = Array.from({ length: 101 }, (_, i) => String(i + 1)).join(',');
    expect(await api('DELETE', `/crm/v8/Contacts?ids=${ids}`)).toMatchObject({
      status: 400,
      body: { code: 'LIMIT_EXCEEDED' },
    });
    expect((await api('DELETE', '/crm/v8/Contacts')).status).toBe(400);
  });

  it('delete answers each id; an unknown one is refused alone', async () => {
    const a = fake.records.seed('Contacts', { Last_Name: 'A' }).id;
    const res = await api('DELETE', `/crm/v8/Contacts?ids=${a},1`);
    expect(res.status).toBe(207);
    expect(res.body?.data?.map((d) => d.code)).toEqual(['SUCCESS', 'INVALID_DATA']);
    expect(fake.records.get(a)).toBeUndefined();
  });

  it('deleted records: newest first, after If-Modified-Since only, a known type, 204 when none', async () => {
    const old = fake.records.seed('Contacts', { Last_Name: 'Old' }).id;
    fake.records.delete('Contacts', old);
    fake.records.deletions.at(-1)!.at = Date.parse('2026-01-01T00:00:00Z');
    const a = fake.records.seed('Contacts', { Last_Name: 'A' }).id;
    const b = fake.records.seed('Contacts', { Last_Name: 'B' }).id;
    await api('DELETE', `/crm/v8/Contacts?ids=${a}`);
    await api('DELETE', `/crm/v8/Contacts?ids=${b}`);
    const list = async (query: string, since?: string) => {
      const res = await fetch(`${fake.url}/crm/v8/Contacts/deleted${query}`, {
        headers: { ...auth, ...(since ? { 'if-modified-since': since } : {}) },
      });
      return {
        status: res.status,
        body: res.status === 204 ? null : ((await res.json()) as { data?: { id: string }[] }),
      };
    };
    expect((await list('')).body?.data?.map((d) => d.id)).toEqual([b, a, old]);
    const recent = await list('?type=all', '2026-06-01T00:00:00+00:00');
    expect(recent.body?.data?.map((d) => d.id)).toEqual([b, a]);
    expect((await list('?type=permanent')).status).toBe(204);
    expect((await list('?type=gone')).status).toBe(400);
    expect((await list('?per_page=201')).status).toBe(400);
  });

  it('creates a custom field named after its label, once; label and data type are mandatory', async () => {
    const create = (field: Record<string, unknown>) =>
      api('POST', '/crm/v8/settings/fields?module=Contacts', { fields: [field] });
    expect((await create({ field_label: 'Callsync Key', data_type: 'text', length: 255 })).status).toBe(201);
    const names = await api('GET', '/crm/v8/settings/fields?module=Contacts');
    const apiNames = (names.body as { fields?: { api_name: string }[] }).fields?.map((f) => f.api_name);
    expect(apiNames).toContain('Callsync_Key');
    expect(await create({ field_label: 'Callsync Key', data_type: 'text' })).toMatchObject({
      status: 400,
      body: { fields: [{ code: 'DUPLICATE_DATA' }] },
    });
    expect(await create({ data_type: 'text' })).toMatchObject({
      status: 400,
      body: { fields: [{ code: 'MANDATORY_NOT_FOUND' }] },
    });
    expect((await api('POST', '/crm/v8/settings/fields?module=Nope', { fields: [{}] })).status).toBe(400);
  });

  it('COQL pages reach at most 100,000 records through LIMIT and OFFSET', async () => {
    const query = (limit: string) => ({
      select_query: `select id from Contacts where id is not null order by Modified_Time asc limit ${limit}`,
    });
    expect((await api('POST', '/crm/v8/coql', query('99800, 200'))).status).toBe(204);
    expect(await api('POST', '/crm/v8/coql', query('99801, 200'))).toMatchObject({
      status: 400,
      body: { code: 'SYNTAX_ERROR' },
    });
  });

  it('search by e-mail matches regardless of case, only once the record is indexed', async () => {
    const written = Date.now();
    await api('POST', '/crm/v8/Contacts', { data: [{ Last_Name: 'New', Email: 'New@Example.com' }] });
    const first = await api('GET', '/crm/v8/Contacts/search?email=new@example.com');
    // Asked within the index lag (2 s), the search does not see it yet.
    if (Date.now() - written < 2000) expect(first.status).toBe(204);
    const found = await eventually(
      async () => {
        const res = await api('GET', '/crm/v8/Contacts/search?email=new@example.com');
        return res.status === 200 ? res : undefined;
      },
      'the indexed record',
      10_000,
    );
    expect(Date.now() - written).toBeGreaterThanOrEqual(2000);
    expect(found.body?.data?.map((d) => d.Last_Name)).toEqual(['New']);
  });
});
