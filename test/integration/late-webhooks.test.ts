// Webhooks redelivered hours late, after the CDR sync has already settled their call: through the
// real receiver and relay into the real workflows (emulator, Temporal, PostgreSQL, built-in CRM),
// they reach the call's timeline and nothing else. No second lifecycle logs the call again, and no
// callback reopens for a caller a later call already reached.
import { temporalDataConverter } from '../../runtime/temporal-encryption';
import { Client, Connection } from '@temporalio/client';
import { reconcileCalls } from '../../activities/reconcile';
import type { Cdr } from '../../connectors/platform';
import { callbackStateQuery, callWorkflowId } from '../../contracts';
import { silentLogger } from '../../lib/logger';
import { startServer, type RunningServer } from '../../server';
import { eventually } from '../support/eventually';
import { callbackIdOf } from './missed-call';
import { startSyncHarness, type SyncHarness } from './sync-harness';

jest.setTimeout(240_000);

const SECRET = 'late-webhooks-secret-0123456789';

describe('late webhooks of a settled call', () => {
  let h: SyncHarness;
  let server: RunningServer;
  let temporal: Client;

  beforeAll(async () => {
    h = await startSyncHarness({ label: 'late-webhooks', cdrs: 200 });
    // The relay signals through an encrypting client, as `callsync server` does.
    temporal = new Client({
      connection: await Connection.connect({ address: h.temporal.address }),
      dataConverter: temporalDataConverter(h.config.temporal),
    });
    server = await startServer({
      accounts: [{ name: 'acme', webhookSecret: SECRET }],
      databaseUrl: h.database.url,
      port: 0,
      host: '127.0.0.1',
      logger: silentLogger,
      temporal: { client: temporal, taskQueue: h.taskQueue },
    });
  }, 180_000);

  afterAll(async () => {
    await server?.close();
    await temporal?.connection.close();
    await h?.close();
  });

  /** A finished inbound call from `caller` in the emulator, a minute after the previous one. */
  function addCall(caller: string, answered: boolean): Cdr {
    const store = h.emulator.store;
    store.clock.advance(60_000);
    const [row] = store.addCdrs(h.emulator.admin.customer_id, 1);
    store.tables.cdrs.update(row!.id, {
      type: answered ? 'I' : 'M',
      src: caller,
      dst: '101',
      billsec: answered ? 90 : 0,
      duration: answered ? 100 : 20,
      disposition: answered ? 'CONNECTED' : 'RINGING',
      t_cause: answered ? 'Normal Clearing' : 'No user responding',
    });
    return store.tables.cdrs.get(row!.id)!.row as unknown as Cdr;
  }

  /** What the CDR sync does for a call no webhook announced (yet): reconcile it from its CDR. */
  const reconcile = (cdr: Cdr) =>
    reconcileCalls(
      h.client,
      { account: 'acme', taskQueue: h.taskQueue, windowMs: 86_400_000, newest: cdr.calldate ?? null },
      [cdr],
    );

  const webhook = (cdr: Cdr, n: number, name: string) => ({
    id: `late-${String(cdr.live_id)}-${n}`,
    event_time: cdr.calldate,
    event_name: name,
    call_id: cdr.live_id,
    state: name === 'call.missed' ? 'RINGING' : 'HANGUP',
    context: 'LOCAL_USER',
    destination: 'in',
    start_time: cdr.calldate,
    src: cdr.src,
    src_id: 0,
    dst: '101',
    dst_id: 120001,
    duration: 20,
  });

  it('puts them on the timeline only: one lifecycle run, one CRM write, no callback reopened', async () => {
    const caller = '+442079461401';
    const missed = addCall(caller, false);
    const reached = addCall(caller, true);
    const missedId = Number(missed.live_id);

    // After an outage the CDR sync settles the missed call first: logged, its callback opened...
    expect(await reconcile(missed)).toBe(1);
    const lifecycle = h.client.workflow.getHandle(callWorkflowId('acme', missedId));
    await lifecycle.result();
    const firstRun = (await lifecycle.describe()).runId;
    const callback = h.client.workflow.getHandle(callbackIdOf(h, caller));
    await eventually(
      async () => ((await callback.query(callbackStateQuery)).missed.length > 0 ? true : undefined),
      'the callback of the missed call',
    );
    // ...then closed by the later call that reached the caller.
    expect(await reconcile(reached)).toBe(1);
    expect(await callback.result()).toMatchObject({ status: 'closed', closedByCallId: reached.live_id });
    const logBefore = await h.deps.warehouse.db
      .selectFrom('builtin_call_logs')
      .selectAll()
      .where('key', '=', `acme:${missedId}`)
      .executeTakeFirstOrThrow();

    // Hours later the platform redelivers the missed call's webhooks.
    const events = [webhook(missed, 1, 'call.missed'), webhook(missed, 2, 'call.hangup')];
    for (const body of events) {
      const res = await fetch(server.webhookUrl('acme', SECRET), {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      expect(res.status).toBe(200);
    }
    const ids = events.map((e) => e.id);
    await eventually(async () => {
      const rows = await h.deps.warehouse.db
        .selectFrom('webhook_inbox')
        .select('status')
        .where('event_id', 'in', ids)
        .execute();
      return rows.length === ids.length && rows.every((r) => r.status === 'done') ? true : undefined;
    }, 'the late deliveries relayed');
    const timeline = await eventually(async () => {
      const rows = await h.deps.warehouse.db
        .selectFrom('call_events')
        .select('event_id')
        .where('account', '=', 'acme')
        .where('call_id', '=', missedId)
        .execute();
      return rows.length >= ids.length ? rows : undefined;
    }, 'the late events on the timeline');
    expect(timeline.map((r) => r.event_id).sort()).toEqual([...ids].sort());

    // Still the one run that logged the call, finished; the call log was written once.
    const now = await lifecycle.describe();
    expect({ runId: now.runId, status: now.status.name }).toEqual({ runId: firstRun, status: 'COMPLETED' });
    const logAfter = await h.deps.warehouse.db
      .selectFrom('builtin_call_logs')
      .selectAll()
      .where('key', '=', `acme:${missedId}`)
      .execute();
    expect(logAfter).toEqual([logBefore]);
    // The caller's callback stayed closed: one task, closed by the call that reached them.
    const c = await callback.describe();
    expect(c.status.name).toBe('COMPLETED');
    const tasks = await h.deps.warehouse.db
      .selectFrom('builtin_tasks')
      .selectAll()
      .where('caller_number', '=', caller)
      .execute();
    expect(tasks.map((t) => t.status)).toEqual(['closed']);
    expect(server.relay?.stats.settled).toBe(ids.length);
  });
});
