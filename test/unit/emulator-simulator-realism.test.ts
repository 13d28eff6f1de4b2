// The simulator's real-world behaviours over HTTP: audio that answers 404 until the emulator clock reaches
// its ready time (or for ever when lost), the ledger (GET /_emulator/simulator/ledger) against what the
// API lists, calls placed through POST /calls played while traffic is stopped (in real time by default, at the
// simulator's speed with drive_api_calls 'always'), calls of many hours, and the settings' validation.
/* eslint-disable @typescript-eslint/no-unsafe-return -- webhook and API bodies are untyped JSON here */
import { DEFAULT_SIMULATOR_CONFIG } from '../../emulator/simulator';
import { startHarness, type Harness, type Json } from './emulator-server-harness';
import { startReceiver, type Receiver } from './emulator-webhooks-receiver';

let h: Harness;
let rx: Receiver;

const REALISM_OFF = {
  cdr_delay_s: [0, 0],
  recording_delay_s: [0, 0],
  audio_delay_s: [0, 0],
  audio_lost_share: 0,
  long_call_share: 0,
  missed_leg_share: 0,
  drive_api_calls: true,
};

beforeAll(async () => {
  h = await startHarness(300);
  rx = await startReceiver();
  const res = await h.control('POST', '/webhooks', {
    name: 'callsync',
    categories: ['call_state_change'],
    url: rx.url,
  });
  expect(res.status).toBe(201);
});
afterAll(async () => {
  await h.control('POST', '/simulator/stop');
  await rx.close();
  await h.close();
});
beforeEach(async () => {
  const res = await h.control('PATCH', '/simulator', { ...REALISM_OFF, speed: 10_000 });
  expect(res.status).toBe(200);
});

