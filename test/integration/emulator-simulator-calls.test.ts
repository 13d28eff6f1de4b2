// The call simulator end to end over HTTP: each scenario's webhook events follow the spec's call-state
// table, live calls show in GET /calls while they last, the CDR (live_id = call_id) exists once
// call.hangup is sent, recordings get their transcript later, SMS produce sms.received, and calls placed
// through POST /calls are played while the simulator runs.
/* eslint-disable @typescript-eslint/no-unsafe-return -- webhook bodies are untyped JSON here */
import { callEventSchema, smsReceivedEventSchema } from '../../connectors/platform/schemas/events';
import { eventually } from '../support/eventually';
import { startHarness, type Harness, type Json } from '../unit/emulator-server-harness';
import { startReceiver, type Receiver } from '../unit/emulator-webhooks-receiver';

let h: Harness;
let rx: Receiver;

const SPEED = 1000;

beforeAll(async () => {
  h = await startHarness(300);
  rx = await startReceiver();
  const res = await h.control('POST', '/webhooks', {
    name: 'callsync',
    categories: ['call_state_change', 'sms_received', 'dtmf_key_press'],
    url: rx.url,
  });
  expect(res.status).toBe(201);
  const cfg = await h.control('PATCH', '/simulator', { speed: SPEED, transcript_delay_s: 1500, seed: 11 });
  expect(cfg.status).toBe(200);
});
afterAll(async () => {
  await h.control('POST', '/simulator/stop');
  await rx.close();
  await h.close();
});

async function place(body: Record<string, unknown>): Promise<Json> {
  const res = await h.control('POST', '/simulator/calls', body);
  expect(res.status).toBe(201);
  return res.body;
}

/** The events of one call as received, once its last planned event has arrived. */
async function eventsOf(callId: number, last: string, timeoutMs = 15_000): Promise<Json[]> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const mine = rx.events.filter((e) => e.call_id === callId);
    if (mine.some((e) => e.event_name === last)) return mine;
    if (Date.now() > until)
      throw new Error(
        `call ${callId}: no ${last} after ${timeoutMs} ms (${mine.map((e) => e.event_name).join()})`,
      );
    await new Promise((r) => setTimeout(r, 10));
  }
}

async function byLiveId(resource: 'cdrs' | 'monitors' | 'voicemessages', liveId: number): Promise<Json[]> {
  const filter = encodeURIComponent(JSON.stringify([{ property: 'live_id', operator: 'eq', value: liveId }]));
  const res = await h.api(`/${resource}?filter=${filter}`);
  expect(res.status).toBe(200);
  return ((await res.json()) as { data: Json[] }).data;
}

const SEQUENCES: Record<string, string[]> = {
  inbound_answered: ['call.initial', 'call.ringing', 'call.connected', 'call.hangup'],
  inbound_queue_answered: ['call.initial', 'call.ringing', 'call.ringing', 'call.connected', 'call.hangup'],
  inbound_queue_missed: ['call.initial', 'call.ringing', 'call.missed', 'call.hangup'],
  inbound_voicemail: ['call.initial', 'call.ringing', 'call.missed', 'call.hangup'],
  inbound_missed: ['call.initial', 'call.ringing', 'call.missed', 'call.hangup'],
  outbound_answered: ['call.initial', 'call.ringing', 'call.connected', 'call.hangup'],
  blind_transfer: [
    'call.initial',
    'call.ringing',
    'call.connected',
    'call.ringing',
    'call.connected',
    'call.hangup',
  ],
  ivr_dtmf: ['call.initial', 'call.dtmf', 'call.ringing', 'call.connected', 'call.hangup'],
};

const CDR_TYPES: Record<string, string> = {
  inbound_answered: 'I',
  inbound_queue_answered: 'I',
  inbound_queue_missed: 'M',
  inbound_voicemail: 'I',
  inbound_missed: 'M',
  outbound_answered: 'O',
  outbound_failed: 'O',
  hold_unhold: 'I',
  blind_transfer: 'I',
  ivr_dtmf: 'I',
};

