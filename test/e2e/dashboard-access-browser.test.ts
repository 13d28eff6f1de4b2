// The dashboard's locks in a real browser (playwright-core driving Debian's Chromium) against the
// real server and PostgreSQL: a viewer limited to one account never sees the other's calls and is
// answered 403 on its pages; repeated wrong passwords lock the user out with a clear message; a
// log-out ends the session for good (its old cookie opens nothing). Screenshots go to
// test-output/dashboard/.
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { parseTestConfig } from '../support/test-config';
import {
  addDashboardUser,
  createDatabase,
  migrateToLatest,
  upsertPage,
  type WarehouseDatabase,
} from '../../connectors/postgres';
import { silentLogger } from '../../lib/logger';
import { hashPassword } from '../../lib/password-hash';
import { dashboardSettings } from '../../runtime/dashboard-settings';
import { startServer, type RunningServer } from '../../server';
import { createTestDatabase, type TestDatabase } from '../integration/warehouse-db';
import { fixture } from '../unit/warehouse-fixtures';

jest.setTimeout(180_000);

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const SHOTS = join(__dirname, '..', '..', 'test-output', 'dashboard');
const ADMIN_PASSWORD = 'browser-admin-password-7';
const VIEWER_PASSWORD = 'browser-viewer-password-7';

describe('dashboard access in a browser', () => {
  let db: TestDatabase;
  let warehouse: WarehouseDatabase;
  let server: RunningServer;
  let browser: Browser;

  async function logIn(page: Page, username: string, password: string) {
    await page.goto(`${server.url}/dashboard/login`);
    await page.fill('#username', username);
    await page.fill('#password', password);
    const [res] = await Promise.all([
      page.waitForResponse((r) => r.url().endsWith('/dashboard/login') && r.request().method() === 'POST'),
      page.click('button[type=submit]'),
    ]);
    await page.waitForLoadState();
    return res.status();
  }

  const fresh = async (): Promise<{ context: BrowserContext; page: Page }> => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    return { context, page: await context.newPage() };
  };

  beforeAll(async () => {
    if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: run scripts/debian-packages.sh`);
    mkdirSync(SHOTS, { recursive: true });
    db = await createTestDatabase('dashboard_access');
    warehouse = createDatabase(db.url);
    await migrateToLatest(warehouse.db);
    for (const [account, id, src] of [
      ['acme', 3001, '+442073333333'],
      ['globex', 4001, '+442074444444'],
    ] as const)
      await upsertPage(warehouse.pool, {
        stream: 'cdrs',
        account,
        records: [fixture('cdrs', { id, live_id: id, src, src_name: `${account} caller`, is_root: 1 })],
      });
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
    const config = parseTestConfig({
      accounts: [account('acme'), account('globex')],
      server: { dashboard: { password: ADMIN_PASSWORD, loginMaxFailures: 3, lockoutMinutes: 10 } },
    });
    const { dashboard } = dashboardSettings(config, '127.0.0.1');
    server = await startServer({
      accounts: config.accounts,
      databaseUrl: db.url,
      port: 0,
      host: '127.0.0.1',
      logger: silentLogger,
      dashboard,
    });
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await warehouse?.close();
    await db?.drop();
  });

  it('shows a viewer limited to one account only that account, and 403 on the other', async () => {
    const { context, page } = await fresh();
    expect(await logIn(page, 'vera', VIEWER_PASSWORD)).toBe(303);
    expect(page.url()).toBe(`${server.url}/dashboard`);
    expect(await page.textContent('header')).toContain('vera');
    await page.click('header nav >> text=Calls');
    const calls = await page.textContent('#calls');
    expect(calls).toContain('acme caller');
    expect(calls).not.toContain('globex');
    await page.screenshot({ path: join(SHOTS, 'viewer-calls.png'), fullPage: true });
    const other = await page.goto(`${server.url}/dashboard/calls/globex/4001`);
    expect(other?.status()).toBe(403);
    expect(await page.textContent('#refusal')).toContain('You may not see account globex');
    expect(await page.textContent('body')).not.toContain('globex caller');
    await page.screenshot({ path: join(SHOTS, 'viewer-forbidden.png'), fullPage: true });
    expect((await page.goto(`${server.url}/dashboard/calls/acme/3001`))?.status()).toBe(200);
    await context.close();

    // An admin sees both.
    const admin = await fresh();
    expect(await logIn(admin.page, 'admin', ADMIN_PASSWORD)).toBe(303);
    await admin.page.goto(`${server.url}/dashboard/calls`);
    const all = await admin.page.textContent('#calls');
    expect(all).toContain('acme caller');
    expect(all).toContain('globex caller');
    await admin.context.close();
  });

  it('locks the user out after repeated wrong passwords, with a clear message', async () => {
    await addDashboardUser(warehouse.db, {
      username: 'lou',
      role: 'viewer',
      accounts: ['acme'],
      passwordHash: await hashPassword('lou-right-password-1'),
    });
    const { context, page } = await fresh();
    expect(await logIn(page, 'lou', 'wrong-password-1')).toBe(401);
    expect(await page.textContent('#login-error')).toContain('Wrong username or password');
    expect(await logIn(page, 'lou', 'wrong-password-2')).toBe(401);
    expect(await logIn(page, 'lou', 'wrong-password-3')).toBe(429);
    // The right password now waits out the lockout too.
    expect(await logIn(page, 'lou', 'lou-right-password-1')).toBe(429);
    expect(await page.textContent('#login-error')).toMatch(
      /Too many failed log-ins .*: log-in is locked for 10 minutes/,
    );
    await page.screenshot({ path: join(SHOTS, 'lockout.png'), fullPage: true });
    await context.close();
  });

  it('ends the session on log-out: the old cookie no longer opens a page', async () => {
    const { context, page } = await fresh();
    expect(await logIn(page, 'admin', ADMIN_PASSWORD)).toBe(303);
    const cookie = (await context.cookies()).find((c) => c.name === 'callsync_dashboard')!;
    expect(cookie.httpOnly).toBe(true);
    expect(cookie.sameSite).toBe('Strict');
    await Promise.all([page.waitForURL(/\/dashboard\/login$/), page.click('header >> text=Log out')]);
    await context.close();

    // The same cookie, replayed in another browser, opens nothing.
    const replay = await fresh();
    await replay.context.addCookies([cookie]);
    await replay.page.goto(`${server.url}/dashboard/calls`);
    expect(replay.page.url()).toContain('/dashboard/login');
    expect(await replay.page.locator('#password').count()).toBe(1);
    await replay.page.screenshot({ path: join(SHOTS, 'after-logout.png'), fullPage: true });
    await replay.context.close();
  });
});