/** Polls `read` until `done` holds (an observable condition), or fails after `timeoutMs`. */
async function until<T>(
  what: string,
  read: () => Promise<T>,
  done: (v: T) => boolean,
  timeoutMs = 15_000,
): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await read();
    if (done(v)) return v;
    if (Date.now() > end)
      throw new Error(`${what}: not after ${timeoutMs} ms (${JSON.stringify(v).slice(0, 300)})`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

async function ledger(): Promise<Json> {
  const res = await h.control('GET', '/simulator/ledger');
  expect(res.status).toBe(200);
  return res.body;
}

async function entryOf(callId: number, done: (e: Json) => boolean): Promise<Json> {
  return until(
    `ledger entry of call ${callId}`,
    async () => ((await ledger()).calls as Json[]).find((c) => c.call_id === callId),
    (e) => e !== undefined && done(e),
  );
}

async function place(body: Record<string, unknown>): Promise<Json> {
  const res = await h.control('POST', '/simulator/calls', body);
  expect(res.status).toBe(201);
  return res.body;
}

async function listed(resource: string, filter: unknown[]): Promise<Json[]> {
  const res = await h.api(`/${resource}?limit=5000&filter=${encodeURIComponent(JSON.stringify(filter))}`);
  expect(res.status).toBe(200);
  return ((await res.json()) as { data: Json[] }).data;
}

const byLiveId = (resource: string, liveId: number): Promise<Json[]> =>
  listed(resource, [{ property: 'live_id', operator: 'eq', value: liveId }]);

describe('late audio', () => {
  test('a recording’s .mp3 answers 404 until the emulator clock reaches its ready time, then 200', async () => {
    await h.control('PATCH', '/simulator', { audio_delay_s: [86_400, 86_400] });
    const placed = await place({ scenario: 'outbound_answered', talk_s: 20, recorded: true });
    const entry = await entryOf(placed.call_id, (e) => e.recording_id !== null);
    expect(entry.audio_ready_at).toBe(entry.recording_at + 86_400);
    const [monitor] = await byLiveId('monitors', placed.call_id);
    expect(monitor.id).toBe(entry.recording_id);
    // Nothing about readiness shows in the row.
    expect(Object.keys(monitor).some((k) => /ready|lost/.test(k))).toBe(false);
    expect((await h.api(`/monitors/${monitor.id}.mp3`)).status).toBe(404);
    await h.control('POST', '/clock', { now: new Date((entry.audio_ready_at - 1) * 1000).toISOString() });
    expect((await h.api(`/monitors/${monitor.id}.mp3`)).status).toBe(404);
    await h.control('POST', '/clock/advance', { seconds: 1 });
    const ready = await h.api(`/monitors/${monitor.id}.mp3`);
    expect(ready.status).toBe(200);
    expect(ready.headers.get('content-type')).toBe('audio/mpeg');
  });

  test('lost audio answers 404 for ever', async () => {
    await h.control('PATCH', '/simulator', { audio_lost_share: 1 });
    const placed = await place({ scenario: 'outbound_answered', talk_s: 20, recorded: true });
    const entry = await entryOf(placed.call_id, (e) => e.recording_id !== null);
    expect(entry).toMatchObject({ audio_lost: true, audio_ready_at: null });
    await h.control('POST', '/clock/advance', { seconds: 90 * 86_400 });
    expect((await h.api(`/monitors/${entry.recording_id}.mp3`)).status).toBe(404);
  });

  test('a voice message’s .mp3 is late too', async () => {
    await h.control('PATCH', '/simulator', { audio_delay_s: [86_400, 86_400] });
    const placed = await place({ scenario: 'inbound_voicemail' });
    const entry = await entryOf(placed.call_id, (e) => e.cdr_id !== null);
    const vm = ((await ledger()).voicemails as Json[]).find((v) => v.call_id === placed.call_id);
    expect(vm.audio_ready_at).toBe(entry.cdr_written_at + 86_400);
    expect((await h.api(`/voicemessages/${vm.voicemessage_id}.mp3`)).status).toBe(404);
    await h.control('POST', '/clock', { now: new Date(vm.audio_ready_at * 1000).toISOString() });
    expect((await h.api(`/voicemessages/${vm.voicemessage_id}.mp3`)).status).toBe(200);
  });
});

describe('the ledger', () => {
  test('matches what the API lists once nothing is pending', async () => {
    await h.control('DELETE', '/simulator/ledger');
    await h.control('DELETE', '/webhooks/deliveries');
    const newest = h.emu.store.tables.cdrs.query(h.emu.admin.customer_id, {
      page: 1,
      limit: 1,
      filter: [],
      sort: { property: 'id', desc: true },
    });
    const cdrsBefore = Number(newest.data[0]?.id);
    rx.events.length = 0;
    await h.control('POST', '/simulator/start', {
      rate_per_minute: 3000,
      speed: 20_000,
      seed: 21,
      mix: {
        inbound_answered: 3,
        inbound_queue_answered: 3,
        inbound_queue_missed: 2,
        inbound_ring_group: 3,
        inbound_voicemail: 2,
        outbound_answered: 2,
        outbound_failed: 1,
        sms_inbound: 1,
      },
      cdr_delay_s: [30, 600],
      recording_delay_s: [0, 900],
      audio_delay_s: [0, 600],
      audio_lost_share: 0.3,
      long_call_share: 0.2,
      long_call_s: [3600, 7200],
      missed_leg_share: 0.7,
    });
    await until('40 calls placed', ledger, (l) => l.calls.length >= 40);
    await h.control('POST', '/simulator/stop');
    const status = await until(
      'every call played and written',
      async () => (await h.control('GET', '/simulator')).body,
      (s) => s.active === 0 && s.ledger_pending === 0,
      30_000,
    );
    expect(status.errors).toBe(0);
    // Every event delivered before the receiver's events are compared with the ledger: on a loaded
    // machine the last deliveries (and their retries) take longer than a quiet one's few seconds.
    const delivered = await h.control('POST', '/webhooks/deliveries/wait', { timeout_ms: 90_000 });
    expect(delivered.body).toEqual({ idle: true, in_flight: 0 });
    const l = await ledger();
    expect(l).toEqual(h.emu.simulator.ledger());
    expect(l.pending).toBe(0);
    const cdrs = new Map(
      (await listed('cdrs', [{ property: 'id', operator: 'gt', value: cdrsBefore }])).map((c) => [
        c.live_id,
        c,
      ]),
    );
    const monitors = new Map((await listed('monitors', [])).map((m) => [m.live_id, m]));
    expect(cdrs.size).toBe(l.calls.length);
    const kinds = { long: 0, legs: 0, lost: 0, ringGroup: 0, calldateBack: 0 };
    let latestCalldate = '';
    for (const c of [...l.calls].sort((a: Json, b: Json) => a.cdr_id - b.cdr_id)) {
      const cdr = cdrs.get(c.call_id);
      expect(cdr).toMatchObject({ id: c.cdr_id, duration: c.end - c.start, user_id: c.user_id });
      expect(cdr.calldate).toBe(new Date(c.start * 1000).toISOString().slice(0, 19).replace('T', ' '));
      if (cdr.calldate < latestCalldate) kinds.calldateBack++;
      latestCalldate = cdr.calldate > latestCalldate ? cdr.calldate : latestCalldate;
      expect(c.cdr_written_at).toBeGreaterThanOrEqual(c.end + 30);
      expect(c.hangup_sent).toBe(true);
      expect(c.external).toMatch(/^\+\d{6,15}$/);
      expect(['in', 'out']).toContain(c.direction);
      if (c.recorded) {
        expect(monitors.get(c.call_id)).toMatchObject({ id: c.recording_id, cdr_id: c.cdr_id });
        expect(c.recording_at).toBeGreaterThanOrEqual(c.cdr_written_at);
        expect(c.transcript_at).not.toBeNull();
      } else expect(monitors.has(c.call_id)).toBe(false);
      // Each event once: on a loaded machine a delivery can time out at the emulator after the receiver
      // took it, and come again (at-least-once, as the platform delivers).
      const events = [
        ...new Map(rx.events.filter((e) => e.call_id === c.call_id).map((e) => [e.id, e])).values(),
      ];
      const legs = events.filter((e) => e.event_name === 'call.missed' && e.context === 'LOCAL_USER');
      expect(c.legs_missed).toBe(c.scenario === 'inbound_voicemail' ? 0 : legs.length);
      expect(c.connected).toBe(events.some((e) => e.event_name === 'call.connected'));
      if (c.long) kinds.long++;
      if (c.legs_missed > 0) kinds.legs++;
      if (c.audio_lost) kinds.lost++;
      if (c.scenario === 'inbound_ring_group') kinds.ringGroup++;
    }
    for (const k of Object.keys(kinds))
      expect(`${k}: ${kinds[k as keyof typeof kinds] > 0}`).toBe(`${k}: true`);
    for (const v of l.voicemails)
      expect(await byLiveId('voicemessages', v.call_id)).toEqual([
        expect.objectContaining({ id: v.voicemessage_id }),
      ]);
    const sms = new Set((await listed('sms', [])).map((s) => s.id));
    expect(l.sms.length).toBeGreaterThan(0);
    for (const s of l.sms) expect(sms.has(s.sms_id)).toBe(true);
  }, 240_000); // forty calls played and delivered, on a loaded machine
});

describe('calls placed through POST /calls', () => {
  test('are played while traffic is stopped, at the simulator speed when drive_api_calls is always', async () => {
    expect((await h.control('GET', '/simulator')).body.running).toBe(false);
    const idle = await h.api('/calls', { method: 'POST', json: { to: '+447700900111' } });
    expect(idle.status).toBe(201);
    const idleId = (await idle.json()).data.id;
    const cfg = await h.control('PATCH', '/simulator', { drive_api_calls: 'always', api_answer_rate: 1 });
    expect(cfg.body.config.drive_api_calls).toBe('always');
    const res = await h.api('/calls', { method: 'POST', json: { to: '+447700900222' } });
    const id = (await res.json()).data.id;
    const entry = await entryOf(id, (e) => !e.pending);
    expect(entry).toMatchObject({
      from_api: true,
      direction: 'out',
      external: '+447700900222',
      connected: true,
    });
    expect(await byLiveId('cdrs', id)).toHaveLength(1);
    // The call placed with the default (true) while traffic was stopped plays too, in real time: still live.
    expect((await h.api(`/calls/${idleId}`)).status).toBe(200);
    expect(((await ledger()).calls as Json[]).find((c) => c.call_id === idleId)).toMatchObject({
      pending: true,
    });
    // ...and it progresses: its first step (call.initial, at second 0) reaches the webhook receiver.
    const events = await until(
      `an event of call ${idleId}`,
      () => Promise.resolve(rx.events.filter((e) => e.call_id === idleId)),
      (list) => list.length > 0,
    );
    expect(events[0].event_name).toBe('call.initial');
  });
});

describe('settings', () => {
  test('a call of several hours can be asked for', async () => {
    const placed = await place({ scenario: 'inbound_answered', talk_s: 12 * 3600 });
    expect(placed.duration).toBeGreaterThan(12 * 3600);
  });

  test('bad values are a 400 naming the field; every behaviour is off by default', async () => {
    for (const [body, field] of [
      [{ cdr_delay_s: [600, 60] }, 'cdr_delay_s'],
      [{ audio_delay_s: [-1, 5] }, 'audio_delay_s[0]'],
      [{ audio_lost_share: 1.5 }, 'audio_lost_share'],
      [{ long_call_s: [0, 10] }, 'long_call_s[0]'],
      [{ missed_leg_share: -0.1 }, 'missed_leg_share'],
      [{ drive_api_calls: 'sometimes' }, 'drive_api_calls'],
    ] as const) {
      const res = await h.control('PATCH', '/simulator', body);
      expect(res.status).toBe(400);
      expect(res.body.errors.map((e: { field: string }) => e.field)).toContain(field);
    }
    const calls = await h.control('POST', '/simulator/calls', {
      scenario: 'inbound_answered',
      talk_s: 86_401,
    });
    expect(calls.status).toBe(400);
    expect(DEFAULT_SIMULATOR_CONFIG).toMatchObject({
      cdr_delay_s: [0, 0],
      recording_delay_s: [0, 0],
      audio_delay_s: [0, 0],
      audio_lost_share: 0,
      long_call_share: 0,
      missed_leg_share: 0,
      drive_api_calls: true,
    });
  });
});
