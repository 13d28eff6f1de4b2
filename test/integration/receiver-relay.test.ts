// The relay against the product's call workflow (`callLifecycle` with its activities, on a Temporal
// dev server, with PostgreSQL and the emulator): inbox rows become signals of each call's workflow,
// which takes them in order onto the call's timeline, DTMF key presses included; rows are marked
// done; and rows stay pending while Temporal is away, then drain once it is back.
import { Client, Connection } from '@temporalio/client';
import { sql } from 'kysely';
import { callDtmfDigits } from '../../connectors/postgres/repositories/call-events';
import { callStateQuery, callWorkflowId, type CallState } from '../../contracts';
import { payloadCodecFromConfig } from '../../lib/encryption-keys';
import { silentLogger } from '../../lib/logger';
import { startTemporalDevServer, type RunningTemporal } from '../../local/temporal-dev-server';
import { InboxWriter } from '../../server/inbox-writer';
import { Relay, temporalSignaller } from '../../server/relay';
import { clientConnectionOptions } from '../../runtime/temporal-connection';
import { temporalDataConverter } from '../../runtime/temporal-encryption';
import { eventually } from '../support/eventually';
import { workflowStory } from '../support/workflow-story';
import { signalledEvents } from './call-signals';
import { storeWebhook } from './inbox-fixtures';
import { startSyncHarness, type SyncHarness } from './sync-harness';

jest.setTimeout(120_000);

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

