// Retrying a call follow-up that gave up, on the real stack (emulator, Temporal dev server, PostgreSQL,
// the product's worker, a HubSpot test server): HubSpot refuses a missed call's log with a 400 (not
// retryable), the call fails and is recorded; once HubSpot takes writes again, `callsync retry`, run as
// a command, logs the call exactly once and the failure row says who retried it and that it
// succeeded; a second retry changes nothing, and a late webhook still starts no second lifecycle. On
// the dashboard, the call's page shows the reason (masked) and its Retry form, which needs the CSRF
// token and, sent twice at once, retries once. A retry that fails again is a new failure linked to
// the one it retried, and `retry --all-failed` takes it up.
import { spawn } from 'node:child_process';
import { callWorkflowId, type CallEventSignal } from '../../contracts';
import { latestCallFailure, upsertPage, type CallFailureRow } from '../../connectors/postgres';
import { temporalSignaller, type RunningServer } from '../../server';
import { startFakeHubSpot, type FakeHubSpot } from '../fakes/hubspot-server';
import { eventually } from '../support/eventually';
import { fixture } from '../unit/warehouse-fixtures';
import { cliCommand, cliEnv, root } from './cli-process';
import { missedCall } from './missed-call';
import { startSyncHarness, type SyncHarness } from './sync-harness';
import { startDashboardServer } from './dashboard-server';

jest.setTimeout(240_000);

const CALLS_CREATE = '/crm/v3/objects/calls/batch/create';
const PASSWORD = 'call-retry-dashboard-password-1';

