// Webhook registration, category selection, delivery log, retries and delivery faults of the emulator.
/* eslint-disable @typescript-eslint/no-unsafe-return -- webhook bodies are untyped JSON here */
import { categoriesSelect, isLoopbackHost, urlProblem } from '../../emulator/webhooks';
import { startHarness, type Harness } from './emulator-server-harness';
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
  await h.control('POST', '/webhooks/settings', { retries: 3, backoff_ms: [20, 40], reorder_hold_ms: 500 });
  const list = await h.control('GET', '/webhooks');
  for (const w of list.body.data) await h.control('DELETE', `/webhooks/${w.id}`);
});
afterEach(async () => {
  await rx.close();
});

function callEvent(id: string, name: string, callId = 1, context = 'LOCAL_USER'): Record<string, unknown> {
  return {
    id,
    event_name: name,
    event_time: '2026-11-01 12:00:00',
    call_id: callId,
    context,
    state: 'RINGING',
  };
}

async function register(categories: string[], url = rx.url): Promise<number> {
  const res = await h.control('POST', '/webhooks', { name: 'callsync', categories, url });
  expect(res.status).toBe(201);
  return res.body.data.id as number;
}

async function send(event: Record<string, unknown>): Promise<number> {
  const res = await h.control('POST', '/webhooks/events', { event });
  expect(res.status).toBe(202);
  return res.body.sent_to as number;
}

async function settle(): Promise<void> {
  const res = await h.control('POST', '/webhooks/deliveries/wait', { timeout_ms: 10_000 });
  expect(res.body.idle).toBe(true);
}

describe('category selection (pure)', () => {
  test('single categories select user events; queue events need call state change', () => {
    expect(categoriesSelect(['missed_call'], { event_name: 'call.missed', context: 'LOCAL_USER' })).toBe(
      true,
    );
    expect(categoriesSelect(['missed_call'], { event_name: 'call.missed', context: 'QUEUE' })).toBe(false);
    expect(categoriesSelect(['call_state_change'], { event_name: 'call.missed', context: 'QUEUE' })).toBe(
      true,
    );
    expect(categoriesSelect(['ended_call'], { event_name: 'call.failed', context: 'LOCAL_USER' })).toBe(true);
    expect(categoriesSelect(['ended_call'], { event_name: 'call.hangup', context: 'LOCAL_USER' })).toBe(true);
    expect(categoriesSelect(['ringing_call'], { event_name: 'call.connected', context: 'LOCAL_USER' })).toBe(
      false,
    );
    expect(categoriesSelect(['call_state_change'], { event_name: 'call.hold' })).toBe(true);
    expect(categoriesSelect(['call_state_change'], { event_name: 'call.dtmf', context: 'IVR' })).toBe(false);
    expect(categoriesSelect(['dtmf_key_press'], { event_name: 'call.dtmf', context: 'IVR' })).toBe(true);
    expect(categoriesSelect(['sms_received'], { event_name: 'sms.received' })).toBe(true);
    expect(categoriesSelect(['call_state_change'], { event_name: 'sms.received' })).toBe(false);
  });

  test('URLs: HTTPS anywhere, plain http only to loopback', () => {
    expect(urlProblem('https://hooks.example.com/x')).toBeUndefined();
    expect(urlProblem('http://127.0.0.1:3000/x')).toBeUndefined();
    expect(urlProblem('http://127.5.6.7/x')).toBeUndefined();
    expect(urlProblem('http://localhost/x')).toBeUndefined();
    expect(urlProblem('http://[::1]:80/x')).toBeUndefined();
    expect(urlProblem('http://10.0.0.1/x')).toMatch(/^url: must be an HTTPS URL/);
    expect(urlProblem('ftp://example.com/x')).toMatch(/^url:/);
    expect(urlProblem('not a url')).toMatch(/^url:/);
    expect(isLoopbackHost('128.0.0.1')).toBe(false);
  });
});

