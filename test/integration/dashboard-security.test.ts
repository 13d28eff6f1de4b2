// The dashboard's locks, over HTTP against the real server and PostgreSQL: users with a role and the
// accounts they may see (403 on another's), a lockout per address and per user (429), sessions
// revoked on log-out and on a password change, Secure cookies behind an HTTPS proxy, security
// headers, CSRF tokens on every form, and 400 (naming the parameter) for odd query parameters.
import { parseTestConfig } from '../support/test-config';
import {
  addDashboardUser,
  addQuarantined,
  createDatabase,
  latestCallFailure,
  loginLockedUntil,
  recordCallFailure,
  recordLoginFailure,
  migrateToLatest,
  removeDashboardUser,
  setDashboardPassword,
  upsertPage,
  webhookLatencyPerHour,
  type WarehouseDatabase,
} from '../../connectors/postgres';
import { silentLogger } from '../../lib/logger';
import { hashPassword } from '../../lib/password-hash';
import { dashboardSettings } from '../../runtime/dashboard-settings';
import { startServer, type RunningServer } from '../../server';
import { fixture } from '../unit/warehouse-fixtures';
import { createTestDatabase, type TestDatabase } from './warehouse-db';

jest.setTimeout(120_000);

const ADMIN_PASSWORD = 'bootstrap-admin-password-1';
const VIEWER_PASSWORD = 'viewer-password-for-acme-1';

/** A browser-like client: keeps cookies, and sends an X-Forwarded-For of its own. */
class Client {
  cookies = new Map<string, string>();
  constructor(
    private readonly base: string,
    readonly address: string,
  ) {}

  async request(path: string, init: RequestInit & { headers?: Record<string, string> } = {}) {
    const cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const res = await fetch(`${this.base}${path}`, {
      redirect: 'manual',
      ...init,
      headers: { 'x-forwarded-for': this.address, ...(cookie ? { cookie } : {}), ...init.headers },
    });
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(';');
      const eq = pair!.indexOf('=');
      const value = pair!.slice(eq + 1);
      if (value === '' || /Max-Age=0/.test(c)) this.cookies.delete(pair!.slice(0, eq));
      else this.cookies.set(pair!.slice(0, eq), value);
    }
    return res;
  }

  post(path: string, fields: Record<string, string>, headers: Record<string, string> = {}) {
    return this.request(path, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
      body: new URLSearchParams(fields).toString(),
    });
  }

  /** The CSRF token of the page's forms ('' when it has none). */
  static csrf(html: string): string {
    return /name="_csrf" value="([^"]*)"/.exec(html)?.[1] ?? '';
  }

  async login(username: string, password: string) {
    const form = await (await this.request('/dashboard/login')).text();
    return this.post('/dashboard/login', {
      username,
      password,
      _csrf: Client.csrf(form),
      next: '/dashboard',
    });
  }

  /** The CSRF token of a logged-in page. */
  async pageCsrf(): Promise<string> {
    return Client.csrf(await (await this.request('/dashboard/calls')).text());
  }
}

