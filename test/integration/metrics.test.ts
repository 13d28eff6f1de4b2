// Prometheus metrics over real HTTP: webhooks, the inbox backlog and a real sync (emulator, Temporal
// dev server, PostgreSQL) move the counters on /metrics by exactly what happened. /metrics is never
// open on the public receiver port: it is on a port of its own, or behind its bearer token.
import { syncStreamWorkflow } from '../../contracts';
import { addQuarantined } from '../../connectors/postgres';
import { silentLogger } from '../../lib/logger';
import { metrics } from '../../lib/metrics';
import { startServer, type RunningServer } from '../../server';
import { eventually } from '../support/eventually';
import { parsePrometheusText, sampleValue, type Sample } from '../support/prometheus-text';
import { startSyncHarness, type SyncHarness } from './sync-harness';

jest.setTimeout(180_000);

const SECRET = 'metrics-test-secret-0123456789';

describe('Prometheus metrics', () => {
  let h: SyncHarness;
  let server: RunningServer;

  beforeAll(async () => {
    h = await startSyncHarness({ label: 'metrics', cdrs: 300 });
    // No relay: accepted deliveries stay in the inbox, so the backlog is known.
    server = await startServer({
      accounts: [{ name: 'acme', webhookSecret: SECRET }],
      databaseUrl: h.database.url,
      port: 0,
      host: '127.0.0.1',
      logger: silentLogger,
      metrics: metrics(),
      metricsEndpoint: { port: 0, host: '127.0.0.1' },
    });
  }, 120_000);

  afterAll(async () => {
    await server?.close();
    await h?.close();
  });

  const scrape = async (): Promise<Sample[]> => {
    const res = await fetch(server.metricsUrl!);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
    return parsePrometheusText(await res.text());
  };
  const post = (secret: string, body: string) =>
    fetch(`${server.url}/webhooks/acme/${secret}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
    });
  const event = (n: number) =>
    JSON.stringify({
      id: `metrics-${n}`,
      event_time: '2026-11-30 10:00:00',
      event_name: 'call.ringing',
      call_id: 9000 + n,
      state: 'RINGING',
      context: 'LOCAL_USER',
      destination: 'in',
      src: '+442071234567',
      dst: '101',
    });

  it('serves /metrics on its own port, not on the public receiver port', async () => {
    expect(server.metricsUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/metrics$/);
    expect(server.metricsUrl).not.toBe(`${server.url}/metrics`);
    expect((await fetch(`${server.url}/metrics`)).status).toBe(404);
  });

  it('on the receiver port, serves /metrics only with its bearer token', async () => {
    const token = 'metrics-token-0123456789abcdef';
    const guarded = await startServer({
      accounts: [{ name: 'acme', webhookSecret: SECRET }],
      databaseUrl: h.database.url,
      port: 0,
      host: '127.0.0.1',
      logger: silentLogger,
      metrics: metrics(),
      metricsEndpoint: { token },
    });
    try {
      expect(guarded.metricsUrl).toBe(`${guarded.url}/metrics`);
      expect((await fetch(guarded.metricsUrl!)).status).toBe(401);
      const wrong = await fetch(guarded.metricsUrl!, { headers: { authorization: 'Bearer nope' } });
      expect(wrong.status).toBe(401);
      const ok = await fetch(guarded.metricsUrl!, { headers: { authorization: `Bearer ${token}` } });
      expect(ok.status).toBe(200);
      expect(await ok.text()).toContain('callsync_inbox_backlog');
    } finally {
      await guarded.close();
    }
  });

  it('counts webhooks received and rejected, their latency, and the inbox backlog', async () => {
    const before = await scrape();
    for (const n of [1, 2, 3]) expect((await post(SECRET, event(n))).status).toBe(200);
    expect((await post('wrong-secret-0123456789', event(4))).status).toBe(401);
    expect((await post(SECRET, '{"id": "no-name"}')).status).toBe(400);
    // Scraped until the oldest row has waited a second, so that the lag shows its age.
    const after = await eventually(
      async () => {
        const samples = await scrape();
        return sampleValue(samples, 'callsync_relay_lag_seconds') >= 1 ? samples : undefined;
      },
      'the oldest inbox row to have waited a second',
      30_000,
    );
    const moved = (name: string, labels: Record<string, string> = {}) =>
      sampleValue(after, name, labels) - sampleValue(before, name, labels);

    expect(moved('callsync_webhooks_received_total', { account: 'acme' })).toBe(3);
    expect(
      moved('callsync_webhooks_rejected_total', { account: '(unauthenticated)', reason: 'unauthorized' }),
    ).toBe(1);
    expect(moved('callsync_webhooks_rejected_total', { account: 'acme', reason: 'invalid' })).toBe(1);
    expect(moved('callsync_webhook_duration_seconds_count', { outcome: 'accepted' })).toBe(3);
    expect(moved('callsync_webhook_duration_seconds_count', { outcome: 'unauthorized' })).toBe(1);
    expect(moved('callsync_webhook_duration_seconds_bucket', { outcome: 'accepted', le: '+Inf' })).toBe(3);
    expect(sampleValue(after, 'callsync_inbox_backlog')).toBe(3);
    // The oldest waited at least the second awaited above.
    expect(sampleValue(after, 'callsync_relay_lag_seconds')).toBeGreaterThanOrEqual(1);
    expect(sampleValue(after, 'callsync_process_resident_memory_bytes')).toBeGreaterThan(0);
  });

  it('counts a sync: records, pages, platform API requests and the stream lag', async () => {
    const before = await scrape();
    const summary = await h.client.workflow.execute(syncStreamWorkflow, {
      taskQueue: h.taskQueue,
      workflowId: 'sync-metrics-cdrs',
      args: [{ account: 'acme', stream: 'cdrs' }],
    });
    const after = await scrape();
    const labels = { account: 'acme', stream: 'cdrs' };
    const moved = (name: string, l: Record<string, string> = labels) =>
      sampleValue(after, name, l) - sampleValue(before, name, l);
    const { count } = await h.deps.warehouse.db
      .selectFrom('cdrs')
      .select((e) => e.fn.countAll<number>().as('count'))
      .where('account', '=', 'acme')
      .executeTakeFirstOrThrow();
    expect(Number(count)).toBe(300);
    expect(moved('callsync_stream_records_total')).toBe(300);
    expect(summary.records).toBe(300);
    expect(moved('callsync_stream_pages_total')).toBe(summary.pages);
    expect(moved('callsync_stream_errors_total')).toBe(summary.quarantined);
    expect(
      moved('callsync_api_requests_total', { vendor: 'platform', status: '2xx' }),
    ).toBeGreaterThanOrEqual(summary.pages);
    expect(sampleValue(after, 'callsync_stream_lag_seconds', labels)).toBeGreaterThan(0);
  });

  it('reads what the alert rules watch from PostgreSQL: last sync, open quarantine, archive backlog', async () => {
    // The sync above ran a whole run of cdrs (a sync_runs row); a quarantined record is added here.
    const first = await scrape();
    // Read as 0 before its first quarantined record: a stream that has synced has the series.
    const cdrsOpen = first.find(
      (x) =>
        x.name === 'callsync_quarantine_open' && x.labels.account === 'acme' && x.labels.stream === 'cdrs',
    );
    expect(cdrsOpen?.value).toBe(0);
    await addQuarantined(h.deps.warehouse.db, {
      account: 'acme',
      stream: 'cdrs',
      recordId: 'metrics-q-1',
      reason: 'test',
      raw: { id: 'metrics-q-1' },
    });
    const after = await scrape();
    expect(sampleValue(after, 'callsync_quarantine_open', { account: 'acme', stream: 'cdrs' })).toBe(1);
    const lastSync = sampleValue(after, 'callsync_stream_last_success_timestamp_seconds', {
      account: 'acme',
      stream: 'cdrs',
      kind: 'history',
    });
    expect(Math.abs(Date.now() / 1000 - lastSync)).toBeLessThan(600);
    const unarchived = async (table: 'recordings' | 'voicemessages') =>
      Number(
        (
          await h.deps.warehouse.db
            .selectFrom(table)
            .select((e) => e.fn.countAll<number>().as('n'))
            .where('audio_archived_at', 'is', null)
            .where('audio_lost_at', 'is', null)
            .executeTakeFirstOrThrow()
        ).n,
      );
    for (const stream of ['recordings', 'voicemessages'] as const) {
      expect(after.some((x) => x.name === 'callsync_archive_backlog' && x.labels.stream === stream)).toBe(
        true,
      );
      expect(sampleValue(after, 'callsync_archive_backlog', { stream })).toBe(await unarchived(stream));
    }
  });
});
