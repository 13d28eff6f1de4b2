// Callbacks open and close on the right facts, on the real call lifecycle and callback workflows
// (emulator, Temporal, PostgreSQL, built-in CRM): a callback is open for a caller exactly when their
// latest call was missed and nothing later reached them. "Later" is by the calls' start times (the
// CDR's calldate, the events' start_time), ties broken by call id. Each case is a way the world is
// late or out of order: a ring group's missed leg of an answered call, a connected event that comes
// after the hangup, a call that began before the miss and ended after it, and calls whose follow-ups
// finish in the other order.
import { WorkflowNotFoundError } from '@temporalio/client';
import {
  callbackStateQuery,
  callConnectedSignal,
  callLifecycleWorkflow,
  callStateQuery,
  callWorkflowId,
  type CallbackState,
  type CallEventSignal,
} from '../../contracts';
import { eventually } from '../support/eventually';
import { workflowStory } from '../support/workflow-story';
import { callbackIdOf, deliverCallEvents } from './missed-call';
import { startSyncHarness, type SyncHarness } from './sync-harness';

jest.setTimeout(240_000);

describe('callbacks follow the order of calls', () => {
  let h: SyncHarness;

  beforeAll(async () => {
    h = await startSyncHarness({ label: 'callback-order', cdrs: 200 });
  }, 180_000);

  afterAll(async () => {
    await h?.close();
  });

  interface Call {
    callId: number;
    /** The CDR's calldate (`YYYY-MM-DD HH:MM:SS`), also the events' start_time. */
    start: string;
  }

  /**
   * A finished inbound call from `caller` in the emulator, a minute after the previous one. A call
   * answered after a missed leg (ring group) has two CDRs under one live id: the missed leg and the
   * answered one.
   */
  function addCall(caller: string, kind: 'missed' | 'connected' | 'missed-leg-then-connected'): Call {
    const store = h.emulator.store;
    const customer = h.emulator.admin.customer_id;
    store.clock.advance(60_000);
    const legs = kind === 'missed-leg-then-connected' ? ['missed', 'connected'] : [kind];
    let first: { callId: number; start: string } | undefined;
    for (const leg of legs) {
      const [cdr] = store.addCdrs(customer, 1);
      const answered = leg === 'connected';
      store.tables.cdrs.update(cdr!.id, {
        type: answered ? 'I' : 'M',
        src: caller,
        dst: '101',
        billsec: answered ? 90 : 0,
        duration: answered ? 100 : 20,
        disposition: answered ? 'CONNECTED' : 'RINGING',
        t_cause: answered ? 'Normal Clearing' : 'No user responding',
        ...(first ? { live_id: first.callId } : {}),
      });
      first ??= { callId: Number(cdr!.live_id), start: String(cdr!.calldate) };
    }
    return first!;
  }

  /** A platform event of `call` as the relay signals it, carrying the call's start_time. */
  const event = (call: Call, n: number, name: string, caller: string, dstId = 120001): CallEventSignal => ({
    eventId: `${call.callId}-${n}`,
    name,
    time: call.start,
    state: name.split('.')[1]!.toUpperCase(),
    context: 'LOCAL_USER',
    destination: 'in',
    src: caller,
    dst: '101',
    srcId: null,
    dstId,
    srcName: null,
    dstName: null,
    duration: n,
    tCause: null,
    connectedAt: null,
    startTime: call.start,
    digits: null,
  });

  const missedEvents = (call: Call, caller: string) => [
    event(call, 1, 'call.missed', caller),
    event(call, 2, 'call.hangup', caller),
  ];
  const connectedEvents = (call: Call, caller: string) => [
    event(call, 1, 'call.connected', caller),
    event(call, 2, 'call.hangup', caller),
  ];

  /**
   * The call's state once it is logged: queried while the lifecycle runs, its result once it has
   * ended (a query on a closed workflow replays its history, which a loaded worker may not answer).
   */
  const callLogged = (callId: number) =>
    eventually(
      async () => {
        const handle = h.client.workflow.getHandle<typeof callLifecycleWorkflow>(
          callWorkflowId('acme', callId),
        );
        const running = (await handle.describe().catch(() => undefined))?.status.name === 'RUNNING';
        const st = running
          ? await handle.query(callStateQuery).catch(() => undefined)
          : await handle.result().catch(() => undefined);
        return st?.log ? st : undefined;
      },
      `call ${callId} logged`,
      60_000,
      () => workflowStory(h.client.workflow.getHandle(callWorkflowId('acme', callId))),
    );

  const tasksOf = (caller: string) =>
    h.deps.warehouse.db.selectFrom('builtin_tasks').selectAll().where('caller_number', '=', caller).execute();

  const callbackOf = (caller: string) => h.client.workflow.getHandle(callbackIdOf(h, caller));

  /** The callback's state once `done` holds (its history printed when it never does). */
  const callbackWhen = (caller: string, what: string, done: (s: CallbackState) => boolean) =>
    eventually(
      async () => {
        const s = await callbackOf(caller)
          .query(callbackStateQuery)
          .catch(() => undefined);
        return s && done(s) ? s : undefined;
      },
      what,
      60_000,
      () => workflowStory(callbackOf(caller)),
    );

  it('opens no callback for the missed leg of a call another agent answered', async () => {
    const caller = '+442079461201';
    const call = addCall(caller, 'missed-leg-then-connected');
    // Agent 1's leg is missed first; agent 2 answers; then the call ends.
    await deliverCallEvents(h, call.callId, [event(call, 1, 'call.missed', caller, 120001)]);
    await deliverCallEvents(h, call.callId, [
      event(call, 2, 'call.connected', caller, 120002),
      event(call, 3, 'call.hangup', caller, 120002),
    ]);
    const state = await callLogged(call.callId);
    expect(state.callbackOpened).toBe(false);
    expect(state.cdr).toMatchObject({ connected: true });
    // No callback was ever started for the caller, so no task either.
    await expect(callbackOf(caller).describe()).rejects.toBeInstanceOf(WorkflowNotFoundError);
    expect(await tasksOf(caller)).toEqual([]);
  });

  it('does not keep as missed a call that connected after its hangup was heard', async () => {
    const caller = '+442079461202';
    const call = addCall(caller, 'missed-leg-then-connected');
    // The connected event is late (or lost): the call ends as missed, then its CDR says answered.
    await deliverCallEvents(h, call.callId, missedEvents(call, caller));
    await callLogged(call.callId);
    const final = await callbackWhen(
      caller,
      'the callback to let go of the answered call',
      (s) => s.status !== 'open',
    );
    expect(final).toMatchObject({ status: 'closed', closedByCallId: call.callId });
    expect(final.missed.map((m) => m.callId)).not.toContain(call.callId);
    // The query shows the closed state before the workflow's last task write: wait for its end.
    await callbackOf(caller).result();
    expect((await tasksOf(caller)).filter((t) => t.status === 'open')).toEqual([]);
  });

  it('is not closed by a call that started before the miss, and is by one that started after', async () => {
    const caller = '+442079461203';
    const earlier = addCall(caller, 'connected');
    const missed = addCall(caller, 'missed');
    const later = addCall(caller, 'connected');
    await deliverCallEvents(h, missed.callId, missedEvents(missed, caller));
    await eventually(
      async () => ((await tasksOf(caller)).length > 0 ? true : undefined),
      'the callback task',
    );

    // The earlier call ends after the miss (a long call): its follow-up tells the callback, which stays open.
    await deliverCallEvents(h, earlier.callId, connectedEvents(earlier, caller));
    await callLogged(earlier.callId);
    await eventually(async () => {
      const history = await callbackOf(caller).fetchHistory();
      const told = (history.events ?? []).some(
        (e) => e.workflowExecutionSignaledEventAttributes?.signalName === 'callConnected',
      );
      return told ? true : undefined;
    }, 'the earlier call to reach the callback');
    const open = await callbackOf(caller).query(callbackStateQuery);
    expect(open).toMatchObject({ status: 'open', closedByCallId: null });
    expect(open.missed.map((m) => m.callId)).toEqual([missed.callId]);

    await deliverCallEvents(h, later.callId, connectedEvents(later, caller));
    const closed = await callbackWhen(
      caller,
      'the later call to close the callback',
      (s) => s.status !== 'open',
    );
    expect(closed).toMatchObject({ status: 'closed', closedByCallId: later.callId });
    const [task] = await eventually(async () => {
      const rows = await tasksOf(caller);
      return rows[0]?.status === 'closed' ? rows : undefined;
    }, 'the task closed');
    expect(task!.body).toContain(`Reached by call ${later.callId}`);
  });

  it('closes, without a task, a callback whose missed call is older than a call already followed', async () => {
    const caller = '+442079461204';
    const missed = addCall(caller, 'missed');
    const reached = addCall(caller, 'connected');
    // The later call's follow-up finishes first; the missed call's ends after it.
    await deliverCallEvents(h, reached.callId, connectedEvents(reached, caller));
    await callLogged(reached.callId);
    await deliverCallEvents(h, missed.callId, missedEvents(missed, caller));
    await callLogged(missed.callId);
    const final = await callbackWhen(caller, 'the callback to close', (s) => s.status !== 'open');
    expect(final).toMatchObject({ status: 'closed', closedByCallId: reached.callId });
    expect(await callbackOf(caller).result()).toMatchObject({ status: 'closed' });
    expect(await tasksOf(caller)).toEqual([]);
  });

  it.each([
    ['no start time (ordered by the event time)', '+442079461206', false],
    ['neither a start nor an event time (opened from the CDR)', '+442079461207', true],
  ])(
    'keeps open a missed call whose events carry %s when the caller was reached before',
    async (_, caller, noTime) => {
      const reached = addCall(caller, 'connected');
      await deliverCallEvents(h, reached.callId, connectedEvents(reached, caller));
      await callLogged(reached.callId);
      // A later miss whose webhooks leave out start_time: it began no later than the event, so the
      // reach recorded earlier does not close its callback.
      const missed = addCall(caller, 'missed');
      const noStart = (e: CallEventSignal): CallEventSignal => ({
        ...e,
        startTime: null,
        ...(noTime ? { time: null } : {}),
      });
      await deliverCallEvents(h, missed.callId, missedEvents(missed, caller).map(noStart));
      await callLogged(missed.callId);
      const [task] = await eventually(
        async () => {
          const rows = await tasksOf(caller);
          return rows.length > 0 ? rows : undefined;
        },
        'the callback task',
        60_000,
        () => workflowStory(callbackOf(caller)),
      );
      expect(task).toMatchObject({ status: 'open' });
      expect(await callbackOf(caller).query(callbackStateQuery)).toMatchObject({ status: 'open' });
    },
  );

  it('still closes on a connected signal without a start time (sent before signals carried one)', async () => {
    const caller = '+442079461205';
    const missed = addCall(caller, 'missed');
    await deliverCallEvents(h, missed.callId, missedEvents(missed, caller));
    await eventually(
      async () => ((await tasksOf(caller)).length > 0 ? true : undefined),
      'the callback task',
    );
    await callbackOf(caller).signal(callConnectedSignal, { callId: 1 });
    expect(await callbackOf(caller).result()).toMatchObject({ status: 'closed', closedByCallId: 1 });
  });
});
