// The Dynamics 365 test server keeps each documented rule it claims (test/fakes/dynamics-*.ts): one
// test per rule, through plain HTTP requests, so the connector's tests stand on a server that is as
// strict as Dataverse and Microsoft Entra ID.
import { startFakeDynamics, type FakeDynamics } from '../fakes/dynamics-server';
import { ServiceProtection } from '../fakes/dynamics-limits';
import { trustTestCertificate } from '../fakes/dynamics-tls';

let d: FakeDynamics;
let token: string;

const tokenRequest = (form: Record<string, string>) =>
  fetch(`${d.url}/${d.tenantId}/oauth2/v2.0/token`, { method: 'POST', body: new URLSearchParams(form) });

const grant = (overrides: Record<string, string> = {}) => ({
  grant_type: 'client_credentials',
  client_id: d.clientId,
  client_secret: d.clientSecret,
  scope: `${d.url}/.default`,
  ...overrides,
});

/** A Web API answer's body: an error, a page of rows, or a record. */
type Answer = { error: { code: string; message: string }; value: unknown[] } & Record<string, unknown>;

async function api(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(`${d.url}/api/data/v9.2/${path}`, {
    method,
    headers: {
      Authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
      ...headers,
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  return { res, json: (text === '' ? null : JSON.parse(text)) as Answer | null };
}

beforeAll(async () => {
  trustTestCertificate();
  d = await startFakeDynamics();
  token = ((await (await tokenRequest(grant())).json()) as { access_token: string }).access_token;
});
afterAll(() => d?.close());

describe('Microsoft Entra token endpoint (client credentials)', () => {
  it('issues a bearer token that lives 60-90 minutes, with no refresh token', async () => {
    const body = (await (await tokenRequest(grant())).json()) as Record<string, unknown>;
    expect(body).toMatchObject({ token_type: 'Bearer', access_token: expect.any(String) });
    expect(body.expires_in).toBeGreaterThanOrEqual(3600);
    expect(body.expires_in).toBeLessThanOrEqual(5400);
    expect(body).not.toHaveProperty('refresh_token');
  });

  it('refuses a wrong secret (401 invalid_client, AADSTS7000215) and a scope without /.default', async () => {
    const bad = await tokenRequest(grant({ client_secret: 'wrong' }));
    expect(bad.status).toBe(401);
    expect(await bad.json()).toMatchObject({ error: 'invalid_client', error_codes: [7000215] });
    const scope = await tokenRequest(grant({ scope: `${d.url}/user_impersonation` }));
    expect(scope.status).toBe(400);
    expect(await scope.json()).toMatchObject({ error: 'invalid_scope' });
  });
});

describe('Dataverse Web API', () => {
  it('answers 401 with WWW-Authenticate without a token, or with an expired one', async () => {
    const none = await fetch(`${d.url}/api/data/v9.2/contacts`);
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toMatch(/^Bearer authorization_uri=/);
    d.entra.lifetimeMs = 1;
    const short = ((await (await tokenRequest(grant())).json()) as { access_token: string }).access_token;
    d.entra.lifetimeMs = null;
    await new Promise((r) => setTimeout(r, 5));
    const expired = await fetch(`${d.url}/api/data/v9.2/contacts`, {
      headers: { Authorization: `Bearer ${short}` },
    });
    expect(expired.status).toBe(401);
    expect(expired.headers.get('www-authenticate')).toContain('The access token is expired');
  });

  it('creates with 204 and OData-EntityId, or 201 and the record with return=representation', async () => {
    const plain = await api('POST', 'contacts', { lastname: 'Lovelace', telephone1: '020 7946 0571' });
    expect(plain.res.status).toBe(204);
    expect(plain.res.headers.get('odata-entityid')).toMatch(/\/contacts\([0-9a-f-]{36}\)$/);
    const rep = await api(
      'POST',
      'contacts?$select=contactid,fullname',
      { firstname: 'Ada', lastname: 'L' },
      {
        Prefer: 'return=representation',
      },
    );
    expect(rep.res.status).toBe(201);
    expect(rep.json).toEqual({ contactid: expect.any(String), fullname: 'Ada L' });
  });

  it('refuses unknown columns, too long text and a statuscode not of its statecode', async () => {
    const unknown = await api('POST', 'phonecalls', { subject: 'x', duration: 3 });
    expect(unknown.res.status).toBe(400);
    expect(unknown.json?.error.message).toContain("Could not find a property named 'duration'");
    const long = await api('POST', 'phonecalls', { subject: 'x'.repeat(201) });
    expect(long.json?.error.code).toBe('0x80044331');
    // statecode is not valid for create: a record starts Open, and a Completed statuscode is refused.
    const state = await api('POST', 'tasks', { subject: 'x', statecode: 1, statuscode: 5 });
    expect(state.json?.error.code).toBe('0x80048408');
    const open = await api(
      'POST',
      'tasks?$select=statecode,statuscode',
      { subject: 'x', statecode: 1 },
      {
        Prefer: 'return=representation',
      },
    );
    expect(open.json).toEqual({ statecode: 0, statuscode: 2 });
  });

  it('keeps a completed activity read-only but for its state, and 404s an update of a deleted one', async () => {
    const created = await api('POST', 'tasks', { subject: 'Call back' });
    const id = /\(([^)]+)\)$/.exec(created.res.headers.get('odata-entityid')!)![1]!;
    const close = await api('PATCH', `tasks(${id})`, { statecode: 1, statuscode: 5 }, { 'If-Match': '*' });
    expect(close.res.status).toBe(204);
    const edit = await api('PATCH', `tasks(${id})`, { subject: 'Changed' }, { 'If-Match': '*' });
    expect(edit.json?.error).toEqual({
      code: '0x8004022e',
      message: 'The object cannot be updated because it is read-only.',
    });
    expect(
      (await api('PATCH', `tasks(${id})`, { statecode: 0, statuscode: 2 }, { 'If-Match': '*' })).res.status,
    ).toBe(204);
    expect((await api('PATCH', `tasks(${id})`, { subject: 'Changed' }, { 'If-Match': '*' })).res.status).toBe(
      204,
    );
    expect((await api('DELETE', `tasks(${id})`)).res.status).toBe(204);
    const gone = await api('PATCH', `tasks(${id})`, { subject: 'Again' }, { 'If-Match': '*' });
    expect(gone.res.status).toBe(404);
    expect(gone.json?.error.code).toBe('0x80040217');
  });

  it('filters case-insensitively, pages by odata.maxpagesize with @odata.nextLink, refuses bad syntax', async () => {
    for (const n of [1, 2, 3]) d.seedContact({ lastname: `Pager${n}`, emailaddress1: `P${n}@Example.com` });
    const page = await api(
      'GET',
      "contacts?$select=lastname&$filter=startswith(lastname,'pager')",
      undefined,
      {
        Prefer: 'odata.maxpagesize=2',
      },
    );
    expect(page.json?.value).toHaveLength(2);
    const next = new URL(String(page.json?.['@odata.nextLink']));
    expect(next.searchParams.get('$skiptoken')).toBe('2');
    const rest = await api('GET', `contacts${next.search}`);
    expect(rest.json?.value).toHaveLength(1);
    expect(rest.json).not.toHaveProperty('@odata.nextLink');
    const eq = await api('GET', "contacts?$select=lastname&$filter=emailaddress1 eq 'p2@example.COM'");
    expect(eq.json?.value).toEqual([{ lastname: 'Pager2' }]);
    const bad = await api('GET', "contacts?$filter=lastname eq 'x' or");
    expect(bad.json?.error.code).toBe('0x80060888');
  });

  it('refuses an app that is no application user of the environment (403 0x80072560)', async () => {
    const users = d.tables.rows.get('systemusers')!;
    const app = [...users.entries()].find(([, r]) => r.applicationid === d.clientId)!;
    users.delete(app[0]);
    try {
      const res = await api('GET', 'WhoAmI');
      expect(res.res.status).toBe(403);
      expect(res.json?.error.code).toBe('0x80072560');
    } finally {
      users.set(app[0], app[1]);
    }
  });

  it('carries out a create whose answer it then loses (the socket is destroyed)', async () => {
    d.loseNextCreate('contacts');
    await expect(api('POST', 'contacts', { lastname: 'Lost' })).rejects.toThrow();
    expect(d.rows('contacts').filter((r) => r.lastname === 'Lost')).toHaveLength(1);
  });
});

describe('service protection limits', () => {
  it('answers 429 with Retry-After and 0x80072322 beyond the requests of the window', async () => {
    d.limits.tighten(3, 60_000);
    try {
      const statuses = [];
      for (let i = 0; i < 4; i++) statuses.push((await api('GET', 'WhoAmI')).res);
      expect(statuses.map((r) => r.status)).toEqual([200, 200, 200, 429]);
      expect(Number(statuses[3]!.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(d.limits.counters.byPolicy['0x80072322']).toBe(1);
    } finally {
      d.limits.tighten(6000, 300_000);
    }
  });

  it('refuses the 53rd concurrent request of a user with 0x80072326', () => {
    const limits = new ServiceProtection();
    const running = Array.from({ length: 52 }, () => limits.admit('app'));
    expect(running.every((r) => 'done' in r)).toBe(true);
    expect(limits.admit('app')).toMatchObject({ code: '0x80072326' });
    for (const r of running) if ('done' in r) r.done();
    expect('done' in limits.admit('app')).toBe(true);
  });
});
