// The relay against a real Temporal dev server and a real PostgreSQL: inbox rows become signals of
// each call's `callLifecycle` workflow (a recording stand-in here), DTMF key presses included, rows
// are marked done, and rows stay pending while Temporal is away, then drain once it is back.
import { Client, Connection } from '@temporalio/client';
import { clientConnectionOptions } from '../../runtime/temporal-connection';
import { silentLogger } from '../../lib/logger';
import { startTemporalDevServer, type RunningTemporal } from '../../local/temporal-dev-server';
import { freePort } from '../../lib/free-port';
import { InboxWriter } from '../../server/inbox-writer';
import { Relay, temporalSignaller } from '../../server/relay';
import { callWorkflowId } from '../../contracts';
import { eventually } from '../support/eventually';
import { quietTemporalRuntime } from '../support/temporal-runtime';
import { storeWebhook } from './inbox-fixtures';
import { signalsQuery } from './receiver-workflow';
import { withStandInWorker } from './stand-in-worker';
import { createMigratedWarehouse, type MigratedWarehouse } from './warehouse-db';

const ACCOUNT = 'acme';

function event(callId: number, name: string, n: number): string {
  return JSON.stringify({
    id: `call-${callId}-${n}`,
    event_time: `2026-11-30 10:00:0${n}`,
    event_name: name,
    call_id: callId,
    state: name.split('.')[1]!.toUpperCase(),
    context: 'LOCAL_USER',
    destination: 'in',
    src: '+442071234567',
    dst: '101',
    src_id: 1,
    dst_id: 2,
    duration: n,
  });
}

async function store(inbox: InboxWriter, bodies: string[]): Promise<void> {
  for (const body of bodies) await storeWebhook(inbox, ACCOUNT, body);
}

