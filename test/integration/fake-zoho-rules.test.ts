// The Zoho test server keeps the documented rules it models (test/fakes/zoho-server.ts): one-hour
// tokens from the refresh grant and Zoho's refusals, INVALID_TOKEN, insert limits and refusals, search
// page size and index lag, COQL's limits, and 429 beyond the org's concurrency or daily credits.
import { startFakeZoho, type FakeZoho } from '../fakes/zoho-server';

const client = { clientId: '1000.RULES', clientSecret: 's', refreshToken: '1000.r' };

async function grant(fake: FakeZoho, refreshToken = client.refreshToken): Promise<Record<string, unknown>> {
  const res = await fetch(`${fake.url}/oauth/v2/token`, {
    method: 'POST',
    body: new URLSearchParams({
      grant_type: 'refresh_token',
      ...client,
      client_id: client.clientId,
      client_secret: client.clientSecret,
      refresh_token: refreshToken,
    }),
  });
  return (await res.json()) as Record<string, unknown>;
}

describe('Zoho test server rules', () => {
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
      headers: res.headers,
      body: res.status === 204 ? null : ((await res.json()) as Record<string, unknown>),
    };
  };

  beforeEach(async () => {
    fake = await startFakeZoho({
      client,
      searchLagMs: 150,
      concurrency: 5,
      creditsPerDay: 50,
      serviceMs: 20,
    });
    const t = await grant(fake);
    auth = { authorization: `Zoho-oauthtoken ${String(t.access_token)}` };
  });
  afterEach(() => fake.close());

  it('grants one-hour tokens, refuses a wrong refresh token with HTTP 200 and an error, and 401s an expired token', async () => {
    const ok = await grant(fake);
    expect(ok).toMatchObject({ expires_in: 3600, token_type: 'Bearer' });
    expect(await grant(fake, 'stolen')).toEqual({ error: 'invalid_code' });
    expect((await api('GET', '/crm/v8/settings/fields?module=Calls')).status).toBe(200);
    fake.expireTokens();
    const refused = await api('GET', '/crm/v8/settings/fields?module=Calls');
    expect(refused).toMatchObject({ status: 401, body: { code: 'INVALID_TOKEN', status: 'error' } });
  });

  it('inserts at most 100 records, refuses a missing mandatory field and a duplicate key', async () => {
    const call = (key: string) => ({
      Subject: 's',
      Call_Type: 'Inbound',
      Call_Start_Time: '2026-11-20T10:00:00Z',
      Callsync_Key: key,
    });
    const many = await api('POST', '/crm/v8/Calls', {
      data: Array.from({ length: 101 }, (_, i) => call(`a:${i}`)),
    });
    expect(many).toMatchObject({ status: 400, body: { code: 'LIMIT_EXCEEDED' } });
    expect((await api('POST', '/crm/v8/Calls', { data: [call('a:1')] })).status).toBe(201);
    const again = await api('POST', '/crm/v8/Calls', { data: [call('a:1')] });
    expect(again).toMatchObject({
      status: 400,
      body: { data: [{ code: 'DUPLICATE_DATA', details: { api_name: 'Callsync_Key' } }] },
    });
    const bare = await api('POST', '/crm/v8/Calls', { data: [{ Subject: 's' }] });
    expect(bare).toMatchObject({ status: 400, body: { data: [{ code: 'MANDATORY_NOT_FOUND' }] } });
  });

  it('searches at most 200 a page, answers 204 for none, and sees a new record only once indexed', async () => {
    expect((await api('GET', '/crm/v8/Contacts/search?phone=442079460001&per_page=201')).status).toBe(400);
    await api('POST', '/crm/v8/Contacts', { data: [{ Last_Name: 'Lag', Phone: '+44 20 7946 0001' }] });
    expect((await api('GET', '/crm/v8/Contacts/search?phone=442079460001')).status).toBe(204);
    // COQL reads the records themselves: no lag.
    const coql = await api('POST', '/crm/v8/coql', {
      select_query: "select id from Contacts where Last_Name = 'Lag' limit 1",
    });
    expect(coql.status).toBe(200);
    await new Promise((r) => setTimeout(r, 200));
    const found = await api('GET', '/crm/v8/Contacts/search?phone=442079460001');
    expect(found).toMatchObject({ status: 200, body: { data: [{ Last_Name: 'Lag' }] } });
  });

  it('refuses COQL without a WHERE clause or with a limit above 2000', async () => {
    const noWhere = await api('POST', '/crm/v8/coql', { select_query: 'select id from Calls limit 1' });
    expect(noWhere).toMatchObject({ status: 400, body: { code: 'SYNTAX_ERROR' } });
    const big = await api('POST', '/crm/v8/coql', {
      select_query: "select id from Calls where id = '1' limit 2001",
    });
    expect(big).toMatchObject({ status: 400, body: { code: 'SYNTAX_ERROR' } });
  });

  it("answers 429 TOO_MANY_REQUESTS beyond the org's concurrency, with the rate-limit headers", async () => {
    const answers = await Promise.all(
      Array.from({ length: 8 }, () => api('GET', '/crm/v8/settings/fields?module=Tasks')),
    );
    const limited = answers.filter((a) => a.status === 429);
    expect(limited.length).toBeGreaterThan(0);
    expect(limited[0]!.body).toMatchObject({ code: 'TOO_MANY_REQUESTS', status: 'error' });
    expect(limited[0]!.headers.get('x-ratelimit-reset')).toMatch(/^\d+$/);
    expect(fake.counters.limited).toBe(limited.length);
  });

  it('answers 429 once the day’s credits are spent', async () => {
    let last = 0;
    for (let i = 0; i < 51; i++) last = (await api('GET', '/crm/v8/settings/fields?module=Tasks')).status;
    expect(last).toBe(429);
  });
});