describe('registration', () => {
  test('saving sends the test event and keeps the webhook', async () => {
    const res = await h.control('POST', '/webhooks', {
      name: 'cs',
      categories: ['missed_call'],
      url: rx.url,
    });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({
      name: 'cs',
      categories: ['missed_call'],
      url: rx.url,
      enabled: true,
    });
    expect(rx.events).toEqual([
      {
        id: res.body.test_event_id,
        event_name: 'webhook.test',
        event_time: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/),
      },
    ]);
    const list = await h.control('GET', '/webhooks');
    expect(list.body.total).toBe(1);
  });

  test('a URL that does not answer 2xx is refused, naming url', async () => {
    rx.status = 500;
    const res = await h.control('POST', '/webhooks', {
      name: 'cs',
      categories: ['missed_call'],
      url: rx.url,
    });
    expect(res.status).toBe(400);
    expect(res.body.errors[0]).toEqual({
      field: 'url',
      message: expect.stringMatching(/^the test event got HTTP 500/),
    });
    const dead = await h.control('POST', '/webhooks', {
      name: 'cs',
      categories: ['missed_call'],
      url: 'http://127.0.0.1:1/nothing',
    });
    expect(dead.status).toBe(400);
    expect(dead.body.errors[0]).toEqual({
      field: 'url',
      message: expect.stringMatching(/^the test event could not be delivered/),
    });
    expect((await h.control('GET', '/webhooks')).body.total).toBe(0);
  });

  test('plain http to a non-loopback host is refused without a request', async () => {
    const res = await h.control('POST', '/webhooks', {
      name: 'cs',
      categories: ['missed_call'],
      url: 'http://192.0.2.10/hook',
    });
    expect(res.status).toBe(400);
    expect(res.body.errors[0]).toEqual({
      field: 'url',
      message: expect.stringMatching(/^must be an HTTPS URL/),
    });
  });

  test('bad categories are refused', async () => {
    const res = await h.control('POST', '/webhooks', { name: 'cs', categories: ['everything'], url: rx.url });
    expect(res.status).toBe(400);
    expect(res.body.errors.map((e: { field: string }) => e.field)).toEqual(['categories[0]']);
  });

  test('edit, disable, re-test on URL change, delete', async () => {
    const id = await register(['missed_call']);
    const rx2 = await startReceiver();
    try {
      const moved = await h.control('PATCH', `/webhooks/${id}`, { url: rx2.url, categories: ['ended_call'] });
      expect(moved.status).toBe(200);
      expect(rx2.events.map((e) => e.event_name)).toEqual(['webhook.test']);
      rx2.status = 404;
      const refused = await h.control('PATCH', `/webhooks/${id}`, { url: `${rx2.url}/other` });
      expect(refused.status).toBe(400);
      expect((await h.control('GET', `/webhooks/${id}`)).body.data.url).toBe(rx2.url);
      rx2.status = 200;
      await h.control('PATCH', `/webhooks/${id}`, { enabled: false });
      expect(await send(callEvent('e-disabled', 'call.hangup'))).toBe(0);
      await h.control('PATCH', `/webhooks/${id}`, { enabled: true });
      expect(await send(callEvent('e-enabled', 'call.hangup'))).toBe(1);
      await rx2.waitFor(2);
      expect(rx2.events[1].id).toBe('e-enabled');
      expect((await h.control('DELETE', `/webhooks/${id}`)).status).toBe(204);
      expect((await h.control('GET', `/webhooks/${id}`)).status).toBe(404);
    } finally {
      await rx2.close();
    }
  });

  test('Basic credentials in the URL are sent as an Authorization header', async () => {
    const url = rx.url.replace('http://', 'http://callsync:s3cret@');
    await register(['sms_received'], url);
    expect(rx.authorizations[0]).toBe(`Basic ${Buffer.from('callsync:s3cret').toString('base64')}`);
  });
});

