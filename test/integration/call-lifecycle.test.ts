// A call's follow-up end to end on the real stack (emulator, Temporal, PostgreSQL, built-in CRM):
// events arrive duplicated and out of order, the call is logged once on the right contact (with the
// IVR keys pressed) and updated when its transcript arrives; missed calls open one callback task, a
// later connected call closes it.
import { NativeConnection, Worker } from '@temporalio/worker';
import { sql } from 'kysely';
import { createActivities } from '../../activities';
import { nudgeTranscribed } from '../../activities/recording-nudge';
import { crmTaskQueue } from '../../contracts/task-queues';
import {
  callEventSignal,
  callEventsSignal,
  callLifecycleWorkflow,
  callStateQuery,
  callWorkflowId,
  syncStreamWorkflow,
  type CallEventSignal,
} from '../../contracts';
import { temporalDataConverter } from '../../runtime/temporal-encryption';
import { payloadCodecFromConfig } from '../../lib/encryption-keys';
import { storedCallSignal } from '../../connectors/platform/webhook-body';
import { silentLogger } from '../../lib/logger';
import { addCallEvents, claimInboxRows, markInboxDone } from '../../connectors/postgres';
import { InboxWriter } from '../../server/inbox-writer';
import { Relay, temporalSignaller } from '../../server/relay';
import { deliverCallEvents } from './missed-call';
import { storeWebhook } from './inbox-fixtures';
import { startSyncHarness, type SyncHarness } from './sync-harness';
import { eventually } from '../support/eventually';
import { chainStory, workflowStory } from '../support/workflow-story';

jest.setTimeout(240_000);

