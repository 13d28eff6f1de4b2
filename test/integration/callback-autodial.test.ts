// Auto-dial: inside business hours callsync places the callback through the platform (POST /calls),
// follows the call to its CDR, records each attempt on the task, retries a failed one, and closes the
// task when the caller is reached. It never rings the caller twice: not when the answer to POST /calls
// is lost, not when the number has more earlier calls than one page holds, and not while the placed
// call has ended but its CDR is not written yet.
import { callbackStateQuery, type CallbackWorkflow, type CallEventSignal } from '../../contracts';
import { filter, type Cdr, type LiveCall } from '../../connectors/platform';
import { eventually } from '../support/eventually';
import { workflowStory } from '../support/workflow-story';
import { callbackIdOf, deliverCallEvents, missedCall } from './missed-call';
import { startSyncHarness, type SyncHarness } from './sync-harness';

jest.setTimeout(240_000);

describe('callback auto-dial', () => {
  let h: SyncHarness;

  beforeAll(async () => {
    h = await startSyncHarness({
      label: 'autodial',
      cdrs: 500,
      config: {
        callbacks: {
          autoDial: {
            enabled: true,
            timezone: 'UTC',
            days: [1, 2, 3, 4, 5, 6, 7],
            start: '00:00',
            end: '23:59',
            maxAttempts: 3,
            retryAfter: '1s',
          },
        },
      },
    });
    // The simulator plays the calls placed through POST /calls.
    await control('POST', '/simulator/start', {
      rate_per_minute: 0,
      speed: 60,
      drive_api_calls: true,
      api_answer_rate: 0,
      advance_clock: false,
    });
  }, 180_000);

  afterAll(async () => {
    await fetch(`${h.emulator.origin}/_emulator/simulator/stop`, { method: 'POST' }).catch(() => undefined);
    await h?.close();
  });

  const control = async (method: string, path: string, body: unknown) => {
    const res = await fetch(`${h.emulator.origin}/_emulator${path}`, {
      method,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    expect(res.status).toBeLessThan(300);
  };

  it('dials the missed caller back, records the attempts, and closes the task once connected', async () => {
    // The first call placed fails (busy), later ones connect.
    await control('PATCH', '/simulator', { api_answer_rate: 0 });
    const caller = '+442079460555';
    await missedCall(h, caller);

    const callback = h.client.workflow.getHandle(callbackIdOf(h, caller));
    const deadline = Date.now() + 120_000;
    let state = await callback.query(callbackStateQuery).catch(() => undefined);
    while ((state?.dialAttempts.length ?? 0) < 1 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 500));
      state = await callback.query(callbackStateQuery).catch(() => undefined);
    }
    expect(state?.dialAttempts[0]?.outcome).not.toBe('connected');
    expect(state?.status).toBe('open');

    // From now on the caller answers.
    await control('PATCH', '/simulator', { api_answer_rate: 1 });
    const final = await callback.result();
    expect(final.status).toBe('closed');
    expect(final.dialAttempts.length).toBeGreaterThanOrEqual(2);
    expect(final.dialAttempts.at(-1)?.outcome).toBe('connected');

    const [task] = await h.deps.warehouse.db
      .selectFrom('builtin_tasks')
      .selectAll()
      .where('caller_number', '=', caller)
      .execute();
    expect(task?.status).toBe('closed');
    expect(task?.body).toMatch(/Callback attempts:/);
    expect(task?.body).toMatch(/connected/);
  });

  it('never rings the caller twice when the answer to POST /calls is lost after the call was placed', async () => {
    // The caller answers.
    await control('PATCH', '/simulator', { api_answer_rate: 1 });
    await control('POST', '/faults', { route: 'POST /calls', drop_response: true, times: 1 });
    const caller = '+442079460556';
    await missedCall(h, caller);

    const callback = h.client.workflow.getHandle(callbackIdOf(h, caller));
    await eventually(() => callback.describe().catch(() => undefined), 'the callback workflow', 60_000);
    const final = await callback.result();
    expect(final.status).toBe('closed');
    expect(final.dialAttempts).toHaveLength(1);
    expect(final.dialAttempts[0]?.outcome).toBe('connected');

    const faults = (await (await fetch(`${h.emulator.origin}/_emulator/faults`)).json()) as {
      faults: { route: string; applied: number }[];
    };
    expect(faults.faults.find((f) => f.route === 'POST /calls')?.applied).toBe(1);
    // One call to the caller on the platform, live or ended: the lost answer was not dialled again.
    const platform = h.deps.platform('acme');
    const live = await platform.calls.list({ filter: filter<LiveCall>().eq('dst', caller) }).readPage(1);
    const ended = await platform.history.cdrs.list({ filter: filter<Cdr>().eq('dst', caller) }).readPage(1);
    const callIds = new Set([...live.data.map((c) => c.id), ...ended.data.map((c) => c.live_id)]);
    expect([...callIds]).toHaveLength(1);
    const dials = await h.deps.warehouse.db
      .selectFrom('callback_dials')
      .selectAll()
      .where('number', '=', caller)
      .execute();
    expect(dials).toHaveLength(1);
    expect(Number(dials[0]?.call_id)).toBe([...callIds][0]);
  });

  /** POST /calls requests the emulator has answered (or dropped) so far. */
  const postCalls = async (): Promise<number> => {
    const stats = (await (await fetch(`${h.emulator.origin}/_emulator/stats`)).json()) as {
      by_route: Record<string, number>;
    };
    return stats.by_route['POST /calls'] ?? 0;
  };

  /**
   * Plays the calls placed to `number` through POST /calls with `play` (called with each call's id)
   * instead of the simulator; returns the unsubscribe.
   */
  const onPlaced = (number: string, play: (callId: number) => void): (() => void) =>
    h.emulator.store.onChange((e) => {
      if (e.table !== 'calls' || e.op !== 'insert' || e.row.dst !== number) return;
      const id = Number(e.row.id);
      setImmediate(() => play(id));
    });

  /** The ended call's CDR: it connected. */
  const writeCdr = (callId: number, number: string): void => {
    const store = h.emulator.store;
    const [row] = store.addCdrs(h.emulator.admin.customer_id, 1);
    store.tables.cdrs.update(row!.id, {
      live_id: callId,
      type: 'O',
      dst: number,
      billsec: 30,
      duration: 40,
      disposition: 'CONNECTED',
      t_cause: 'Normal Clearing',
    });
  };

  /** The call is over: it leaves /calls, and its CDR is written at once unless `cdr` is false. */
  const endCall = (callId: number, number: string, cdr = true): void => {
    h.emulator.store.tables.calls.remove(callId);
    if (cdr) writeCdr(callId, number);
  };

  const dialsTo = (number: string) =>
    h.deps.warehouse.db.selectFrom('callback_dials').selectAll().where('number', '=', number).execute();

  it("dials a ring group's missed caller from the platform's default user, not from the group", async () => {
    // Found by the call-centre simulation: the missed event of a ring group names the group in dst_id,
    // and the dial "from" it was refused (from: no such user), which then failed the whole callback.
    await control('PATCH', '/simulator', { api_answer_rate: 1, drive_api_calls: true });
    const caller = '+442079460571';
    const customer = h.emulator.admin.customer_id;
    const group = h.emulator.store.tables.ringgroups.query(customer, { page: 1, limit: 1, filter: [] })
      .data[0]!;
    const groupNumber = typeof group.number === 'string' ? group.number : '600';
    const [cdr] = h.emulator.store.addCdrs(customer, 1);
    h.emulator.store.tables.cdrs.update(cdr!.id, {
      type: 'M',
      src: caller,
      dst: groupNumber,
      dst_id: String(group.id),
      context: 'RING_GROUP',
      billsec: 0,
      disposition: 'RINGING',
      t_cause: 'No user responding',
    });
    const callId = Number(cdr!.live_id);
    const event = (n: number, name: string): CallEventSignal => ({
      eventId: `${callId}-${n}`,
      name,
      time: String(cdr!.calldate),
      state: 'HANGUP',
      context: 'RING_GROUP',
      destination: 'in',
      src: caller,
      dst: groupNumber,
      srcId: null,
      dstId: Number(group.id),
      srcName: null,
      dstName: typeof group.name === 'string' ? group.name : 'Sales',
      duration: null,
      tCause: 'No user responding',
      connectedAt: null,
      digits: null,
    });
    await deliverCallEvents(h, callId, [event(1, 'call.missed'), event(2, 'call.hangup')]);
    const callback = h.client.workflow.getHandle<CallbackWorkflow>(callbackIdOf(h, caller));
    await eventually(() => callback.describe().catch(() => undefined), 'the callback workflow', 60_000);
    const final = await callback.result();
    expect(final).toMatchObject({ status: 'closed', missed: [{ callId, calledUserId: null }] });
    expect(final.dialAttempts.map((a) => a.outcome)).toEqual(['connected']);
  });

  it('keeps a callback whose dial the platform refused open, with the refusal on its task', async () => {
    // Found by the call-centre simulation: a refused dial failed the callback, leaving its task open
    // for ever. It is an attempt like any other; the next one reaches the caller.
    await control('PATCH', '/simulator', { api_answer_rate: 1, drive_api_calls: true });
    await control('POST', '/faults', { route: 'POST /calls', status: 400, times: 1 });
    const caller = '+442079460572';
    await missedCall(h, caller);
    const callback = h.client.workflow.getHandle<CallbackWorkflow>(callbackIdOf(h, caller));
    await eventually(() => callback.describe().catch(() => undefined), 'the callback workflow', 60_000);
    const final = await callback.result();
    expect(final.status).toBe('closed');
    expect(final.dialAttempts.map((a) => a.outcome)).toEqual(['not placed: BadRequestError', 'connected']);
    const [task] = await h.deps.warehouse.db
      .selectFrom('builtin_tasks')
      .selectAll()
      .where('caller_number', '=', caller)
      .execute();
    expect(task?.status).toBe('closed');
    expect(task?.body).toMatch(/not placed: BadRequestError/);
  });

  it('finds the call a lost answer placed among more earlier calls to the number than one page holds', async () => {
    await control('PATCH', '/simulator', { drive_api_calls: false });
    const caller = '+442079460561';
    const store = h.emulator.store;
    // 1001 earlier calls to the number, all ended: more than a page of a thousand, oldest first.
    for (const row of store.addCdrs(h.emulator.admin.customer_id, 1001)) {
      store.tables.cdrs.update(row.id, { type: 'O', dst: caller, billsec: 10, disposition: 'CONNECTED' });
    }
    store.clock.advance(60_000);
    // The placed call is answered, ends and gets its CDR before the lost answer's retry looks.
    const off = onPlaced(caller, (id) => endCall(id, caller));
    try {
      await control('POST', '/faults', { route: 'POST /calls', drop_response: true, times: 1 });
      const before = await postCalls();
      await missedCall(h, caller);
      const callback = h.client.workflow.getHandle<CallbackWorkflow>(callbackIdOf(h, caller));
      await eventually(() => callback.describe().catch(() => undefined), 'the callback workflow', 60_000);
      const final = await callback.result();
      expect(final.status).toBe('closed');
      expect(final.dialAttempts.map((a) => a.outcome)).toEqual(['connected']);
      expect((await postCalls()) - before).toBe(1);
      const dials = await dialsTo(caller);
      expect(dials).toHaveLength(1);
      expect(Number(dials[0]!.call_id)).toBe(final.closedByCallId);
    } finally {
      off();
    }
  });

  it('does not dial again while the placed call has ended but its CDR is not written yet', async () => {
    await control('PATCH', '/simulator', { drive_api_calls: false });
    const caller = '+442079460562';
    let first: number | undefined;
    const off = onPlaced(caller, (id) => {
      if (first === undefined) {
        // The call the lost answer was about: answered and over before the retry looks, its CDR late.
        first = id;
        endCall(id, caller, false);
      } else endCall(id, caller); // a second dial (which must not happen) is answered at once
    });
    try {
      await control('POST', '/faults', { route: 'POST /calls', drop_response: true, times: 1 });
      const before = await postCalls();
      await missedCall(h, caller);
      const callback = h.client.workflow.getHandle<CallbackWorkflow>(callbackIdOf(h, caller));
      // A retry has looked for the call and found nothing (it waits), or has dialled again.
      await eventually(
        async () => {
          const d = await callback.describe().catch(() => undefined);
          const dial = d?.raw.pendingActivities?.find((a) => a.activityType?.name === 'placeCallback');
          return (dial?.attempt ?? 0) >= 3 || (await postCalls()) - before >= 2 ? true : undefined;
        },
        'a retry of the dial',
        60_000,
        () => workflowStory(callback),
      );
      expect((await postCalls()) - before).toBe(1);
      // The CDR is written at last: the next retry adopts the call.
      writeCdr(first!, caller);
      const final = await callback.result();
      expect(final).toMatchObject({ status: 'closed', closedByCallId: first });
      expect(final.dialAttempts.map((a) => a.outcome)).toEqual(['connected']);
      expect((await postCalls()) - before).toBe(1);
      const dials = await dialsTo(caller);
      expect(dials.map((d) => Number(d.call_id))).toEqual([first]);
    } finally {
      off();
    }
  });
});
