// Installing the HubSpot OAuth app from the dashboard, over HTTP against the real server, PostgreSQL
// and the HubSpot test server: the install page sends an admin to HubSpot's consent page with a state
// signed for their session; the callback with that state stores the portal's tokens (sealed) under the
// account's key and prepares the portal; a state from another session, altered, or a code used twice is refused.
import { randomBytes } from 'node:crypto';
import { parseTestConfig } from '../support/test-config';
import {
  addDashboardUser,
  createDatabase,
  migrateToLatest,
  type WarehouseDatabase,
} from '../../connectors/postgres';
import { hashPassword } from '../../lib/password-hash';
import { silentLogger } from '../../lib/logger';
import { dashboardSettings } from '../../runtime/dashboard-settings';
import { startServer, type RunningServer } from '../../server';
import { startFakeHubSpot, type FakeHubSpot } from '../fakes/hubspot-server';
import { createTestDatabase, type TestDatabase } from './warehouse-db';

const PASSWORD = 'bootstrap-admin-password-1';
const VIEWER_PASSWORD = 'viewer-password-for-acme-1';
const APP = { clientId: 'install-client', clientSecret: 'install-secret' };

/** A browser: keeps its cookies, follows no redirect. */
class Browser {
  private readonly cookies = new Map<string, string>();
  constructor(private readonly base: string) {}
  async get(path: string, init: RequestInit = {}) {
    const cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const res = await fetch(path.startsWith('http') ? path : `${this.base}${path}`, {
      redirect: 'manual',
      ...init,
      headers: { ...(cookie ? { cookie } : {}), ...(init.headers as Record<string, string>) },
    });
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(';');
      const eq = pair!.indexOf('=');
      this.cookies.set(pair!.slice(0, eq), pair!.slice(eq + 1));
    }
    return res;
  }
  async login(username = 'admin', password = PASSWORD) {
    const form = await (await this.get('/dashboard/login')).text();
    const csrf = /name="_csrf" value="([^"]*)"/.exec(form)![1]!;
    const res = await this.get('/dashboard/login', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ username, password, _csrf: csrf }).toString(),
    });
    expect(res.status).toBe(303);
  }
}