describe('delivery', () => {
  test('only events the categories select are delivered; the log records each attempt', async () => {
    const id = await register(['missed_call', 'sms_received']);
    rx.events.length = 0;
    expect(await send(callEvent('m1', 'call.missed'))).toBe(1);
    expect(await send(callEvent('m2', 'call.missed', 2, 'QUEUE'))).toBe(0);
    expect(await send(callEvent('c1', 'call.connected'))).toBe(0);
    expect(await send({ id: 's1', event_name: 'sms.received', event_time: '2026-11-01 12:00:00' })).toBe(1);
    await settle();
    expect(rx.events.map((e) => e.id).sort()).toEqual(['m1', 's1']);
    const log = (await h.control('GET', '/webhooks/deliveries?event_id=m1')).body.data;
    expect(log).toEqual([
      expect.objectContaining({
        webhook_id: id,
        event_id: 'm1',
        event_name: 'call.missed',
        call_id: 1,
        status: 200,
        ok: true,
        attempt: 1,
      }),
    ]);
    const byCall = (await h.control('GET', '/webhooks/deliveries?call_id=1')).body.data;
    expect(byCall.map((e: { event_id: string }) => e.event_id)).toEqual(['m1']);
    expect((await h.control('DELETE', '/webhooks/deliveries')).body.cleared).toBeGreaterThan(0);
    expect((await h.control('GET', '/webhooks/deliveries')).body.total).toBe(0);
  });

  test('a non-2xx answer is retried with backoff until it succeeds', async () => {
    await register(['call_state_change']);
    rx.events.length = 0;
    rx.status = (_body, n) => (n <= 2 ? 503 : 200); // n counts the requests answered by this function
    await send(callEvent('r1', 'call.initial'));
    await rx.waitFor(1);
    await settle();
    const log = (await h.control('GET', '/webhooks/deliveries?event_id=r1')).body.data;
    expect(log.map((e: { attempt: number; status: number }) => [e.attempt, e.status])).toEqual([
      [1, 503],
      [2, 503],
      [3, 200],
    ]);
  });

  test('a call’s events arrive in order without faults', async () => {
    await register(['call_state_change']);
    rx.events.length = 0;
    const names = [
      'call.initial',
      'call.ringing',
      'call.connected',
      'call.hold',
      'call.unhold',
      'call.hangup',
    ];
    for (const [i, n] of names.entries()) await send(callEvent(`o${i}`, n, 77));
    await rx.waitFor(names.length);
    expect(rx.events.map((e) => e.event_name)).toEqual(names);
  });
});

describe('faults', () => {
  test('duplicates: the same event id twice in the log and at the receiver', async () => {
    await register(['call_state_change']);
    rx.events.length = 0;
    await h.control('POST', '/webhooks/faults', { duplicate_probability: 1 });
    await send(callEvent('d1', 'call.ringing', 5));
    await settle();
    expect(rx.events.map((e) => e.id)).toEqual(['d1', 'd1']);
    const log = (await h.control('GET', '/webhooks/deliveries?event_id=d1')).body.data;
    expect(log.map((e: { copy: number; fault: string | null }) => [e.copy, e.fault])).toEqual([
      [1, null],
      [2, 'duplicate'],
    ]);
  });

  test('drops: logged as dropped, never arrive', async () => {
    await register(['call_state_change']);
    rx.events.length = 0;
    await h.control('POST', '/webhooks/faults', { drop_probability: 1 });
    await send(callEvent('x1', 'call.ringing', 6));
    await settle();
    // Without the fault, the call's next event arrives: the receiver was reachable all along, and the
    // one before it was delivered by then had it been sent at all.
    await h.control('DELETE', '/webhooks/faults');
    await send(callEvent('x2', 'call.hangup', 6));
    await rx.waitFor(1);
    expect(rx.events.map((e) => e.id)).toEqual(['x2']);
    const log = (await h.control('GET', '/webhooks/deliveries?event_id=x1')).body.data;
    expect(log).toEqual([expect.objectContaining({ fault: 'dropped', status: null, ok: false })]);
  });

  test('reorder: a held-back event arrives after the call’s next one', async () => {
    await register(['call_state_change']);
    rx.events.length = 0;
    await h.control('POST', '/webhooks/faults', { reorder_probability: 1 });
    await send(callEvent('a', 'call.initial', 9));
    await send(callEvent('b', 'call.ringing', 9));
    await rx.waitFor(2);
    expect(rx.events.map((e) => e.id)).toEqual(['b', 'a']);
    // The last event of a call has no successor: it goes after the hold time anyway.
    await send(callEvent('c', 'call.hangup', 9));
    await rx.waitFor(3, 5000);
    expect(rx.events[2].id).toBe('c');
  });

  test('delays hold each send for the given time', async () => {
    await register(['call_state_change']);
    rx.events.length = 0;
    await h.control('POST', '/webhooks/faults', { delay_ms: [150, 150] });
    const t0 = Date.now();
    await send(callEvent('late', 'call.ringing', 10));
    await rx.waitFor(1);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(140);
    const log = (await h.control('GET', '/webhooks/deliveries?event_id=late')).body.data;
    expect(log[0].delay_ms).toBe(150);
  });
});
