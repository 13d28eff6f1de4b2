// Webhooks and polling reconcile each other, on the product's call workflow (`callLifecycle` with
// its activities, against the emulator, a Temporal dev server, PostgreSQL and the built-in CRM): a
// recent call no webhook announced gets its lifecycle (once), which logs it from its CDR; a running
// lifecycle learns that its CDR exists, so a lost hangup webhook no longer keeps it waiting; and a
// lifecycle that already finished is neither repeated nor an error.
import {
  cdrSeenEvent,
  followCdrPage,
  notifyAnnouncedCalls,
  reconcileCalls,
} from '../../activities/reconcile';
import type { Cdr } from '../../connectors/platform';
import {
  CDR_SEEN_EVENT,
  callEventSignal,
  callLifecycleWorkflow,
  callStateQuery,
  callWorkflowId,
  type CallEventSignal,
  type CallState,
} from '../../contracts';
import { payloadCodecFromConfig } from '../../lib/encryption-keys';
import { InboxWriter } from '../../server/inbox-writer';
import { eventually } from '../support/eventually';
import { workflowStory } from '../support/workflow-story';
import { signalledEvents } from './call-signals';
import { missedCall } from './missed-call';
import { startSyncHarness, type SyncHarness } from './sync-harness';

jest.setTimeout(120_000);

const ACCOUNT = 'acme';
const HOUR = 3_600_000;
const CALLER = '+442079460555';
const cdr = (id: number, liveId: number, calldate: string): Cdr => ({ id, live_id: liveId, calldate });

