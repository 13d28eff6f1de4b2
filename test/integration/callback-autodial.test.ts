// Auto-dial: inside business hours callsync places the callback through the platform (POST /calls),
// follows the call to its CDR, records each attempt on the task, retries a failed one, and closes the
// task when the caller is reached.
import {
  callbackStateQuery,
  callbackWorkflowId,
  callEventSignal,
  callLifecycleWorkflow,
  callWorkflowId,
  type CallEventSignal,
} from '../../contracts';
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
    // The simulator plays calls placed through POST /calls: the first one fails (busy), later ones connect.
    await control('POST', '/simulator/start', {
      rate_per_minute: 0,
      speed: 60,
      drive_api_calls: true,
      api_answer_rate: 0,
      advance_clock: false,
    });
    const caller = '+442079460555';
    const customer = h.emulator.admin.customer_id;
    const [cdr] = h.emulator.store.addCdrs(customer, 1);
    h.emulator.store.tables.cdrs.update(cdr!.id, {
      type: 'M',
      src: caller,
      dst: '101',
      billsec: 0,
      disposition: 'RINGING',
      t_cause: 'No user responding',
    });
    const callId = Number(cdr!.live_id);
    const event = (n: number, name: string): CallEventSignal => ({
      eventId: `${callId}-${n}`,
      name,
      time: null,
      state: null,
      context: 'LOCAL_USER',
      destination: 'in',
      src: caller,
      dst: '101',
      srcId: null,
      dstId: null,
      srcName: null,
      dstName: null,
      duration: null,
      tCause: null,
      connectedAt: null,
      digits: null,
    });
    for (const e of [event(1, 'call.missed'), event(2, 'call.hangup')]) {
      await h.client.workflow.signalWithStart(callLifecycleWorkflow, {
        workflowId: callWorkflowId('acme', callId),
        taskQueue: h.taskQueue,
        args: [{ account: 'acme', callId }],
        signal: callEventSignal,
        signalArgs: [e],
      });
    }

    const callback = h.client.workflow.getHandle(callbackWorkflowId('acme', caller));
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
});