describe('call lifecycle', () => {
  let h: SyncHarness;
  let contact: { id: number; tel: string };

  beforeAll(async () => {
    h = await startSyncHarness({ label: 'calls', cdrs: 2_000 });
    await h.client.workflow.execute(syncStreamWorkflow, {
      taskQueue: h.taskQueue,
      workflowId: 'sync-calls-contacts',
      args: [{ account: 'acme', stream: 'contacts' }],
    });
    const customer = h.emulator.admin.customer_id;
    const rows = h.emulator.store.tables.contacts.query(customer, { page: 1, limit: 50, filter: [] }).data;
    const row = rows.find((r) => typeof r.tel === 'string' && /^\+\d{9,}$/.test(r.tel))!;
    contact = { id: Number(row.id), tel: String(row.tel) };
  }, 180_000);

  afterAll(async () => {
    await h?.close();
  });

  /** Each call's start (its CDR's calldate): its events happen then, as the platform's do. */
  const startOf = new Map<number, string>();

  /** A finished call in the emulator: its CDR (and recording when connected), from `number`. */
  function makeCall(
    number: string,
    kind: 'connected' | 'missed',
  ): { callId: number; monitorId: number | null } {
    const customer = h.emulator.admin.customer_id;
    const [cdr] = h.emulator.store.addCdrs(customer, 1);
    const patch =
      kind === 'connected'
        ? {
            type: 'I',
            src: number,
            dst: '101',
            billsec: 120,
            duration: 130,
            disposition: 'CONNECTED',
            t_cause: 'Normal Clearing',
          }
        : {
            type: 'M',
            src: number,
            dst: '101',
            billsec: 0,
            duration: 25,
            disposition: 'RINGING',
            t_cause: 'No user responding',
          };
    h.emulator.store.tables.cdrs.update(cdr!.id, patch);
    const callId = Number(cdr!.live_id);
    startOf.set(callId, String(cdr!.calldate));
    const monitors = h.emulator.store.tables.monitors.query(customer, {
      page: 1,
      limit: 5,
      filter: [{ property: 'live_id', operator: 'eq', value: callId }],
    }).data;
    let monitorId: number | null = monitors[0] ? Number(monitors[0].id) : null;
    if (kind === 'connected' && monitorId === null) {
      monitorId = Number(
        h.emulator.store.tables.monitors.insert(customer, {
          live_id: callId,
          created_at: cdr!.calldate,
          token: 'tok',
        }).id,
      );
    }
    if (monitorId !== null)
      h.emulator.store.tables.monitors.update(monitorId, {
        transcript: null,
        summary: null,
        sentiment: null,
      });
    return { callId, monitorId };
  }

  const event = (
    callId: number,
    n: number,
    name: string,
    src: string,
    context = 'LOCAL_USER',
  ): CallEventSignal => ({
    eventId: `${callId}-${n}`,
    name,
    time: startOf.get(callId) ?? `2026-11-01 12:00:0${n}`,
    state: name.split('.')[1]!.toUpperCase(),
    context,
    destination: 'in',
    src,
    dst: '101',
    srcId: null,
    dstId: 120001,
    srcName: null,
    dstName: 'Amelia',
    duration: n,
    tCause: null,
    connectedAt: null,
    digits: null,
  });

  const deliver = (callId: number, events: CallEventSignal[]) => deliverCallEvents(h, callId, events);

  /** Several events in one signal, as the relay hands over a call's backlog. */
  async function deliverTogether(callId: number, events: CallEventSignal[]): Promise<void> {
    await h.client.workflow.signalWithStart(callLifecycleWorkflow, {
      workflowId: callWorkflowId('acme', callId),
      taskQueue: h.taskQueue,
      args: [{ account: 'acme', callId }],
      signal: callEventsSignal,
      signalArgs: [events],
    });
  }

  const callLog = (callId: number) =>
    h.deps.warehouse.db
      .selectFrom('builtin_call_logs')
      .selectAll()
      .where('key', '=', `acme:${callId}`)
      .execute();

  it('logs a connected call once, on its contact, and adds the transcript when it arrives', async () => {
    const { callId, monitorId } = makeCall(contact.tel, 'connected');
    const ringing = event(callId, 1, 'call.ringing', contact.tel);
    const connected = event(callId, 2, 'call.connected', contact.tel);
    const hangup = event(callId, 3, 'call.hangup', contact.tel);
    // The caller picked option 2 in the IVR before the call rang (the key press comes before the hangup,
    // so it is on the timeline before the call is logged).
    const keyPress = {
      ...event(callId, 0, 'call.dtmf', contact.tel, 'IVR'),
      state: 'INITIAL',
      digits: '2',
      dst: '600',
      dstName: 'Main menu',
      // The body as delivered, with fields the signal's own do not name: the timeline keeps them.
      body: { id: `${callId}-0`, event_name: 'call.dtmf', call_id: callId, digit: '2', ivr_menu: 'main' },
    };
    // Out of order and duplicated, as at-least-once delivery does; the key press and the hangup come
    // only in a shared signal (as the relay sends a call's backlog).
    await deliverTogether(callId, [keyPress, hangup, ringing, keyPress]);
    await deliver(callId, [connected, ringing, connected]);

    const [log] = await eventually(async () => {
      const rows = await callLog(callId);
      return rows.length > 0 ? rows : undefined;
    }, 'the call log');
    expect(log).toMatchObject({
      direction: 'inbound',
      status: 'completed',
      from_number: contact.tel,
      duration_seconds: 120,
    });
    expect(log!.contact_id).toBe(`contact:${contact.id}`);
    expect(log!.transcript_excerpt).toBeNull();
    // The key press and where it led: the ringing that followed it, for Amelia at 101.
    expect(log!.body.split('\n\n')[0]).toBe('IVR keys pressed: 2\nIVR route: 2 → Amelia (101)');

    // The connected events came in a signal of their own, which can reach the workflow after the
    // call was logged: they join the timeline then (every event once).
    const onTimeline = async () =>
      (
        await sql<{ n: number }>`
      select count(*)::int as n from call_events where account = 'acme' and call_id = ${callId}`.execute(
          h.deps.warehouse.db,
        )
      ).rows[0]!.n;
    expect(
      await eventually(async () => ((await onTimeline()) >= 4 ? onTimeline() : undefined), 'the timeline'),
    ).toBe(4);
    const pressed = await h.deps.warehouse.db
      .selectFrom('call_events')
      .select('detail')
      .where('event_id', '=', `${callId}-0`)
      .executeTakeFirstOrThrow();
    expect(pressed.detail).toMatchObject({ digits: '2', body: { ivr_menu: 'main', digit: '2' } });

    h.emulator.store.tables.monitors.update(monitorId!, {
      transcript: 'Agent: Acme, good morning.\nCaller: I would like to upgrade my plan.',
      summary: 'Caller wants to upgrade',
      sentiment: 'positive',
    });
    const updated = await eventually(async () => {
      const rows = await callLog(callId);
      return rows[0]?.transcript_excerpt ? rows[0] : undefined;
    }, 'the transcript on the call log');
    expect(updated.summary).toBe('Caller wants to upgrade');
    expect(updated.body).toMatch(
      /^IVR keys pressed: 2\nIVR route: 2 → Amelia \(101\)\n\nSummary: Caller wants to upgrade/,
    );
    expect(updated.id).toBe(log!.id);
    expect(await callLog(callId)).toHaveLength(1);
    const mapped = await h.deps.warehouse.db
      .selectFrom('crm_objects')
      .selectAll()
      .where('source_key', '=', `acme:${callId}`)
      .execute();
    expect(mapped).toHaveLength(1);
  });

  it('tells a waiting call of its transcript from the recordings sync, once per change', async () => {
    const syncRecordings = (n: number) =>
      h.client.workflow.execute(syncStreamWorkflow, {
        taskQueue: h.taskQueue,
        workflowId: `sync-calls-recordings-${n}`,
        args: [{ account: 'acme', stream: 'recordings' }],
      });
    const { callId, monitorId } = makeCall(contact.tel, 'connected');
    // The warehouse has the recording, without its transcript, as the recordings sync left it.
    await syncRecordings(1);
    await deliver(callId, [
      event(callId, 1, 'call.ringing', contact.tel),
      event(callId, 2, 'call.connected', contact.tel),
      event(callId, 3, 'call.hangup', contact.tel),
    ]);
    await eventually(async () => ((await callLog(callId)).length > 0 ? true : undefined), 'the call log');

    h.emulator.store.tables.monitors.update(monitorId!, { transcript: 'Caller: Is my order on its way?' });
    await syncRecordings(2);
    const updated = await eventually(async () => {
      const rows = await callLog(callId);
      return rows[0]?.transcript_excerpt ? rows[0] : undefined;
    }, 'the transcript on the call log');
    expect(updated.transcript_excerpt).toMatch(/order on its way/);
    // A third read finds nothing new: the call is not told again.
    await syncRecordings(3);
    const history = await h.client.workflow.getHandle(callWorkflowId('acme', callId)).fetchHistory();
    // The history's payloads are encrypted (as in production): read the signals through the codec.
    const codec = payloadCodecFromConfig(h.config.temporal)!;
    const notes = [];
    for (const e of history.events ?? []) {
      const payloads = await codec.decode(e.workflowExecutionSignaledEventAttributes?.input?.payloads ?? []);
      const seen = payloads.some((p) =>
        Buffer.from(p.data ?? [])
          .toString()
          .includes(`"transcript-seen-${monitorId}"`),
      );
      if (seen) notes.push(e);
    }
    expect(notes).toHaveLength(1);
    // The note moved the workflow along; the call's timeline holds only the platform's events.
    const { rows } = await sql<{ n: number }>`
      select count(*)::int as n from call_events
      where account = 'acme' and call_id = ${callId} and name like 'callsync.%'`.execute(h.deps.warehouse.db);
    expect(rows[0]!.n).toBe(0);
  });

  it("tells a waiting call of the transcript callsync's own transcription wrote", async () => {
    const { callId, monitorId } = makeCall(contact.tel, 'connected');
    await deliver(callId, [
      event(callId, 1, 'call.ringing', contact.tel),
      event(callId, 2, 'call.connected', contact.tel),
      event(callId, 3, 'call.hangup', contact.tel),
    ]);
    await eventually(async () => ((await callLog(callId)).length > 0 ? true : undefined), 'the call log');
    // What transcribeRecording does once Speech-to-Text answered: PATCH the monitor, tell the call.
    const monitor = await h.deps
      .platform('acme')
      .history.monitors.update(monitorId!, { transcript: 'Agent: Your refund is on its way.' });
    expect(await nudgeTranscribed(h.client, 'acme', monitor)).toBe(true);
    const updated = await eventually(async () => {
      const rows = await callLog(callId);
      return rows[0]?.transcript_excerpt ? rows[0] : undefined;
    }, 'the transcript on the call log');
    expect(updated.transcript_excerpt).toMatch(/refund is on its way/);
    // A recording of no call (or of a call whose follow-up has ended) tells nobody.
    expect(await nudgeTranscribed(h.client, 'acme', { ...monitor, live_id: 999_999_999 })).toBe(false);
  });

  it('opens one callback task for a missed caller, updates it on the next miss, closes it when a call connects', async () => {
    const caller = '+442079460777';
    const openTasks = () =>
      h.deps.warehouse.db
        .selectFrom('builtin_tasks')
        .selectAll()
        .where('caller_number', '=', caller)
        .execute();

    const first = makeCall(caller, 'missed');
    await deliver(first.callId, [
      event(first.callId, 1, 'call.ringing', caller, 'QUEUE'),
      event(first.callId, 2, 'call.missed', caller, 'QUEUE'),
      event(first.callId, 3, 'call.hangup', caller, 'QUEUE'),
    ]);
    const [task] = await eventually(async () => {
      const rows = await openTasks();
      return rows.length > 0 ? rows : undefined;
    }, 'the callback task');
    expect(task).toMatchObject({ status: 'open', caller_number: caller });

    const second = makeCall(caller, 'missed');
    await deliver(second.callId, [
      event(second.callId, 1, 'call.missed', caller),
      event(second.callId, 2, 'call.hangup', caller),
    ]);
    await eventually(async () => {
      const rows = await openTasks();
      return rows[0]?.body.includes(String(second.callId)) ? rows : undefined;
    }, 'the second missed call on the task');
    expect(await openTasks()).toHaveLength(1);

    const reached = makeCall(caller, 'connected');
    await deliver(reached.callId, [
      event(reached.callId, 1, 'call.connected', caller),
      event(reached.callId, 2, 'call.hangup', caller),
    ]);
    const closed = await eventually(async () => {
      const rows = await openTasks();
      return rows[0]?.status === 'closed' ? rows : undefined;
    }, 'the task to close');
    expect(closed).toHaveLength(1);
  });

  it('opens the callback as soon as the missed call ends, before its CDR', async () => {
    const caller = '+442079460888';
    // No call of the emulator's (its live ids start at 880 000 001 and the seeded CDRs and makeCall
    // use them): a CDR found for this id would end the wait early.
    const callId = 980_000_000 + (process.pid % 100_000);
    await deliver(callId, [
      event(callId, 1, 'call.ringing', caller, 'QUEUE'),
      event(callId, 2, 'call.missed', caller, 'QUEUE'),
      event(callId, 3, 'call.hangup', caller, 'QUEUE'),
    ]);
    const [task] = await eventually(async () => {
      const rows = await h.deps.warehouse.db
        .selectFrom('builtin_tasks')
        .selectAll()
        .where('caller_number', '=', caller)
        .execute();
      return rows.length > 0 ? rows : undefined;
    }, 'the callback task');
    expect(task).toMatchObject({ status: 'open' });
    expect(task!.body).toContain(String(callId));
    const handle = h.client.workflow.getHandle(callWorkflowId('acme', callId));
    expect(await handle.query(callStateQuery)).toMatchObject({
      ended: true,
      cdr: null,
      callbackOpened: true,
    });
    await handle.terminate('test done');
  });

  /** A platform webhook body of `callId`'s, as the receiver stores it and the relay hands it over. */
  const webhookBody = (callId: number, id: string, i: number, name: string): string =>
    JSON.stringify({
      id,
      event_time: `2026-11-01 12:${String(Math.floor(i / 60)).padStart(2, '0')}:${String(i % 60).padStart(2, '0')}`,
      event_name: name,
      call_id: callId,
      state: name.split('.')[1]!.toUpperCase(),
      context: 'LOCAL_USER',
      destination: 'in',
      src: contact.tel,
      dst: '101',
    });
  /** The signal the relay makes of a stored body. */
  const signalOf = (b: string): CallEventSignal => {
    const stored = storedCallSignal(JSON.parse(b));
    if (!stored.ok) throw new Error(stored.error);
    return stored.signal;
  };
  /** Signals `events` one by one to the call's workflow, starting it with a short history limit. */
  const signalShort = (callId: number, events: CallEventSignal[], historyLimit = 30) =>
    Promise.all(
      events.map((e) =>
        h.client.workflow.signalWithStart(callLifecycleWorkflow, {
          workflowId: callWorkflowId('acme', callId),
          taskQueue: h.taskQueue,
          args: [{ account: 'acme', callId, historyLimit }],
          signal: callEventSignal,
          signalArgs: [e],
        }),
      ),
    );

  it('continues a call with hundreds of events as new, keeping its state, its timeline and every event', async () => {
    const { callId } = makeCall(contact.tel, 'connected');
    const body = (i: number, name: string) => webhookBody(callId, `${callId}-many-${i}`, i, name);
    const bodies = Array.from({ length: 300 }, (_, i) => body(i, i % 2 === 0 ? 'call.hold' : 'call.unhold'));
    // The call starts with a short history limit (60 events: a few runs, each of them a hand-over;
    // 30 made ~40 of them, too slow for a loaded CI machine); the rest comes the production way: the
    // receiver's inbox, then the relay's signals (five events a batch, two batches side by side), so
    // that signals arrive while runs hand over.
    const inbox = new InboxWriter(h.deps.warehouse.pool);
    await storeWebhook(inbox, 'acme', bodies[0]!);
    await signalShort(callId, [signalOf(bodies[0]!)], 60);
    const relay = new Relay({
      pool: h.deps.warehouse.pool,
      signal: temporalSignaller(h.client, h.taskQueue),
      logger: silentLogger,
      batchSize: 5,
      pollMs: 20,
    });
    relay.start();
    const handle = h.client.workflow.getHandle(callWorkflowId('acme', callId));
    // What the call's state and its timeline say, so a failure tells lost events from slow hand-overs.
    const facts = async () => {
      const st = await handle.query(callStateQuery).catch((err: unknown) => String(err));
      const saved = await sql<{ n: number }>`
        select count(*)::int as n from call_events where account = 'acme' and call_id = ${callId}`.execute(
        h.deps.warehouse.db,
      );
      const inbox = await sql<{ status: string; n: number }>`
        select status, count(*)::int as n from webhook_inbox where account = 'acme' and call_id = ${callId}
         group by status`.execute(h.deps.warehouse.db);
      return `state ${JSON.stringify(st)}; timeline ${saved.rows[0]?.n}; inbox ${JSON.stringify(inbox.rows)}`;
    };
    const story = async () =>
      `${await facts()}\n${await workflowStory(handle)}\n${await chainStory(
        h.client,
        handle.workflowId,
        payloadCodecFromConfig(h.config.temporal),
        [`"${callId}-many-299"`, `"${callId}-9"`],
      )}`;
    try {
      for (let i = 1; i < bodies.length; i += 10) {
        await Promise.all(bodies.slice(i, i + 10).map((b) => storeWebhook(inbox, 'acme', b)));
        relay.wake();
      }
      const live = await eventually(
        async () => {
          const st = await handle.query(callStateQuery);
          // At least one hand-over (60 signals alone pass the 60-event limit); a second is not sure:
          // signals that come together share a workflow task, and a run that takes in the last of
          // them below the limit has nothing left to hand over (a loaded CI machine saw 1).
          return st.events === 300 && st.continuedRuns >= 1 ? st : undefined;
        },
        'every event taken in, over more than one run',
        150_000,
        story,
      );
      expect(live.ended).toBe(false);
      // Redeliveries after the hand-over (a relay that signalled but died before marking its rows
      // done sends them again) are still recognised.
      await signalShort(callId, bodies.slice(0, 20).map(signalOf), 60);
      await storeWebhook(inbox, 'acme', webhookBody(callId, `${callId}-9`, 9, 'call.hangup'));
      relay.wake();
      const logged = await eventually(
        async () => {
          const rows = await callLog(callId);
          return rows.length > 0 ? rows : undefined;
        },
        'the call log',
        60_000,
        story,
      );
      expect(logged).toHaveLength(1);
    } finally {
      await relay.stop();
    }
    expect((await handle.query(callStateQuery)).events).toBe(301);
    const { rows } = await sql<{ n: number }>`
      select count(*)::int as n from call_events where account = 'acme' and call_id = ${callId}`.execute(
      h.deps.warehouse.db,
    );
    expect(rows[0]!.n).toBe(301);
    // The run now going holds a bounded part of the history, not 300 signals.
    const history = await handle.fetchHistory();
    expect(history.events?.length ?? 0).toBeLessThan(250);
  });
  it('reads back, after a hand-over, an event the relay sent but the workflow never received', async () => {
    const { callId } = makeCall(contact.tel, 'connected');
    const handle = h.client.workflow.getHandle(callWorkflowId('acme', callId));
    const inbox = new InboxWriter(h.deps.warehouse.pool);
    // Each event as the receiver stores it and the relay signals it (the relay itself is not running).
    const deliver = async (bodies: string[]) => {
      await Promise.all(bodies.map((b) => storeWebhook(inbox, 'acme', b)));
      await signalShort(callId, bodies.map(signalOf));
    };
    await deliver([webhookBody(callId, `${callId}-first`, 0, 'call.ringing')]);
    // The relay stored and signalled this event and marked its row done, and the signal was lost (as
    // Temporal's SDK can lose one that races a hand-over): the workflow never saw it.
    const lost = webhookBody(callId, `${callId}-lost`, 1, 'call.connected');
    await storeWebhook(inbox, 'acme', lost);
    const claimed = await claimInboxRows(h.deps.warehouse.pool, 1000);
    await markInboxDone(
      h.deps.warehouse.pool,
      claimed.filter((c) => c.event_id === `${callId}-lost`).map((c) => c.id),
    );
    // And one whose signal was lost in a workflow task the server refused after that task had saved
    // it to the timeline (its local activity ran): on the timeline, yet never taken in by any run.
    const savedButLost = webhookBody(callId, `${callId}-saved-lost`, 1, 'call.hold');
    await storeWebhook(inbox, 'acme', savedButLost);
    const claimedToo = await claimInboxRows(h.deps.warehouse.pool, 1000);
    await markInboxDone(
      h.deps.warehouse.pool,
      claimedToo.filter((c) => c.event_id === `${callId}-saved-lost`).map((c) => c.id),
    );
    await addCallEvents(h.deps.warehouse.db, 'acme', callId, [
      {
        eventId: `${callId}-saved-lost`,
        name: 'call.hold',
        time: null,
        state: null,
        context: null,
        detail: {},
      },
    ]);
    expect((await handle.query(callStateQuery)).events).toBe(1);
    // Enough events for the workflow to hand over to a new run.
    const more = Array.from({ length: 40 }, (_, i) =>
      webhookBody(callId, `${callId}-more-${i}`, i + 2, i % 2 === 0 ? 'call.hold' : 'call.unhold'),
    );
    for (let i = 0; i < more.length; i += 5) await deliver(more.slice(i, i + 5));
    const st = await eventually(
      async () => {
        const now = await handle.query(callStateQuery);
        return now.events === 43 && now.continuedRuns >= 1 ? now : undefined;
      },
      'the lost events read back by the run that took over',
      60_000,
      () => workflowStory(handle),
    );
    expect(st.ended).toBe(false);
    await deliver([webhookBody(callId, `${callId}-end`, 50, 'call.hangup')]);
    await eventually(
      async () => ((await callLog(callId)).length > 0 ? true : undefined),
      'the call log',
      60_000,
      () => workflowStory(handle),
    );
    const saved = await h.deps.warehouse.db
      .selectFrom('call_events')
      .select('event_id')
      .where('account', '=', 'acme')
      .where('event_id', '=', `${callId}-lost`)
      .execute();
    expect(saved).toHaveLength(1);
  });
  it('keeps on the timeline an event that arrives while the last events are being saved', async () => {
    const callId = makeCall('+442079460555', 'missed').callId;
    const queue = 'calls-late-events';
    const signal = (e: CallEventSignal) =>
      h.client.workflow.signalWithStart(callLifecycleWorkflow, {
        workflowId: callWorkflowId('acme', callId),
        taskQueue: queue,
        args: [{ account: 'acme', callId }],
        signal: callEventSignal,
        signalArgs: [e],
      });
    const trigger = { ...event(callId, 4, 'call.missed', '+442079460555'), eventId: `${callId}-trigger` };
    const late = { ...event(callId, 5, 'call.missed', '+442079460555'), eventId: `${callId}-late` };
    // The real activities, with the relay's timing forced: one event arrives while the call is being
    // logged (so the workflow's last save holds it), another while that last save runs. (The save is
    // a local activity, run again when its workflow task is retried: the late event comes once.)
    const real = createActivities(h.deps);
    let lateSent = false;
    const activities = {
      ...real,
      async logCall(input: Parameters<typeof real.logCall>[0]) {
        const out = await real.logCall(input);
        if (input.callId === callId) await signal(trigger);
        return out;
      },
      async recordCallEvents(input: Parameters<typeof real.recordCallEvents>[0]) {
        const out = await real.recordCallEvents(input);
        if (!lateSent && input.events.some((e) => e.eventId === trigger.eventId)) {
          lateSent = true;
          await signal(late);
        }
        return out;
      },
    };
    const connection = await NativeConnection.connect({ address: h.temporal.address });
    try {
      const workers = await Promise.all(
        [queue, crmTaskQueue(queue)].map((taskQueue) =>
          Worker.create({
            connection,
            taskQueue,
            activities,
            workflowsPath: require.resolve('../../workflows'),
            // The harness's client encrypts (as in production): this worker must read its payloads.
            dataConverter: temporalDataConverter(h.config.temporal),
          }),
        ),
      );
      const run = async () => {
        await signal(event(callId, 1, 'call.ringing', '+442079460555'));
        await signal(event(callId, 3, 'call.hangup', '+442079460555'));
        await h.client.workflow.getHandle(callWorkflowId('acme', callId)).result();
      };
      await workers[1]!.runUntil(workers[0]!.runUntil(run()));
    } finally {
      await connection.close();
    }
    const saved = await h.deps.warehouse.db
      .selectFrom('call_events')
      .select('event_id')
      .where('account', '=', 'acme')
      .where('call_id', '=', callId)
      .execute();
    expect(saved.map((r) => r.event_id).sort()).toEqual(
      [`${callId}-1`, `${callId}-3`, trigger.eventId, late.eventId].sort(),
    );
  });
});
