// Auto-dial: inside business hours callsync places the callback through the platform (POST /calls),
// follows the call to its CDR, records each attempt on the task, retries a failed one, and closes the
// task when the caller is reached.
import { callbackStateQuery } from '../../contracts';
import { filter, type Cdr, type LiveCall } from '../../connectors/platform';
import { eventually } from '../support/eventually';
import { callbackIdOf, missedCall } from './missed-call';
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
});