describe('dashboard security', () => {
  let db: TestDatabase;
  let warehouse: WarehouseDatabase;
  let server: RunningServer;
  let config: ReturnType<typeof parseTestConfig>;
  let nextAddress = 1;
  const client = () => new Client(server.url, `10.0.0.${nextAddress++}`);

  beforeAll(async () => {
    db = await createTestDatabase('dashboard_security');
    warehouse = createDatabase(db.url);
    await migrateToLatest(warehouse.db);
    for (const [account, id, src] of [
      ['acme', 1001, '+442071111111'],
      ['globex', 2001, '+442072222222'],
    ] as const)
      await upsertPage(warehouse.pool, {
        stream: 'cdrs',
        account,
        records: [fixture('cdrs', { id, live_id: id, src, src_name: `${account} caller`, is_root: 1 })],
      });
    await addQuarantined(warehouse.db, [
      { account: 'acme', stream: 'cdrs', recordId: '71', reason: 'acme-broken', raw: {} },
      { account: 'globex', stream: 'cdrs', recordId: '72', reason: 'globex-broken', raw: {} },
    ]);
    await addDashboardUser(warehouse.db, {
      username: 'vera',
      role: 'viewer',
      accounts: ['acme'],
      passwordHash: await hashPassword(VIEWER_PASSWORD),
    });
    const account = (name: string) => ({
      name,
      platform: { baseUrl: 'http://127.0.0.1:1', credentials: { type: 'apiKey', userId: 1, apiKey: 'k' } },
      webhookSecret: `${name}-webhook-secret-0123456`,
    });
    config = parseTestConfig({
      accounts: [account('acme'), account('globex')],
      server: {
        trustProxy: true,
        dashboard: {
          password: ADMIN_PASSWORD,
          loginMaxFailures: 3,
          loginMaxFailuresPerAddress: 4,
          lockoutMinutes: 5,
        },
      },
    });
    const { dashboard } = dashboardSettings(config, '127.0.0.1');
    server = await startServer({
      accounts: config.accounts,
      databaseUrl: db.url,
      port: 0,
      host: '127.0.0.1',
      logger: silentLogger,
      trustProxy: config.server.trustProxy,
      dashboard,
    });
  });

  afterAll(async () => {
    await server?.close();
    await warehouse?.close();
    await db?.drop();
  });

  it('sends security headers on every dashboard answer', async () => {
    const c = client();
    for (const res of [await c.request('/dashboard/login'), await c.request('/dashboard')]) {
      expect(res.headers.get('content-security-policy')).toMatch(
        /default-src 'none'.*frame-ancestors 'none'/,
      );
      expect(res.headers.get('x-frame-options')).toBe('DENY');
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('referrer-policy')).toBe('same-origin');
    }
  });

  it('sets an HttpOnly SameSite cookie, Secure when the proxy says the browser used HTTPS', async () => {
    const plain = client();
    expect((await plain.login('admin', ADMIN_PASSWORD)).status).toBe(303);
    const form = await (await plain.request('/dashboard/login')).text();
    const viaHttps = await plain.post(
      '/dashboard/login',
      { username: 'admin', password: ADMIN_PASSWORD, _csrf: Client.csrf(form) },
      { 'x-forwarded-proto': 'https' },
    );
    expect(viaHttps.status).toBe(303);
    const secure = viaHttps.headers.getSetCookie().find((c) => c.startsWith('callsync_dashboard='));
    expect(secure).toMatch(/HttpOnly; SameSite=Strict; .*Secure/);
    const http = await client().login('admin', ADMIN_PASSWORD);
    const insecure = http.headers.getSetCookie().find((c) => c.startsWith('callsync_dashboard='));
    expect(insecure).toMatch(/HttpOnly; SameSite=Strict/);
    expect(insecure).not.toMatch(/Secure/);
  });

  it('refuses a POST without a valid CSRF token, whatever its Origin', async () => {
    const c = client();
    // The log-in form itself: no token, no log-in.
    expect((await c.post('/dashboard/login', { username: 'admin', password: ADMIN_PASSWORD })).status).toBe(
      403,
    );
    expect((await c.login('admin', ADMIN_PASSWORD)).status).toBe(303);
    const csrf = await c.pageCsrf();
    expect(csrf).not.toBe('');
    expect((await c.post('/dashboard/logout', {})).status).toBe(403);
    expect((await c.post('/dashboard/logout', {}, { origin: 'null' })).status).toBe(403);
    expect((await c.post('/dashboard/logout', { _csrf: `${csrf}x` })).status).toBe(403);
    expect((await c.post('/dashboard/quarantine/retry', { account: 'acme', stream: 'cdrs' })).status).toBe(
      403,
    );
    // Still logged in: the refused posts did nothing.
    expect((await c.request('/dashboard')).status).toBe(200);
  });

  it('revokes the session on log-out: the old cookie no longer opens a page', async () => {
    const c = client();
    await c.login('admin', ADMIN_PASSWORD);
    const old = c.cookies.get('callsync_dashboard')!;
    expect((await c.request('/dashboard')).status).toBe(200);
    const csrf = await c.pageCsrf();
    const out = await c.post('/dashboard/logout', { _csrf: csrf });
    expect(out.status).toBe(303);
    const replay = new Client(server.url, c.address);
    replay.cookies.set('callsync_dashboard', old);
    const res = await replay.request('/dashboard');
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toMatch(/^\/dashboard\/login/);
  });

  it("ends a user's sessions when their password changes", async () => {
    const c = client();
    expect((await c.login('vera', VIEWER_PASSWORD)).status).toBe(303);
    expect((await c.request('/dashboard')).status).toBe(200);
    await setDashboardPassword(warehouse.db, 'vera', await hashPassword(VIEWER_PASSWORD));
    expect((await c.request('/dashboard')).status).toBe(303);
    expect((await c.login('vera', VIEWER_PASSWORD)).status).toBe(303);
  });

  it('locks a user out after repeated failures, from any address, with 429 and a clear message', async () => {
    await addDashboardUser(warehouse.db, {
      username: 'lou',
      role: 'admin',
      accounts: [],
      passwordHash: await hashPassword('lou-password-12345'),
    });
    const first = await client().login('lou', 'wrong-1');
    expect(first.status).toBe(401);
    expect(await first.text()).toContain('Wrong username or password');
    expect((await client().login('lou', 'wrong-2')).status).toBe(401);
    const locking = await client().login('lou', 'wrong-3');
    expect(locking.status).toBe(429);
    // Even the right password, from a fresh address, waits out the lockout.
    const locked = await client().login('lou', 'lou-password-12345');
    expect(locked.status).toBe(429);
    expect(Number(locked.headers.get('retry-after'))).toBeGreaterThan(200);
    expect(await locked.text()).toMatch(
      /Too many failed log-ins for this user: log-in is locked for 5 minutes/,
    );
    // Others are not locked out.
    expect((await client().login('vera', VIEWER_PASSWORD)).status).toBe(303);
  });

  it('locks an address out after repeated failures, whichever usernames it tries', async () => {
    const c = client();
    expect((await c.login('nobody-1', 'x')).status).toBe(401);
    expect((await c.login('nobody-2', 'x')).status).toBe(401);
    expect((await c.login('nobody-3', 'x')).status).toBe(401);
    expect((await c.login('nobody-4', 'x')).status).toBe(429);
    const locked = await c.login('admin', ADMIN_PASSWORD);
    expect(locked.status).toBe(429);
    expect(await locked.text()).toContain('Too many failed log-ins from this address');
    expect((await client().login('admin', ADMIN_PASSWORD)).status).toBe(303);
  });

  it("shows a viewer only their accounts, and answers 403 on another account's pages", async () => {
    const v = client();
    expect((await v.login('vera', VIEWER_PASSWORD)).status).toBe(303);
    const calls = await (await v.request('/dashboard/calls')).text();
    expect(calls).toContain('acme caller');
    expect(calls).not.toContain('globex');
    const quarantine = await (await v.request('/dashboard/quarantine')).text();
    expect(quarantine).toContain('acme-broken');
    expect(quarantine).not.toContain('globex');
    expect(quarantine).not.toContain('/dashboard/quarantine/retry');
    expect(await (await v.request('/dashboard')).text()).not.toContain('globex');
    for (const path of [
      '/dashboard/calls/globex/2001',
      '/dashboard/audio/globex/1',
      '/dashboard/quarantine?account=globex',
      '/dashboard/calls?user=globex:120012',
    ])
      expect([path, (await v.request(path)).status]).toEqual([path, 403]);
    expect((await v.request('/dashboard/calls/acme/1001')).status).toBe(200);
    const csrf = await v.pageCsrf();
    expect(
      (await v.post('/dashboard/quarantine/retry', { _csrf: csrf, account: 'globex', stream: 'cdrs' }))
        .status,
    ).toBe(403);
    expect(
      (await v.post('/dashboard/quarantine/retry', { _csrf: csrf, account: 'acme', stream: 'cdrs' })).status,
    ).toBe(403);

    const a = client();
    await a.login('admin', ADMIN_PASSWORD);
    const all = await (await a.request('/dashboard/calls')).text();
    expect(all).toContain('acme caller');
    expect(all).toContain('globex caller');
    expect((await a.request('/dashboard/calls/globex/2001')).status).toBe(200);
  });

  it("lists only the viewer's failed follow-ups, and lets only an admin retry one", async () => {
    for (const account of ['acme', 'globex'])
      await recordCallFailure(warehouse.db, {
        account,
        workflow_id: `call-${account}-9001`,
        run_id: 'run-1',
        workflow_type: 'callLifecycle',
        subject: '9001',
        activity: 'logCall',
        failure_type: 'CrmBadRequestError',
        message: `${account}-refused`,
        retry_state: 'NON_RETRYABLE_FAILURE',
      });
    const acme = (await latestCallFailure(warehouse.db, 'acme', 9001))!;
    const globex = (await latestCallFailure(warehouse.db, 'globex', 9001))!;
    const v = client();
    expect((await v.login('vera', VIEWER_PASSWORD)).status).toBe(303);
    const list = await (await v.request('/dashboard/failures')).text();
    expect(list).toContain('acme-refused');
    expect(list).not.toContain('globex');
    expect(list).not.toContain('/dashboard/failures/retry');
    const csrf = Client.csrf(list);
    for (const failure of [acme.id, globex.id])
      expect((await v.post('/dashboard/failures/retry', { _csrf: csrf, failure })).status).toBe(403);
    expect(
      (await v.post('/dashboard/calls/globex/1/retry', { _csrf: csrf, failure: globex.id })).status,
    ).toBe(403);
    const a = client();
    await a.login('admin', ADMIN_PASSWORD);
    const adminCsrf = await a.pageCsrf();
    // Without the token, or with a failure that is not one: refused.
    expect((await a.post('/dashboard/failures/retry', { failure: acme.id })).status).toBe(403);
    expect((await a.post('/dashboard/failures/retry', { _csrf: adminCsrf, failure: '1x' })).status).toBe(400);
    // This server runs without Temporal: the retry says it could not start, and claims nothing.
    const res = await a.post('/dashboard/failures/retry', { _csrf: adminCsrf, failure: acme.id });
    expect(res.headers.get('location')).toBe('/dashboard/failures?retry=error');
    expect((await latestCallFailure(warehouse.db, 'acme', 9001))!.retry_requested_at).toBeNull();
  });

  it('ends a lockout after its time, counts afresh, and forgets stale counts', async () => {
    const policy = { maxFailures: 2, windowMs: 60_000, lockMs: 60_000 };
    const key = { scope: 'user' as const, key: 'expiry-test' };
    const t0 = new Date('2030-01-01T00:00:00Z');
    const at = (s: number) => new Date(t0.getTime() + s * 1000);
    expect(await recordLoginFailure(warehouse.db, key, policy, t0)).toBeUndefined();
    expect(await recordLoginFailure(warehouse.db, key, policy, at(10))).toEqual(at(70));
    expect(await loginLockedUntil(warehouse.db, [key], at(69))).toEqual({ scope: 'user', until: at(70) });
    expect(await loginLockedUntil(warehouse.db, [key], at(70))).toBeUndefined();
    // After the lockout, one failure is one failure again.
    expect(await recordLoginFailure(warehouse.db, key, policy, at(71))).toBeUndefined();
    // Another key's failure long after removes this key's stale count.
    await recordLoginFailure(warehouse.db, { scope: 'user', key: 'someone-else' }, policy, at(600));
    const left = await warehouse.db
      .selectFrom('dashboard_login_failures')
      .select('key')
      .where('key', '=', 'expiry-test')
      .execute();
    expect(left).toEqual([]);
  });

  it("charts only the viewer's accounts' webhook latency", async () => {
    const now = Date.now();
    const at = (secondsAgo: number) => new Date(now - secondsAgo * 1000);
    await warehouse.db
      .insertInto('webhook_inbox')
      .values([
        {
          account: 'acme',
          event_id: 'lat-1',
          event_name: 'call.ringing',
          call_id: null,
          body: '{}',
          status: 'done',
          received_at: at(62),
          done_at: at(60),
        },
        {
          account: 'globex',
          event_id: 'lat-2',
          event_name: 'call.ringing',
          call_id: null,
          body: '{}',
          status: 'done',
          received_at: at(160),
          done_at: at(60),
        },
      ])
      .execute();
    const acme = await webhookLatencyPerHour(warehouse.db, at(3600), ['acme']);
    expect(acme.reduce((n, h) => n + h.deliveries, 0)).toBe(1);
    expect(Math.max(...acme.map((h) => h.p95))).toBeCloseTo(2, 0);
    const both = await webhookLatencyPerHour(warehouse.db, at(3600), ['acme', 'globex']);
    expect(both.reduce((n, h) => n + h.deliveries, 0)).toBe(2);
  });

  it('answers odd query parameters with 400 naming the parameter, never a database error', async () => {
    const c = client();
    await c.login('admin', ADMIN_PASSWORD);
    const cases: Array<[string, string]> = [
      ['/dashboard/calls?from=0000-01-01', 'from'],
      ['/dashboard/calls?to=2026-02-30', 'to'],
      ['/dashboard/calls?number=%00', 'number'],
      ['/dashboard/calls?number=44%0020', 'number'],
      ['/dashboard/calls?outcome=VM&outcome=INITIAL', 'outcome'],
      ['/dashboard/calls?user=acme:1&user=acme:2', 'user'],
      ['/dashboard/calls?before=0000-01-01T00:00:00.000Z_1', 'before'],
      ['/dashboard/calls?before=2026-01-01T00:00:00.000Z_99999999999999999999', 'before'],
      ['/dashboard/quarantine?offset=99999999999999999999', 'offset'],
      ['/dashboard/quarantine?stream=cdrs&stream=sms', 'stream'],
      ['/dashboard/quarantine?account=%00', 'account'],
    ];
    for (const [path, param] of cases) {
      const res = await c.request(path);
      const body = await res.text();
      expect([path, res.status]).toEqual([path, 400]);
      expect(body).toContain(`query parameter &quot;${param}&quot;`);
      expect(body).not.toMatch(/out of range|invalid byte|syntax|postgres/i);
    }
    expect((await c.request('/dashboard/calls?from=2026-10-01&to=2026-10-31&outcome=')).status).toBe(200);
  });

  it('logs the config password in as admin until a stored admin takes the name; a new config password ends its sessions', async () => {
    const c = client();
    expect((await c.login('admin', ADMIN_PASSWORD)).status).toBe(303);
    // Another receiver process, started after the config password changed, refuses the old session.
    const changed = parseTestConfig({
      ...config,
      server: {
        ...config.server,
        dashboard: { ...config.server.dashboard, password: 'a-new-bootstrap-password-2' },
      },
    });
    const other = await startServer({
      accounts: config.accounts,
      databaseUrl: db.url,
      port: 0,
      host: '127.0.0.1',
      logger: silentLogger,
      dashboard: dashboardSettings(changed, '127.0.0.1').dashboard,
    });
    try {
      const replay = new Client(other.url, c.address);
      replay.cookies.set('callsync_dashboard', c.cookies.get('callsync_dashboard')!);
      expect((await replay.request('/dashboard')).status).toBe(303);
    } finally {
      await other.close();
    }
    expect((await c.request('/dashboard')).status).toBe(200);

    await addDashboardUser(warehouse.db, {
      username: 'admin',
      role: 'admin',
      accounts: [],
      passwordHash: await hashPassword('stored-admin-password-3'),
    });
    try {
      expect((await c.request('/dashboard')).status).toBe(303);
      expect((await client().login('admin', ADMIN_PASSWORD)).status).toBe(401);
      expect((await client().login('admin', 'stored-admin-password-3')).status).toBe(303);
    } finally {
      await removeDashboardUser(warehouse.db, 'admin');
    }
  });
});