describe('relay: inbox → Temporal', () => {
  let w: MigratedWarehouse;
  let temporal: RunningTemporal;
  let port: number;
  let connection: Connection;
  let client: Client;
  const taskQueue = `receiver-relay-${process.pid}`;

  const statuses = async () =>
    (
      await w.pool.query<{ status: string; n: string }>(
        'SELECT status, count(*) AS n FROM webhook_inbox GROUP BY status ORDER BY status',
      )
    ).rows.reduce<Record<string, number>>((acc, r) => ({ ...acc, [r.status]: Number(r.n) }), {});

  const withWorker = <T>(run: () => Promise<T>): Promise<T> =>
    withStandInWorker(temporal.address, taskQueue, run);

  beforeAll(async () => {
    quietTemporalRuntime();
    w = await createMigratedWarehouse('receiver_relay');
    port = await freePort();
    temporal = await startTemporalDevServer({ port });
    // The product's client options (its reconnect backoff is what brings the relay back quickly).
    connection = await Connection.connect(
      clientConnectionOptions({ address: temporal.address, namespace: 'default' }),
    );
    client = new Client({ connection });
  }, 120_000);
  afterAll(async () => {
    await connection?.close();
    await temporal?.stop();
    await w?.dispose();
  });

  it('signals each call workflow with its events, in order, and marks the rows done', async () => {
    const inbox = new InboxWriter(w.pool);
    const relay = new Relay({
      pool: w.pool,
      signal: temporalSignaller(client, taskQueue),
      logger: silentLogger,
      // One claimer: order is kept within a batch, and batches claimed side by side may split a call.
      parallelBatches: 1,
    });
    await store(inbox, [
      event(101, 'call.ringing', 1),
      event(102, 'call.ringing', 1),
      event(101, 'call.connected', 2),
      JSON.stringify({
        id: 'sms-1',
        event_name: 'sms.received',
        from_no: '+4477',
        to_no: '+4420',
        text: 'hi',
      }),
      JSON.stringify({ id: 'odd-1', event_name: 'call.sentiment' }),
      event(101, 'call.hangup', 3),
    ]);
    relay.start();
    try {
      await withWorker(async () => {
        await eventually(async () => ((await statuses()).done === 6 ? true : undefined), 'every row done');
        const first = await client.workflow.getHandle(callWorkflowId(ACCOUNT, 101)).query(signalsQuery);
        expect(first.input).toEqual({ account: ACCOUNT, callId: 101 });
        expect(first.events.map((e) => [e.eventId, e.name, e.state])).toEqual([
          ['call-101-1', 'call.ringing', 'RINGING'],
          ['call-101-2', 'call.connected', 'CONNECTED'],
          ['call-101-3', 'call.hangup', 'HANGUP'],
        ]);
        expect(first.events[0]).toMatchObject({ src: '+442071234567', dst: '101', srcId: 1, dstId: 2 });
        const second = await client.workflow.getHandle(callWorkflowId(ACCOUNT, 102)).query(signalsQuery);
        expect(second.events.map((e) => e.eventId)).toEqual(['call-102-1']);
      });
    } finally {
      await relay.stop();
    }
    const done = await w.db.selectFrom('webhook_inbox').select(['status', 'done_at', 'attempts']).execute();
    expect(done.every((r) => r.status === 'done' && r.done_at !== null && r.attempts === 0)).toBe(true);
  }, 120_000);

  it('keeps rows pending while Temporal is down and drains them once it is back', async () => {
    const inbox = new InboxWriter(w.pool);
    const relay = new Relay({
      pool: w.pool,
      signal: temporalSignaller(client, taskQueue),
      logger: silentLogger,
      backoffBaseMs: 100,
      backoffMaxMs: 1000,
      // One claimer: the order of call 201's two events is asserted below.
      parallelBatches: 1,
    });
    await temporal.stop();
    try {
      await store(inbox, [
        event(201, 'call.ringing', 1),
        event(202, 'call.ringing', 1),
        event(201, 'call.hangup', 2),
      ]);
      relay.start();
      const failed = await eventually(
        async () => {
          const { rows } = await w.pool.query<{ attempts: number; last_error: string | null }>(
            "SELECT attempts, last_error FROM webhook_inbox WHERE status = 'pending' AND attempts > 0",
          );
          return rows[0];
        },
        'a failed attempt',
        90_000,
      );
      expect(failed.last_error).toBeTruthy();
      expect((await statuses()).pending).toBe(3);
    } finally {
      // Back on the same address; the relay's client reconnects by itself.
      temporal = await startTemporalDevServer({ port });
    }
    try {
      await withWorker(async () => {
        await eventually(
          async () => ((await statuses()).pending ? undefined : true),
          'the backlog drained',
          90_000,
        );
        const call = await client.workflow.getHandle(callWorkflowId(ACCOUNT, 201)).query(signalsQuery);
        expect(call.events.map((e) => e.eventId)).toEqual(['call-201-1', 'call-201-2']);
      });
    } finally {
      await relay.stop();
    }
    expect(relay.stats.failures).toBeGreaterThan(0);
    const rows = await w.db
      .selectFrom('webhook_inbox')
      .select(['status'])
      .where('call_id', 'in', [201, 202])
      .execute();
    expect(rows.map((r) => r.status)).toEqual(['done', 'done', 'done']);
  }, 240_000);

  it("signals a DTMF key press and events of any name to their call's workflow, with every field", async () => {
    const inbox = new InboxWriter(w.pool);
    const relay = new Relay({
      pool: w.pool,
      signal: temporalSignaller(client, taskQueue),
      logger: silentLogger,
    });
    // No hangup: the stand-in stays open, so both events reach one run whatever their order (the
    // order of a call's events is the first test's subject).
    await store(inbox, [
      event(301, 'call.initial', 1),
      JSON.stringify({ id: 'dtmf-301', event_name: 'call.dtmf', call_id: '301', context: 'IVR', digit: '2' }),
      // Names the spec does not list still belong to their call, whatever else they carry.
      JSON.stringify({
        id: 'xfer-301',
        event_name: 'call.transfer',
        call_id: '301',
        transfer_to: { ext: '102' },
      }),
      JSON.stringify({ id: 'rec-301', event_name: 'recording.started', call_id: 301, recording_id: 'r9' }),
    ]);
    relay.start();
    try {
      await withWorker(async () => {
        const call = await eventually(async () => {
          const seen = await client.workflow
            .getHandle(callWorkflowId(ACCOUNT, 301))
            .query(signalsQuery)
            .catch(() => undefined); // not started yet
          return seen?.events.length === 4 ? seen.events : undefined;
        }, 'every event signalled');
        const byId = [...call].sort((a, b) => a.eventId.localeCompare(b.eventId));
        expect(byId.map((e) => [e.eventId, e.name, e.context, e.digits])).toEqual([
          ['call-301-1', 'call.initial', 'LOCAL_USER', null],
          ['dtmf-301', 'call.dtmf', 'IVR', '2'],
          ['rec-301', 'recording.started', null, null],
          ['xfer-301', 'call.transfer', null, null],
        ]);
        expect(byId[3]!.body).toMatchObject({ transfer_to: { ext: '102' } });
        expect(byId[2]!.body).toMatchObject({ recording_id: 'r9' });
      });
    } finally {
      await relay.stop();
    }
    expect(relay.stats.failed).toBe(0);
    const rows = await w.db
      .selectFrom('webhook_inbox')
      .select(['status'])
      .where('call_id', '=', 301)
      .execute();
    expect(rows.map((r) => r.status)).toEqual(['done', 'done', 'done', 'done']);
  }, 120_000);
});
