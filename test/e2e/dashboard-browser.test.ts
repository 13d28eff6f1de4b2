// The dashboard in a real browser (playwright-core driving Debian's Chromium) against the real
// server, PostgreSQL, Temporal and the emulator: log in (a wrong password refused), click through
// the overview, the call list and a call's page, and retry quarantined records through the
// quarantineRetry workflow. Screenshots go to test-output/dashboard/.
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { addCallEvents, addQuarantined } from '../../connectors/postgres';
import { syncStreamWorkflow } from '../../contracts';
import type { RunningServer } from '../../server';
import { startSyncHarness, type SyncHarness } from '../integration/sync-harness';
import { startDashboardServer } from '../integration/dashboard-server';

jest.setTimeout(300_000);

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const SHOTS = join(__dirname, '..', '..', 'test-output', 'dashboard');
const PASSWORD = 'dashboard-test-password-42';

describe('dashboard in a browser', () => {
  let h: SyncHarness;
  let server: RunningServer;
  let browser: Browser;
  let page: Page;
  /** A CDR the platform has, taken out of the warehouse and quarantined with a broken raw record. */
  let fixable: { id: number; liveId: number | null };

  beforeAll(async () => {
    if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: run scripts/debian-packages.sh`);
    mkdirSync(SHOTS, { recursive: true });
    h = await startSyncHarness({ label: 'dashboard', cdrs: 600 });
    for (const stream of ['users', 'cdrs', 'recordings'])
      await h.client.workflow.execute(syncStreamWorkflow, {
        taskQueue: h.taskQueue,
        workflowId: `sync-dashboard-${stream}`,
        args: [{ account: 'acme', stream }],
      });
    const db = h.deps.warehouse.db;
    const newest = await db
      .selectFrom('cdrs')
      .select(['id', 'live_id'])
      .where('account', '=', 'acme')
      .orderBy('calldate', 'desc')
      .limit(2)
      .execute();
    fixable = {
      id: Number(newest[1]!.id),
      liveId: newest[1]!.live_id === null ? null : Number(newest[1]!.live_id),
    };
    // A timeline for the newest call, as its lifecycle workflow records it.
    const live = newest[0]!.live_id === null ? Number(newest[0]!.id) : Number(newest[0]!.live_id);
    await addCallEvents(db, 'acme', live, [
      {
        eventId: 'dash-1',
        name: 'call.ringing',
        time: '2026-11-30 09:59:58',
        state: 'RINGING',
        context: 'LOCAL_USER',
        detail: {},
      },
      {
        eventId: 'dash-2',
        name: 'call.answered',
        time: '2026-11-30 10:00:03',
        state: 'CONNECTED',
        context: 'LOCAL_USER',
        detail: {},
      },
      {
        eventId: 'dash-3',
        name: 'call.hangup',
        time: '2026-11-30 10:02:41',
        state: 'HANGUP',
        context: 'LOCAL_USER',
        detail: {},
      },
    ]);
    // One record the platform still has (its retry re-reads it and stores it), one it never had
    // and whose stored raw record is still unreadable (it stays, with the new reason).
    await db.deleteFrom('cdrs').where('account', '=', 'acme').where('id', '=', fixable.id).execute();
    await addQuarantined(db, [
      {
        account: 'acme',
        stream: 'cdrs',
        recordId: String(fixable.id),
        reason: 'schema: calldate: Invalid date',
        raw: { id: fixable.id, calldate: 'yesterday' },
      },
      {
        account: 'acme',
        stream: 'cdrs',
        recordId: '987654321',
        reason: 'schema: id: Expected number',
        raw: { id: 'x', calldate: 12 },
      },
    ]);

    server = await startDashboardServer(h, {
      webhookSecret: 'dashboard-webhook-secret-0123',
      password: PASSWORD,
    });
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  }, 240_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await h?.close();
  });

  it('refuses a wrong password and lets the right one in', async () => {
    await page.goto(`${server.url}/dashboard`);
    expect(page.url()).toContain('/dashboard/login');
    await page.fill('#username', 'admin');
    await page.fill('#password', 'not-the-password');
    const [refused] = await Promise.all([
      page.waitForResponse((r) => r.url().endsWith('/dashboard/login')),
      page.click('button[type=submit]'),
    ]);
    expect(refused.status()).toBe(401);
    await expect(page.textContent('#login-error')).resolves.toContain('Wrong username or password');
    await page.screenshot({ path: join(SHOTS, 'login-refused.png') });
    // Without the cookie, the pages stay closed.
    expect((await fetch(`${server.url}/dashboard/quarantine`, { redirect: 'manual' })).status).toBe(303);
    // A form posted from another site is refused before anything else.
    const crossSite = await fetch(`${server.url}/dashboard/login`, {
      method: 'POST',
      headers: { origin: 'http://evil.example', 'content-type': 'application/x-www-form-urlencoded' },
      body: `password=${PASSWORD}`,
      redirect: 'manual',
    });
    expect(crossSite.status).toBe(403);

    await page.fill('#password', PASSWORD);
    await Promise.all([page.waitForURL(`${server.url}/dashboard`), page.click('button[type=submit]')]);
    const streams = await page.textContent('#streams');
    expect(streams).toContain('cdrs');
    expect(streams).toContain('recordings');
    expect(await page.locator('svg[aria-label="Calls per hour by outcome"]').count()).toBe(1);
    await page.screenshot({ path: join(SHOTS, 'overview.png'), fullPage: true });
  });

  it('searches calls by outcome and opens a call with its timeline and CDR', async () => {
    await page.click('header nav >> text=Calls');
    await page.selectOption('select[name=outcome]', 'CONNECTED');
    await Promise.all([page.waitForURL(/outcome=CONNECTED/), page.click('form.filters button')]);
    const outcomes = await page.locator('#calls tbody tr td .pill').allTextContents();
    expect(outcomes.length).toBeGreaterThan(0);
    expect(new Set(outcomes)).toEqual(new Set(['CONNECTED']));
    await page.screenshot({ path: join(SHOTS, 'calls.png'), fullPage: true });

    await page.goto(`${server.url}/dashboard/calls`);
    await page.locator('#calls tbody tr a').first().click();
    await page.waitForURL(/\/dashboard\/calls\/acme\/\d+$/);
    expect(await page.textContent('#timeline')).toContain('call.hangup');
    expect(await page.locator('#cdr tbody tr').count()).toBeGreaterThan(0);
    await page.screenshot({ path: join(SHOTS, 'call.png'), fullPage: true });
  });

  it("plays a call's archived recording from the archive and shows its transcript", async () => {
    const withAudio = await h.deps.warehouse.db
      .selectFrom('recordings as r')
      .innerJoin('cdrs as c', (j) =>
        j.onRef('c.account', '=', 'r.account').onRef('c.live_id', '=', 'r.live_id'),
      )
      .select(['c.id as cdr', 'r.id as recording', 'r.audio_bytes', 'r.transcript'])
      .where('r.account', '=', 'acme')
      .where('r.audio_archived_at', 'is not', null)
      .orderBy('r.id')
      .limit(1)
      .executeTakeFirstOrThrow();
    await page.goto(`${server.url}/dashboard/calls/acme/${withAudio.cdr}`);
    const src = await page.locator('audio').first().getAttribute('src');
    expect(src).toBe(`/dashboard/audio/acme/${withAudio.recording}`);
    const audio = await page.request.get(`${server.url}${src}`);
    expect(audio.status()).toBe(200);
    expect(audio.headers()['content-type']).toBe('audio/mpeg');
    expect((await audio.body()).length).toBe(Number(withAudio.audio_bytes));
    // Without the session cookie the audio is not served.
    expect((await fetch(`${server.url}${src}`, { redirect: 'manual' })).status).toBe(303);
    if (withAudio.transcript)
      expect(await page.textContent('#transcript')).toContain(withAudio.transcript.slice(0, 40));
    await page.screenshot({ path: join(SHOTS, 'call-recording.png'), fullPage: true });
  });

  it('retries a quarantined record, which leaves the quarantine, and shows an unreadable one stays', async () => {
    await page.click('header nav >> text=Quarantine');
    const row = (id: string | number) => page.locator(`#quarantine tr[data-record="cdrs/${id}"]`);
    expect(await row(fixable.id).count()).toBe(1);
    expect(await row('987654321').count()).toBe(1);
    await page.screenshot({ path: join(SHOTS, 'quarantine-before.png'), fullPage: true });

    await Promise.all([page.waitForURL(/stored=/), row(fixable.id).locator('button').click()]);
    expect(await page.textContent('#retry-result')).toContain('1 stored');
    expect(await row(fixable.id).count()).toBe(0);
    expect(await page.textContent('#cleared')).toContain(String(fixable.id));
    const back = await h.deps.warehouse.db
      .selectFrom('cdrs')
      .select('id')
      .where('account', '=', 'acme')
      .where('id', '=', fixable.id)
      .executeTakeFirst();
    expect(back).toBeDefined();

    await Promise.all([page.waitForURL(/still=/), page.click('text=Retry all of cdrs')]);
    expect(await page.textContent('#retry-result')).toContain('1 still invalid');
    expect(await row('987654321').count()).toBe(1);
    expect(await row('987654321').textContent()).toContain('still-invalid');
    await page.screenshot({ path: join(SHOTS, 'quarantine-after.png'), fullPage: true });
  });
});