describe('HubSpot app install from the dashboard', () => {
  let db: TestDatabase;
  let warehouse: WarehouseDatabase;
  let server: RunningServer;
  let fake: FakeHubSpot;

  beforeAll(async () => {
    fake = await startFakeHubSpot({ limits: false, oauth: APP });
    db = await createTestDatabase('hubspot_install');
    warehouse = createDatabase(db.url);
    await migrateToLatest(warehouse.db);
    await addDashboardUser(warehouse.db, {
      username: 'vera',
      role: 'viewer',
      accounts: ['acme'],
      passwordHash: await hashPassword(VIEWER_PASSWORD),
    });
    const platform = {
      baseUrl: 'http://127.0.0.1:1',
      credentials: { type: 'apiKey', userId: 1, apiKey: 'k' },
    };
    const config = parseTestConfig({
      accounts: [
        { name: 'acme', platform, webhookSecret: 'acme-webhook-secret-0123456' },
        {
          name: 'globex',
          platform,
          webhookSecret: 'globex-webhook-secret-012345',
          crm: { type: 'hubspot', accessToken: 'pat-globex' },
        },
      ],
      crm: {
        destination: {
          type: 'hubspot',
          basePath: fake.url,
          oauth: {
            ...APP,
            redirectUrl: 'https://callsync.example.com/dashboard/hubspot/callback',
            scopes: ['crm.objects.calls.write', 'crm.objects.contacts.read'],
            authorizeUrl: `${fake.url}/oauth/authorize`,
          },
        },
      },
      temporal: {
        encryption: { keys: [{ id: 'k1', key: randomBytes(32).toString('base64') }], activeKeyId: 'k1' },
      },
      server: { dashboard: { password: PASSWORD } },
    });
    server = await startServer({
      accounts: config.accounts,
      databaseUrl: db.url,
      port: 0,
      host: '127.0.0.1',
      logger: silentLogger,
      dashboard: dashboardSettings(config, '127.0.0.1').dashboard,
    });
  });

  afterAll(async () => {
    await server?.close();
    await warehouse?.close();
    await db?.drop();
    await fake?.close();
  });

  /** Starts acme's install in `browser` and returns the code and state HubSpot sends back. */
  async function consent(browser: Browser): Promise<{ code: string; state: string }> {
    const start = await browser.get('/dashboard/hubspot/install/acme');
    expect(start.status).toBe(303);
    const authorize = new URL(start.headers.get('location')!);
    expect(authorize.origin).toBe(fake.url);
    expect(authorize.searchParams.get('client_id')).toBe(APP.clientId);
    expect(authorize.searchParams.get('scope')).toBe('crm.objects.calls.write crm.objects.contacts.read');
    const back = new URL((await fetch(authorize, { redirect: 'manual' })).headers.get('location')!);
    expect(back.pathname).toBe('/dashboard/hubspot/callback');
    return { code: back.searchParams.get('code')!, state: back.searchParams.get('state')! };
  }
  const callback = (b: Browser, q: { code: string; state: string }) =>
    b.get(`/dashboard/hubspot/callback?${new URLSearchParams(q).toString()}`);

  it('lets only an admin install', async () => {
    const viewer = new Browser(server.url);
    await viewer.login('vera', VIEWER_PASSWORD);
    for (const path of ['/dashboard/hubspot/install', '/dashboard/hubspot/install/acme']) {
      const res = await viewer.get(path);
      expect(res.status).toBe(403);
      expect(await res.text()).toContain('Only an admin may install the HubSpot app.');
    }
  });

  it('installs for the account through HubSpot and stores the tokens sealed', async () => {
    const admin = new Browser(server.url);
    await admin.login();
    const before = await (await admin.get('/dashboard/hubspot/install')).text();
    expect(before).toContain('<td>acme</td><td class="install-state">not installed</td>');
    expect(before).not.toContain('globex'); // a private app: nothing to install

    const q = await consent(admin);
    // Another session (another browser, the same admin) cannot complete this install.
    const other = new Browser(server.url);
    await other.login();
    const stolen = await callback(other, q);
    expect(stolen.status).toBe(400);
    expect(await stolen.text()).toContain('from another session');
    // Nor can an altered state.
    const [payload, mac] = q.state.split('.');
    const altered = Buffer.from(
      JSON.stringify({ ...JSON.parse(Buffer.from(payload!, 'base64url').toString()), a: 'globex' }),
    ).toString('base64url');
    expect((await callback(admin, { ...q, state: `${altered}.${mac}` })).status).toBe(400);
    expect(fake.oauth!.counters.codeGrants).toBe(0);

    const done = await callback(admin, q);
    expect(done.status).toBe(200);
    expect(await done.text()).toContain(`HubSpot portal ${fake.portalId} is connected to account acme.`);
    // The portal is ready for workers that started before the install.
    expect(fake.customProperties('calls')).toEqual(['callsync_key']);
    const rows = await warehouse.db.selectFrom('vendor_tokens').selectAll().execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ vendor: 'hubspot', identity: `acme/${APP.clientId}` });
    const text = JSON.stringify(rows);
    for (const t of fake.oauth!.issued()) expect(text).not.toContain(t);
    expect(await (await admin.get('/dashboard/hubspot/install')).text()).toContain(
      `<td>acme</td><td class="install-state">portal ${fake.portalId} (`,
    );

    // HubSpot's codes are single-use: the same callback again is refused, naming why.
    const again = await callback(admin, q);
    expect(again.status).toBe(400);
    expect(await again.text()).toContain('HubSpot code exchange refused');
    expect(fake.oauth!.counters.invalidGrants).toBe(1);
  });
});
