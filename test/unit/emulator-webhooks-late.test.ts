// Webhooks as real platforms send them after trouble: events delivered late, on their own (after the
// call's later events), or once more late; and an event whose every retry failed during an outage
// delivered once more long after. Both show in the delivery log with their own fault value.
/* eslint-disable @typescript-eslint/no-unsafe-return -- webhook bodies are untyped JSON here */
import { startHarness, type Harness, type Json } from './emulator-server-harness';
import { startReceiver, type Receiver } from './emulator-webhooks-receiver';

let h: Harness;
let rx: Receiver;

beforeAll(async () => {
  h = await startHarness(200);
});
afterAll(async () => {
  await h.close();
});
beforeEach(async () => {
  rx = await startReceiver();
  await h.control('DELETE', '/webhooks/faults');
  await h.control('DELETE', '/webhooks/deliveries');
  await h.control('POST', '/webhooks/settings', {
    retries: 2,
    backoff_ms: [20],
    reorder_hold_ms: 500,
    redeliver_after_ms: null,
  });
  const list = await h.control('GET', '/webhooks');
  for (const w of list.body.data) await h.control('DELETE', `/webhooks/${w.id}`);
  const res = await h.control('POST', '/webhooks', {
    name: 'callsync',
    categories: ['call_state_change'],
    url: rx.url,
  });
  expect(res.status).toBe(201);
  rx.events.length = 0;
});
afterEach(async () => {
  await rx.close();
});

function callEvent(id: string, name: string, callId: number): Record<string, unknown> {
  return { id, event_name: name, event_time: '2026-11-01 12:00:00', call_id: callId, context: 'LOCAL_USER' };
}

async function send(event: Record<string, unknown>): Promise<void> {
  const res = await h.control('POST', '/webhooks/events', { event });
  expect(res.status).toBe(202);
  expect(res.body.sent_to).toBe(1);
}

async function logOf(eventId: string): Promise<Json[]> {
  return (await h.control('GET', `/webhooks/deliveries?event_id=${eventId}`)).body.data;
}

async function settle(): Promise<void> {
  const res = await h.control('POST', '/webhooks/deliveries/wait', { timeout_ms: 10_000 });
  expect(res.body.idle).toBe(true);
}

describe('late deliveries', () => {
  test('a late event goes only late, after its call’s later events, which do not wait for it', async () => {
    const faults = await h.control('POST', '/webhooks/faults', {
      late_probability: 1,
      late_delay_ms: [400, 400],
      late_again_share: 0,
      seed: 3,
    });
    expect(faults.body).toMatchObject({
      late_probability: 1,
      late_delay_ms: [400, 400],
      late_again_share: 0,
    });
    await send(callEvent('first', 'call.initial', 31));
    await h.control('DELETE', '/webhooks/faults');
    await send(callEvent('second', 'call.ringing', 31));
    await send(callEvent('third', 'call.hangup', 31));
    await rx.waitFor(3);
    expect(rx.events.map((e) => e.id)).toEqual(['second', 'third', 'first']);
    await settle();
    const log = await logOf('first');
    expect(log).toEqual([expect.objectContaining({ fault: 'late', delay_ms: 400, copy: 1, ok: true })]);
  });

  test('a late copy: the event on time, then once more late (same id)', async () => {
    await h.control('POST', '/webhooks/faults', {
      late_probability: 1,
      late_delay_ms: 300,
      late_again_share: 1,
    });
    await send(callEvent('twice', 'call.connected', 32));
    await rx.waitFor(1);
    expect(rx.events.map((e) => e.id)).toEqual(['twice']);
    await rx.waitFor(2);
    expect(rx.events.map((e) => e.id)).toEqual(['twice', 'twice']);
    await settle();
    const log = await logOf('twice');
    expect(log.map((e: Json) => [e.copy, e.fault, e.delay_ms])).toEqual([
      [1, null, 0],
      [3, 'late_copy', 300],
    ]);
  });

  test('the faults are seeded: the same seed makes the same events late', async () => {
    const lateIds = async (): Promise<string[]> => {
      await h.control('DELETE', '/webhooks/deliveries');
      await h.control('POST', '/webhooks/faults', { late_probability: 0.5, late_delay_ms: [1, 5], seed: 42 });
      for (let i = 0; i < 20; i++) await send(callEvent(`s${i}`, 'call.ringing', 100 + i));
      await settle();
      const log = (await h.control('GET', '/webhooks/deliveries')).body.data as Json[];
      return log
        .filter((e) => e.fault === 'late' || e.fault === 'late_copy')
        .map((e) => `${e.event_id}:${e.fault}`);
    };
    const a = await lateIds();
    expect(a.length).toBeGreaterThan(0);
    expect(a.length).toBeLessThan(20);
    expect((await lateIds()).sort()).toEqual([...a].sort());
  });

  test('bad late faults are a 400 naming the field', async () => {
    const res = await h.control('POST', '/webhooks/faults', { late_probability: 2 });
    expect(res.status).toBe(400);
    expect(res.body.errors[0].field).toBe('late_probability');
  });
});

describe('redelivery after an outage', () => {
  test('an event whose every retry failed is sent once more, redeliver_after_ms after its last failure', async () => {
    const settings = await h.control('POST', '/webhooks/settings', { redeliver_after_ms: 300 });
    expect(settings.body.redeliver_after_ms).toBe(300);
    // The receiver is down for the first attempt and both retries; the outage is over by the redelivery.
    rx.status = (_body, n) => (n <= 3 ? 503 : 200);
    await send(callEvent('outage', 'call.hangup', 33));
    await rx.waitFor(1);
    expect(rx.events.map((e) => e.id)).toEqual(['outage']);
    await settle();
    const log = await logOf('outage');
    expect(log.at(-1)).toMatchObject({
      attempt: 4,
      status: 200,
      ok: true,
      fault: 'redelivered',
      delay_ms: 300,
    });
    expect(log).toHaveLength(4);
  });

  test('off by default: an event whose retries failed is not sent again', async () => {
    expect((await h.control('GET', '/webhooks/settings')).body.redeliver_after_ms).toBeNull();
    rx.status = 503;
    await send(callEvent('gone', 'call.hangup', 34));
    await settle();
    expect((await logOf('gone')).map((e: Json) => e.fault)).toEqual([null, null, null]);
  });

  test('a redelivery that fails too is not retried', async () => {
    await h.control('POST', '/webhooks/settings', { redeliver_after_ms: 50 });
    rx.status = 503;
    await send(callEvent('never', 'call.hangup', 35));
    await settle();
    expect((await logOf('never')).map((e: Json) => [e.attempt, e.fault])).toEqual([
      [1, null],
      [2, null],
      [3, null],
      [4, 'redelivered'],
    ]);
  });
});