describe('relay: inbox → Temporal', () => {
  let h: SyncHarness;
  /** The Temporal server now running (the harness's, until a test restarts it). */
  let temporal: RunningTemporal;
  let connection: Connection;
  let client: Client;

  const statuses = async () =>
    (
      await h.deps.warehouse.pool.query<{ status: string; n: string }>(
        'SELECT status, count(*) AS n FROM webhook_inbox GROUP BY status ORDER BY status',
      )
    ).rows.reduce<Record<string, number>>((acc, r) => ({ ...acc, [r.status]: Number(r.n) }), {});
  const store = async (bodies: string[]): Promise<void> => {
    const inbox = new InboxWriter(h.deps.warehouse.pool);
    for (const body of bodies) await storeWebhook(inbox, ACCOUNT, body);
  };
  const relayOf = (opts: Partial<ConstructorParameters<typeof Relay>[0]> = {}) =>
    new Relay({
      pool: h.deps.warehouse.pool,
      signal: temporalSignaller(client, h.taskQueue),
      logger: silentLogger,
      ...opts,
    });
  const handle = (callId: number) => client.workflow.getHandle(callWorkflowId(ACCOUNT, callId));
  /** The call's follow-up as its workflow reports it, once `ready`. */
  const callState = (callId: number, what: string, ready: (s: CallState) => boolean) =>
    eventually(
      async () => {
        const s = await handle(callId)
          .query(callStateQuery)
          .catch(() => undefined); // not started yet
        return s && ready(s) ? s : undefined;
      },
      what,
      60_000,
      () => workflowStory(handle(callId)),
    );
  /** The events signalled to the call's workflow, in the order it took them in. */
  const signalled = (callId: number) =>
    signalledEvents(client, payloadCodecFromConfig(h.config.temporal), ACCOUNT, callId);
  /** The call's timeline in the warehouse, as the workflow wrote it. */
  const timeline = (callId: number) =>
    h.deps.warehouse.db
      .selectFrom('call_events')
      .select(['event_id', 'name', 'state', 'context', 'detail'])
      .where('account', '=', ACCOUNT)
      .where('call_id', '=', callId)
      .orderBy('event_id')
      .execute();
  const onTimeline = (callId: number, n: number) =>
    eventually(
      async () => {
        const rows = await timeline(callId);
        return rows.length >= n ? rows : undefined;
      },
      `${n} events on the timeline of ${callId}`,
      60_000,
      () => workflowStory(handle(callId)),
    );

  /** A client as `callsync server` makes it: the product's reconnect backoff, the harness's encryption. */
  async function connect(): Promise<void> {
    connection = await Connection.connect(
      clientConnectionOptions({ address: temporal.address, namespace: 'default' }),
    );
    client = new Client({ connection, dataConverter: temporalDataConverter(h.config.temporal) });
  }

  beforeAll(async () => {
    h = await startSyncHarness({ label: 'receiver-relay', cdrs: 5 });
    temporal = h.temporal;
    await connect();
  }, 180_000);
  afterAll(async () => {
    await connection?.close();
    await h?.close();
    // A server the restart test started in the harness's place.
    if (temporal !== h?.temporal) await temporal?.stop();
  });

  it('signals each call workflow with its events, in order, and marks the rows done', async () => {
    await store([
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
    // One claimer: order is kept within a batch, and batches claimed side by side may split a call.
    const relay = relayOf({ parallelBatches: 1 });
    relay.start();
    try {
      await eventually(async () => ((await statuses()).done === 6 ? true : undefined), 'every row done');
      // Call 101 took its three events in the order they came, and the hangup ended the call.
      expect(await callState(101, 'the events of 101', (s) => s.events === 3)).toMatchObject({ ended: true });
      expect((await signalled(101)).map((e) => [e.eventId, e.name, e.state])).toEqual([
        ['call-101-1', 'call.ringing', 'RINGING'],
        ['call-101-2', 'call.connected', 'CONNECTED'],
        ['call-101-3', 'call.hangup', 'HANGUP'],
      ]);
      const rows = await onTimeline(101, 3);
      expect(rows.map((r) => [r.event_id, r.name, r.state])).toEqual([
        ['call-101-1', 'call.ringing', 'RINGING'],
        ['call-101-2', 'call.connected', 'CONNECTED'],
        ['call-101-3', 'call.hangup', 'HANGUP'],
      ]);
      expect(rows[0]!.detail).toMatchObject({ src: '+442071234567', dst: '101', srcId: 1, dstId: 2 });
      // Call 102 is still ringing: one event, not ended.
      expect(await callState(102, 'the event of 102', (s) => s.events === 1)).toMatchObject({ ended: false });
      expect((await onTimeline(102, 1)).map((r) => r.event_id)).toEqual(['call-102-1']);
    } finally {
      await relay.stop();
    }
    const done = await h.deps.warehouse.db
      .selectFrom('webhook_inbox')
      .select(['status', 'done_at', 'attempts'])
      .execute();
    expect(done.every((r) => r.status === 'done' && r.done_at !== null && r.attempts === 0)).toBe(true);
  });

  it('keeps rows pending while Temporal is down and drains them once it is back', async () => {
    const relay = relayOf({
      backoffBaseMs: 100,
      backoffMaxMs: 1000,
      // One claimer: the order of call 201's two events is asserted below.
      parallelBatches: 1,
    });
    const port = temporal.port;
    await h.stopWorker();
    await temporal.stop();
    try {
      await store([
        event(201, 'call.ringing', 1),
        event(202, 'call.ringing', 1),
        event(201, 'call.hangup', 2),
      ]);
      relay.start();
      const failed = await eventually(
        async () => {
          const { rows } = await h.deps.warehouse.pool.query<{ attempts: number; last_error: string | null }>(
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
      await h.startWorker();
    }
    try {
      await eventually(
        async () => ((await statuses()).pending ? undefined : true),
        'the backlog drained',
        90_000,
      );
      expect(await callState(201, 'the events of 201', (s) => s.events === 2)).toMatchObject({ ended: true });
      expect((await signalled(201)).map((e) => e.eventId)).toEqual(['call-201-1', 'call-201-2']);
      expect((await onTimeline(201, 2)).map((r) => r.event_id)).toEqual(['call-201-1', 'call-201-2']);
      expect(await callState(202, 'the event of 202', (s) => s.events === 1)).toMatchObject({ ended: false });
    } finally {
      await relay.stop();
    }
    expect(relay.stats.failures).toBeGreaterThan(0);
    const rows = await h.deps.warehouse.db
      .selectFrom('webhook_inbox')
      .select(['status'])
      .where('call_id', 'in', [201, 202])
      .execute();
    expect(rows.map((r) => r.status)).toEqual(['done', 'done', 'done']);
  }, 240_000);

  it("signals a DTMF key press and events of any name to their call's workflow, with every field", async () => {
    // No hangup: the call stays live, so every event reaches one run whatever their order (the
    // order of a call's events is the first test's subject).
    await store([
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
    const relay = relayOf();
    relay.start();
    try {
      expect(await callState(301, 'every event signalled', (s) => s.events === 4)).toMatchObject({
        ended: false,
      });
      const byId = await onTimeline(301, 4);
      expect(
        byId.map((e) => [e.event_id, e.name, e.context, (e.detail as { digits: unknown }).digits]),
      ).toEqual([
        ['call-301-1', 'call.initial', 'LOCAL_USER', null],
        ['dtmf-301', 'call.dtmf', 'IVR', '2'],
        ['rec-301', 'recording.started', null, null],
        ['xfer-301', 'call.transfer', null, null],
      ]);
      expect(byId[3]!.detail).toMatchObject({ body: { transfer_to: { ext: '102' } } });
      expect(byId[2]!.detail).toMatchObject({ body: { recording_id: 'r9' } });
      // The key press is what the call's log will say was pressed.
      expect(await callDtmfDigits(h.deps.warehouse.db, ACCOUNT, 301)).toEqual(['2']);
    } finally {
      await relay.stop();
    }
    expect(relay.stats.failed).toBe(0);
    const rows = await h.deps.warehouse.db
      .selectFrom('webhook_inbox')
      .select(['status'])
      .where('call_id', '=', 301)
      .execute();
    expect(rows.map((r) => r.status)).toEqual(['done', 'done', 'done', 'done']);
    // Signalled to the workflow (not written around it): its history holds all four.
    expect((await signalled(301)).map((e) => e.eventId).sort()).toEqual([
      'call-301-1',
      'dtmf-301',
      'rec-301',
      'xfer-301',
    ]);
    const { rows: counted } = await sql<{ n: number }>`
      select count(*)::int as n from call_events where account = ${ACCOUNT} and call_id = 301`.execute(
      h.deps.warehouse.db,
    );
    expect(counted[0]!.n).toBe(4);
  });
});