describe('reconcileCalls', () => {
  let h: SyncHarness;

  beforeAll(async () => {
    h = await startSyncHarness({ label: 'reconcile-calls', cdrs: 5 });
  }, 180_000);
  afterAll(async () => {
    await h?.close();
  });

  const handle = (callId: number) => h.client.workflow.getHandle(callWorkflowId(ACCOUNT, callId));
  /** The call's follow-up as its workflow reports it, once the workflow answers queries. */
  const state = (callId: number, what: string, ready: (s: CallState) => boolean = () => true) =>
    eventually(
      async () => {
        const s = await handle(callId)
          .query(callStateQuery)
          .catch(() => undefined); // no workflow task done yet
        return s && ready(s) ? s : undefined;
      },
      what,
      60_000,
      () => workflowStory(handle(callId)),
    );
  /** The names of the events signalled to the call's workflow, in the order it took them in. */
  const signalled = async (callId: number) =>
    (await signalledEvents(h.client, payloadCodecFromConfig(h.config.temporal), ACCOUNT, callId)).map(
      (e) => e.name,
    );
  const callLogs = (callId: number) =>
    h.deps.warehouse.db
      .selectFrom('builtin_call_logs')
      .select(['id', 'status'])
      .where('key', '=', `${ACCOUNT}:${callId}`)
      .execute();
  const logged = (callId: number) =>
    eventually(
      async () => {
        const rows = await callLogs(callId);
        return rows.length > 0 ? rows : undefined;
      },
      `the call log of ${callId}`,
      60_000,
      () => workflowStory(handle(callId)),
    );
  const notStarted = (callId: number) => expect(handle(callId).describe()).rejects.toThrow();

  /**
   * An answered inbound call in the emulator (its CDR) whose transcript has not come yet: its
   * lifecycle logs it and stays to add the transcript. Returns its call id.
   */
  function answeredCall(): number {
    const store = h.emulator.store;
    const [row] = store.addCdrs(h.emulator.admin.customer_id, 1);
    store.tables.cdrs.update(row!.id, {
      type: 'I',
      src: CALLER,
      dst: '101',
      billsec: 90,
      duration: 100,
      disposition: 'CONNECTED',
      t_cause: 'Normal Clearing',
    });
    const callId = Number(row!.live_id);
    // No transcript yet (the emulator may have made one): the lifecycle waits for it, still running.
    const monitors = store.tables.monitors.query(h.emulator.admin.customer_id, {
      page: 1,
      limit: 5,
      filter: [{ property: 'live_id', operator: 'eq', value: callId }],
    }).data;
    for (const m of monitors) store.tables.monitors.update(Number(m.id), { transcript: null, summary: null });
    return callId;
  }

  /** A call its webhooks announced and whose lifecycle has finished (the call logged, nothing left to do). */
  async function finishedCall(caller: string): Promise<{ callId: number; runId: string }> {
    const callId = await missedCall(h, caller);
    await handle(callId).result();
    expect(await callLogs(callId)).toHaveLength(1);
    return { callId, runId: (await handle(callId).describe()).runId };
  }
  /** Still the one finished run, and still one call log: nothing ran again. */
  async function leftAlone(finished: { callId: number; runId: string }): Promise<void> {
    const now = await handle(finished.callId).describe();
    expect(now.status.name).toBe('COMPLETED');
    expect(now.runId).toBe(finished.runId);
    expect(await callLogs(finished.callId)).toHaveLength(1);
  }

  /** Starts the call's lifecycle with its ringing event, as its webhooks do; its hangup webhook is lost. */
  async function ringing(callId: number): Promise<void> {
    await h.client.workflow.signalWithStart(callLifecycleWorkflow, {
      workflowId: callWorkflowId(ACCOUNT, callId),
      taskQueue: h.taskQueue,
      args: [{ account: ACCOUNT, callId }],
      signal: callEventSignal,
      signalArgs: [ringingEvent(callId)],
    });
    await new InboxWriter(h.deps.warehouse.pool).write({
      account: ACCOUNT,
      eventId: `call-${callId}-ringing`,
      eventName: 'call.ringing',
      callId,
      body: JSON.stringify({ id: `call-${callId}-ringing`, event_name: 'call.ringing', call_id: callId }),
    });
    // Waiting for the call to end: the live wait (hours) is all that would end it.
    expect(await state(callId, 'the ringing event', (s) => s.events === 1)).toMatchObject({
      ended: false,
      cdr: null,
    });
  }

  it('starts recent unannounced calls once, tells running ones their CDR exists, leaves finished ones alone', async () => {
    // Call `over` was announced by its webhooks and is over: its lifecycle logged it and finished.
    const over = await finishedCall('+442079460503');
    // Call `answered` had no webhook (all lost) and its CDR is in the platform; call 502 neither,
    // and its CDR is not readable yet.
    const answered = answeredCall();
    const opts = {
      account: ACCOUNT,
      taskQueue: h.taskQueue,
      windowMs: 24 * HOUR,
      newest: '2026-11-01 10:00:00',
    };
    const page = [
      cdr(1, answered, '2026-11-01 09:00:00'),
      cdr(2, 502, '2026-11-01 09:30:00'),
      cdr(3, 502, '2026-11-01 09:30:04'), // a second leg of call 502
      cdr(4, over.callId, '2026-11-01 08:00:00'),
      cdr(5, 504, '2026-10-30 09:00:00'), // history, not a call in flight
    ];
    expect(await reconcileCalls(h.client, opts, page)).toBe(2);

    // Started from the CDR: the call has ended, no event came; the lifecycle logs it from its CDR.
    expect(await state(502, 'the lifecycle of 502')).toMatchObject({ events: 0, ended: true, cdr: null });
    const [log] = await logged(answered);
    expect(log!.status).toBe('completed');
    expect(await state(answered, 'the CDR read', (s) => s.cdr !== null)).toMatchObject({
      events: 0,
      ended: true,
      cdr: { cdrId: expect.any(Number) as number, connected: true },
    });
    await notStarted(504);

    // The next page (or run) sees the same calls again: nothing starts twice, and the running
    // lifecycles hear that their CDR exists (a lost hangup webhook no longer keeps them waiting).
    expect(await reconcileCalls(h.client, opts, page)).toBe(0);
    for (const callId of [answered, 502]) {
      await state(callId, `the CDR-seen signal of ${callId}`, (s) => s.events === 1);
      expect(await signalled(callId)).toEqual([CDR_SEEN_EVENT]);
    }
    expect(await callLogs(answered)).toHaveLength(1);
    await leftAlone(over);
  });

  it('tells the waiting lifecycles of announced calls on a history page their CDR exists, and starts none', async () => {
    // Call `waiting`'s webhooks started its lifecycle, and its hangup webhook was lost; call
    // `over`'s lifecycle finished; call 603 had no webhook (a call from history).
    const waiting = answeredCall();
    await ringing(waiting);
    const over = await finishedCall('+442079460602');
    await new InboxWriter(h.deps.warehouse.pool).write({
      account: ACCOUNT,
      eventId: `inbox-${over.callId}`,
      eventName: 'call.ringing',
      callId: over.callId,
      body: JSON.stringify({ id: `inbox-${over.callId}`, event_name: 'call.ringing', call_id: over.callId }),
    });
    // The page of a first read (or a backfill window): whatever its dates, nothing starts.
    const page = [
      cdr(1, waiting, '2026-11-01 09:00:00'),
      cdr(2, over.callId, '2026-11-01 09:00:00'),
      cdr(3, 603, '2026-11-01 09:00:00'),
    ];
    expect(await notifyAnnouncedCalls(h.client, h.deps.warehouse.pool, ACCOUNT, page)).toBe(1);
    // The CDR ended the wait: the call is followed up from its CDR and logged.
    expect(await state(waiting, 'the CDR-seen signal', (s) => s.events === 2)).toMatchObject({ ended: true });
    expect(await signalled(waiting)).toEqual(['call.ringing', CDR_SEEN_EVENT]);
    expect(await logged(waiting)).toHaveLength(1);
    await notStarted(603);
    await leftAlone(over);
  });

  it('tells an announced call its CDR exists when the CDR comes later than the reconcile window', async () => {
    // Call `waiting`'s webhooks started its lifecycle and its hangup was lost; its CDR arrives hours
    // late, older than the window on an incremental page. Call 702 is as old and nobody announced it.
    const waiting = answeredCall();
    await ringing(waiting);
    const page = [cdr(11, waiting, '2026-11-20 08:00:00'), cdr(12, 702, '2026-11-20 08:00:00')];
    await followCdrPage(
      h.client,
      h.deps.warehouse.pool,
      {
        account: ACCOUNT,
        taskQueue: h.taskQueue,
        windowMs: HOUR,
        newest: '2026-11-20 12:00:00',
        reconcile: true,
      },
      page,
    );
    expect(await state(waiting, 'the CDR-seen signal', (s) => s.events === 2)).toMatchObject({ ended: true });
    expect(await signalled(waiting)).toEqual(['call.ringing', CDR_SEEN_EVENT]);
    expect(await logged(waiting)).toHaveLength(1);
    await notStarted(702);
  });

  it("starts the calls a first read finds after the history's end, and none of the history's", async () => {
    // The first read began when CDR 20 was the newest: call 801 is history, call `watched`'s CDR was
    // written while callsync read (its webhooks all lost), call 803's too but a day older by date.
    const watched = answeredCall();
    const page = [
      cdr(19, 801, '2026-11-20 11:00:00'),
      cdr(21, watched, '2026-11-20 11:30:00'),
      cdr(22, 803, '2026-11-19 09:00:00'),
    ];
    await followCdrPage(
      h.client,
      h.deps.warehouse.pool,
      {
        account: ACCOUNT,
        taskQueue: h.taskQueue,
        windowMs: 24 * HOUR,
        newest: '2026-11-20 11:30:00',
        reconcile: false,
        watchedAfterId: 20,
      },
      page,
    );
    // Started from its CDR (no event came), and logged from it.
    expect(await logged(watched)).toHaveLength(1);
    expect(await state(watched, 'the lifecycle of the watched call')).toMatchObject({
      events: 0,
      ended: true,
    });
    await notStarted(801);
    // Watched, but outside the reconcile window: as on an incremental page, not started.
    await notStarted(803);
  });
});

/** The ringing event of an inbound call (its webhook, as the relay signals it). */
function ringingEvent(callId: number): CallEventSignal {
  return {
    ...cdrSeenEvent(callId),
    eventId: `call-${callId}-ringing`,
    name: 'call.ringing',
    state: 'RINGING',
    context: 'LOCAL_USER',
    destination: 'in',
    src: CALLER,
    dst: '101',
  };
}