describe('scenarios', () => {
  test.each(Object.keys(SEQUENCES))(
    '%s follows the call-state table, then its CDR exists',
    async (scenario) => {
      const placed = await place({ scenario, talk_s: 40 });
      expect(placed.events).toEqual(SEQUENCES[scenario]);
      const events = await eventsOf(placed.call_id, 'call.hangup');
      expect(events.map((e) => e.event_name)).toEqual(SEQUENCES[scenario]);
      expect(new Set(events.map((e) => e.id)).size).toBe(events.length);
      for (const e of events) {
        if (e.event_name !== 'call.dtmf') expect(callEventSchema.safeParse(e).success).toBe(true);
        expect(e).toMatchObject({
          call_id: placed.call_id,
          start_time: placed.start_time,
          destination: expect.stringMatching(/^(in|out)$/),
        });
      }
      const times = events.map((e) => e.event_time as string);
      expect([...times].sort()).toEqual(times);
      const hangup = events.at(-1);
      expect(hangup).toMatchObject({
        state: 'HANGUP',
        terminated_by: expect.stringMatching(/^(caller|callee)$/),
      });
      if (scenario === 'inbound_queue_missed') {
        expect(events[2]).toMatchObject({ event_name: 'call.missed', context: 'QUEUE' });
      }
      if (scenario === 'ivr_dtmf') expect(events[1].digit).toMatch(/^[0-9*#]$/);
      // Spec Rule 3: once call.hangup is sent the call has left /calls and its CDR is there.
      expect((await h.api(`/calls/${placed.call_id}`)).status).toBe(404);
      const cdrs = await byLiveId('cdrs', placed.call_id);
      expect(cdrs).toHaveLength(1);
      const cdr = cdrs[0];
      expect(cdr).toMatchObject({
        live_id: placed.call_id,
        type: CDR_TYPES[scenario],
        duration: hangup.duration,
      });
      expect(cdr.billsec).toBeLessThanOrEqual(cdr.duration);
      if (cdr.type === 'M') expect(cdr.billsec).toBe(0);
      if (scenario === 'inbound_voicemail') {
        expect(cdr.disposition).toBe('VM');
        expect(await byLiveId('voicemessages', placed.call_id)).toHaveLength(1);
      }
    },
  );

  test('hold_unhold holds and resumes a connected call', async () => {
    const placed = await place({ scenario: 'hold_unhold', talk_s: 60 });
    const names = (await eventsOf(placed.call_id, 'call.hangup')).map((e) => e.event_name);
    expect(names.slice(0, 3)).toEqual(['call.initial', 'call.ringing', 'call.connected']);
    expect(names.at(-1)).toBe('call.hangup');
    const middle = names.slice(3, -1);
    expect(middle.length % 2).toBe(0);
    for (let i = 0; i < middle.length; i += 2)
      expect(middle.slice(i, i + 2)).toEqual(['call.hold', 'call.unhold']);
    const hold = rx.events.find((e) => e.call_id === placed.call_id && e.event_name === 'call.hold');
    expect(hold.state).toBe('ON_HOLD');
  });

  test('outbound_failed: initial, maybe ringing, then call.failed (busy) and a CDR without talk time', async () => {
    const placed = await place({ scenario: 'outbound_failed' });
    const events = await eventsOf(placed.call_id, 'call.failed');
    const names = events.map((e) => e.event_name);
    expect([
      ['call.initial', 'call.failed'],
      ['call.initial', 'call.ringing', 'call.failed'],
    ]).toContainEqual(names);
    expect(events.at(-1)).toMatchObject({ state: 'FAILED', t_cause: 'User busy', destination: 'out' });
    const [cdr] = await byLiveId('cdrs', placed.call_id);
    expect(cdr).toMatchObject({ type: 'O', billsec: 0 });
  });
});

describe('live calls, recordings, SMS and repeat callers', () => {
  test('GET /calls shows the call while it lasts', async () => {
    const placed = await place({ scenario: 'inbound_answered', talk_s: 1500 });
    let seen: Json;
    const until = Date.now() + 5000;
    while (Date.now() < until) {
      const res = await h.api(`/calls/${placed.call_id}`);
      if (res.status === 200) {
        seen = ((await res.json()) as { data: Json }).data;
        if (seen.state === 3) break;
      }
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(seen).toMatchObject({ id: placed.call_id, state: 3, src: placed.src });
    const list = await h.api('/calls?limit=5000');
    const ids = ((await list.json()) as { data: Json[] }).data.map((c) => c.id);
    expect(ids).toContain(placed.call_id);
    await eventsOf(placed.call_id, 'call.hangup');
    expect((await h.api(`/calls/${placed.call_id}`)).status).toBe(404);
  });

  test('a recorded call gets its transcript, summary and sentiment later', async () => {
    const placed = await place({ scenario: 'outbound_answered', talk_s: 30, recorded: true });
    expect(placed.recorded).toBe(true);
    await eventsOf(placed.call_id, 'call.hangup');
    const [monitor] = await byLiveId('monitors', placed.call_id);
    expect(monitor).toMatchObject({ live_id: placed.call_id, transcript: null, summary: null });
    const until = Date.now() + 10_000;
    let later: Json = monitor;
    while (later.transcript === null && Date.now() < until) {
      await new Promise((r) => setTimeout(r, 50));
      [later] = await byLiveId('monitors', placed.call_id);
    }
    expect(later.transcript).toEqual(expect.any(String));
    expect(later.summary).toEqual(expect.any(String));
    expect(['positive', 'neutral', 'negative']).toContain(later.sentiment);
  });

  test('an inbound SMS produces sms.received', async () => {
    const res = await h.control('POST', '/simulator/sms', { from: '+447700900123', text: 'call me' });
    expect(res.status).toBe(201);
    await rx.waitFor(1);
    const until = Date.now() + 5000;
    let got: Json;
    while (!got && Date.now() < until) {
      got = rx.events.find((e) => e.id === res.body.event.id);
      await new Promise((r) => setTimeout(r, 10));
    }
    expect(smsReceivedEventSchema.safeParse(got).success).toBe(true);
    expect(got).toMatchObject({
      from_no: '+447700900123',
      text: 'call me',
      customer_id: h.emu.admin.customer_id,
    });
  });

  test('a missed caller calls again and connects (callback-closing scenario)', async () => {
    const number = '+447700900456';
    const missed = await place({ scenario: 'inbound_queue_missed', caller: number });
    await eventsOf(missed.call_id, 'call.hangup');
    const again = await place({ scenario: 'inbound_answered', caller: number, talk_s: 20 });
    const events = await eventsOf(again.call_id, 'call.hangup');
    expect(events.find((e) => e.event_name === 'call.connected')).toMatchObject({ src: number });
  });
});

describe('traffic', () => {
  test('calls placed through POST /calls are played while the simulator runs', async () => {
    await h.control('POST', '/simulator/start', { rate_per_minute: 0, speed: SPEED, api_answer_rate: 1 });
    try {
      const res = await h.api('/calls', { method: 'POST', json: { to: '+447700900789' } });
      expect(res.status).toBe(201);
      const live = ((await res.json()) as { data: Json }).data;
      const events = await eventsOf(live.id, 'call.hangup');
      expect(events.map((e) => e.event_name)).toEqual([
        'call.initial',
        'call.ringing',
        'call.connected',
        'call.hangup',
      ]);
      expect(events[0]).toMatchObject({ destination: 'out', dst: '+447700900789' });
      expect(await byLiveId('cdrs', live.id)).toHaveLength(1);
    } finally {
      await h.control('POST', '/simulator/stop');
    }
  });

  test('start generates a mix at the given rate; stop stops it', async () => {
    // calls_started counts since the emulator began, the calls of the tests above included.
    const startedIn = (status: Json): number =>
      Object.values(status.calls_started as Record<string, number>).reduce((a, b) => a + b, 0);
    const before = startedIn((await h.control('GET', '/simulator')).body);
    const start = await h.control('POST', '/simulator/start', {
      rate_per_minute: 1200,
      speed: 2000,
      seed: 5,
    });
    expect(start.body.running).toBe(true);
    // 1200 a minute is one every 50 ms on average: more than five within a few seconds.
    await eventually(
      async () => (startedIn((await h.control('GET', '/simulator')).body) - before > 5 ? true : undefined),
      'more than five calls to start',
      10_000,
    );
    const stopped = await h.control('POST', '/simulator/stop');
    expect(stopped.body.running).toBe(false);
    expect(startedIn(stopped.body) - before).toBeGreaterThan(5);
    const until = Date.now() + 10_000;
    let status: Json = stopped.body;
    while (status.active > 0 && Date.now() < until) {
      await new Promise((r) => setTimeout(r, 50));
      status = (await h.control('GET', '/simulator')).body;
    }
    expect(status.active).toBe(0);
    expect(status.errors).toBe(0);
    // Its calls have all ended, and no call started after the stop.
    expect(startedIn(status)).toBe(startedIn(stopped.body));
  });

  test('bad input is a 400 naming the field', async () => {
    const res = await h.control('POST', '/simulator/calls', { scenario: 'fax' });
    expect(res.status).toBe(400);
    expect(res.body.errors.map((e: { field: string }) => e.field)).toContain('scenario');
    const mix = await h.control('POST', '/simulator/start', { mix: { inbound_answered: 0 } });
    expect(mix.status).toBe(400);
    expect(mix.body.errors[0].field).toBe('mix');
  });
});