/** `callsync --config <the harness's file> retry …`, in a child process. */
function retryCli(h: SyncHarness, args: string[]) {
  const [cmd, argv] = cliCommand(['--config', h.configFile, 'retry', ...args]);
  return new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn(cmd, argv, { cwd: root, env: cliEnv() });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

/** A browser-like client of the dashboard: keeps its cookies, follows no redirect. */
class Browser {
  private cookies = new Map<string, string>();
  constructor(private readonly base: string) {}

  async request(path: string, init: RequestInit = {}): Promise<Response> {
    const cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const res = await fetch(`${this.base}${path}`, {
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

  post(path: string, fields: Record<string, string>): Promise<Response> {
    return this.request(path, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(fields).toString(),
    });
  }

  static csrf(html: string): string {
    return /name="_csrf" value="([^"]*)"/.exec(html)?.[1] ?? '';
  }

  async login(): Promise<void> {
    const form = await (await this.request('/dashboard/login')).text();
    const res = await this.post('/dashboard/login', {
      username: 'admin',
      password: PASSWORD,
      _csrf: Browser.csrf(form),
      next: '/dashboard',
    });
    expect(res.status).toBe(303);
  }
}

describe('retry of a failed call follow-up', () => {
  let fake: FakeHubSpot;
  let h: SyncHarness;
  let server: RunningServer;

  beforeAll(async () => {
    fake = await startFakeHubSpot();
    h = await startSyncHarness({
      label: 'call-retry',
      cdrs: 20,
      config: { crm: { destination: { type: 'hubspot', accessToken: fake.token, basePath: fake.url } } },
    });
    server = await startDashboardServer(h, {
      webhookSecret: 'call-retry-webhook-secret-0123',
      password: PASSWORD,
    });
  }, 180_000);

  afterAll(async () => {
    await server?.close();
    await h?.close();
    await fake?.close();
  });

  const callLogs = (callId: number) =>
    fake.objects('calls').filter((o) => o.properties.callsync_key === `acme:${callId}`);

  /** A missed call whose log HubSpot refuses with a 400 naming the caller; resolves once it failed. */
  async function failedCall(caller: string): Promise<{ callId: number; failure: CallFailureRow }> {
    fake.failNext(
      'POST',
      CALLS_CREATE,
      400,
      1,
      undefined,
      `Property values were not valid: "${caller}" was not a valid value for hs_call_from_number`,
    );
    const callId = await missedCall(h, caller);
    await expect(h.client.workflow.getHandle(callWorkflowId('acme', callId)).result()).rejects.toThrow();
    const failure = await latestCallFailure(h.deps.warehouse.db, 'acme', callId);
    expect(failure).toMatchObject({ activity: 'logCall', failure_type: 'CrmBadRequestError' });
    expect(failure!.retry_requested_at).toBeNull();
    expect(callLogs(callId)).toHaveLength(0);
    return { callId, failure: failure! };
  }

  /** The runs Temporal has of the call's workflow id (visibility catches up: at least `atLeast`). */
  async function runsOf(callId: number, atLeast: number): Promise<number> {
    const query = `WorkflowId = '${callWorkflowId('acme', callId)}'`;
    return eventually(async () => {
      const { count } = await h.client.workflow.count(query);
      return count >= atLeast ? count : undefined;
    }, `${atLeast} runs of the call's workflow`);
  }

  it('retries from the command line once the CRM is fixed: one CRM log, the row says retried and succeeded', async () => {
    const { callId, failure } = await failedCall('+442079460781');

    const first = await retryCli(h, ['--call', `acme:${callId}`]);
    expect({ status: first.status, stderr: first.stderr }).toEqual({ status: 0, stderr: '' });
    const line = JSON.parse(first.stdout.trim()) as Record<string, unknown>;
    expect(line).toMatchObject({
      account: 'acme',
      callId,
      status: 'started',
      failureId: failure.id,
      outcome: 'succeeded',
    });

    expect(callLogs(callId)).toHaveLength(1);
    const row = await latestCallFailure(h.deps.warehouse.db, 'acme', callId);
    expect(row).toMatchObject({ id: failure.id, retry_outcome: 'succeeded', retry_run_id: line.runId });
    expect(row!.retry_requested_by).toMatch(/^cli:/);
    expect(row!.retry_requested_at).toBeInstanceOf(Date);
    expect(row!.retry_finished_at).toBeInstanceOf(Date);
    const described = await h.client.workflow.getHandle(callWorkflowId('acme', callId)).describe();
    expect({ run: described.runId, status: described.status.name }).toEqual({
      run: line.runId,
      status: 'COMPLETED',
    });

    // Again: nothing to do, and it says so.
    const second = await retryCli(h, ['--call', `acme:${callId}`]);
    expect(second.status).toBe(0);
    expect(JSON.parse(second.stdout.trim())).toMatchObject({
      status: 'already-retried',
      outcome: 'succeeded',
    });
    // A late webhook of the call finds its lifecycle settled: no third run, no second log.
    const late: CallEventSignal = {
      eventId: `${callId}-late`,
      name: 'call.hangup',
      time: '2026-11-27 10:00:00',
      state: null,
      context: 'LOCAL_USER',
      destination: 'in',
      src: '+442079460781',
      dst: '101',
      srcId: null,
      dstId: null,
      srcName: null,
      dstName: null,
      duration: null,
      tCause: null,
      connectedAt: null,
      digits: null,
    };
    const signal = temporalSignaller(h.client, h.taskQueue);
    expect(
      await signal({ workflowId: callWorkflowId('acme', callId), account: 'acme', callId, events: [late] }),
    ).toBe('settled');
    expect(await runsOf(callId, 2)).toBe(2);
    expect(callLogs(callId)).toHaveLength(1);

    // A call that never failed has nothing to retry: exit 1, saying so.
    const none = await retryCli(h, ['--call', 'acme:999999999']);
    expect(none.status).toBe(1);
    expect(JSON.parse(none.stdout.trim())).toMatchObject({ status: 'no-failure' });
  });

  it("shows the reason on the call's page and retries once from its form, CSRF-protected", async () => {
    const caller = '+442079460782';
    const { callId, failure } = await failedCall(caller);
    // The call's CDR in the warehouse, as the CDR sync puts it there (the page is the CDR's).
    await upsertPage(h.deps.warehouse.pool, {
      stream: 'cdrs',
      account: 'acme',
      records: [fixture('cdrs', { id: callId, live_id: callId, src: caller, is_root: 1 })],
    });
    const b = new Browser(server.url);
    await b.login();
    const path = `/dashboard/calls/acme/${callId}`;
    const before = await (await b.request(path)).text();
    expect(before).toContain('id="failure-reason"');
    expect(before).toContain('CrmBadRequestError');
    expect(before).toMatch(/id="failure-step">logCall</);
    // The reason as recorded: HubSpot's text, the caller's number masked.
    expect(before).toContain('&quot;[number …82]&quot; was not a valid value');
    expect(before).toContain('data-state="none"');
    expect(before).toContain(`action="${path}/retry"`);

    // Without the CSRF token: refused, nothing started.
    expect((await b.post(`${path}/retry`, { failure: failure.id })).status).toBe(403);
    expect((await latestCallFailure(h.deps.warehouse.db, 'acme', callId))!.retry_requested_at).toBeNull();

    // The form sent twice at once (a double click): one retry.
    const fields = { _csrf: Browser.csrf(before), failure: failure.id };
    const answers = await Promise.all([b.post(`${path}/retry`, fields), b.post(`${path}/retry`, fields)]);
    expect(answers.map((a) => a.status)).toEqual([303, 303]);
    const results = answers.map((a) =>
      new URL(a.headers.get('location')!, server.url).searchParams.get('retry'),
    );
    expect(results.filter((r) => r === 'started')).toHaveLength(1);
    expect(results.filter((r) => r !== 'started')).toEqual([
      expect.stringMatching(/^already-retried$|^not-failed$/),
    ]);

    const done = await eventually(async () => {
      const row = await latestCallFailure(h.deps.warehouse.db, 'acme', callId);
      return row?.retry_outcome ? row : undefined;
    }, 'the retry to end');
    expect(done).toMatchObject({
      id: failure.id,
      retry_outcome: 'succeeded',
      retry_requested_by: 'dashboard:admin',
    });
    expect(callLogs(callId)).toHaveLength(1);
    expect(await runsOf(callId, 2)).toBe(2);

    const after = await (await b.request(`${path}?retry=started`)).text();
    expect(after).toContain('id="retry-result"');
    expect(after).toContain('data-state="succeeded"');
    expect(after).toContain('dashboard:admin');
    expect(after).not.toContain(`action="${path}/retry"`);
    // A form sent from a page loaded before the retry changes nothing either.
    const again = await b.post(`${path}/retry`, fields);
    expect(again.headers.get('location')).toBe(`${path}?retry=already-retried`);
    expect(callLogs(callId)).toHaveLength(1);
  });

  it('links a retry that fails again to a new failure, which `retry --all-failed` then retries', async () => {
    const { callId, failure } = await failedCall('+442079460783');
    // HubSpot still refuses: the retry fails, and says so on both rows.
    fake.failNext('POST', CALLS_CREATE, 400);
    const failed = await retryCli(h, ['--call', `acme:${callId}`]);
    expect(failed.status).toBe(1);
    expect(JSON.parse(failed.stdout.trim())).toMatchObject({ status: 'started', outcome: 'failed' });
    const second = (await latestCallFailure(h.deps.warehouse.db, 'acme', callId))!;
    expect(second.id).not.toBe(failure.id);
    expect(second).toMatchObject({ retry_of: failure.id, retry_requested_at: null, activity: 'logCall' });
    const first = await h.deps.warehouse.db
      .selectFrom('call_failures')
      .selectAll()
      .where('id', '=', failure.id)
      .executeTakeFirstOrThrow();
    expect(first).toMatchObject({ retry_outcome: 'failed', retry_run_id: second.run_id });

    // Fixed now: every call whose latest failure was never retried, this one among them.
    const all = await retryCli(h, ['--all-failed', '--account', 'acme', '--since', '1h']);
    expect({ status: all.status, stderr: all.stderr }).toEqual({ status: 0, stderr: '' });
    const lines = all.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines).toEqual([
      expect.objectContaining({ callId, status: 'started', failureId: second.id, outcome: 'succeeded' }),
    ]);
    expect(callLogs(callId)).toHaveLength(1);
    expect(await runsOf(callId, 3)).toBe(3);
  });

  it('lists failed follow-ups on the dashboard, each with a Retry that runs once', async () => {
    const { callId, failure } = await failedCall('+442079460784');
    const b = new Browser(server.url);
    await b.login();
    const row = (html: string) =>
      new RegExp(`<tr data-failure="${failure.id}">[\\s\\S]*?</tr>`).exec(html)?.[0] ?? '';
    const list = await (await b.request('/dashboard/failures')).text();
    expect(row(list)).toContain('logCall');
    expect(row(list)).toContain('&quot;[number …84]&quot; was not a valid value');
    expect(row(list)).not.toContain('442079460784');
    expect(row(list)).toContain('action="/dashboard/failures/retry"');
    const fields = { _csrf: Browser.csrf(list), failure: failure.id };
    const first = await b.post('/dashboard/failures/retry', fields);
    expect(first.headers.get('location')).toBe('/dashboard/failures?retry=started');
    await eventually(async () => {
      const r = await latestCallFailure(h.deps.warehouse.db, 'acme', callId);
      return r?.retry_outcome === 'succeeded' ? r : undefined;
    }, 'the retry to succeed');
    const again = await b.post('/dashboard/failures/retry', fields);
    expect(again.headers.get('location')).toBe('/dashboard/failures?retry=already-retried');
    const after = await (await b.request('/dashboard/failures')).text();
    expect(row(after)).toContain('succeeded');
    expect(row(after)).not.toContain('action="/dashboard/failures/retry"');
    expect(callLogs(callId)).toHaveLength(1);
  });
});
