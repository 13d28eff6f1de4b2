// The simulator's real-world timing, in process on fake timers (speed 1000: one simulated second is one
// millisecond): the CDR and recording written minutes after hangup while the live call leaves /calls and
// call.hangup goes at hangup; CDRs dated at their call's true start even when that is before CDRs already
// written; long calls; and the ledger, pending until a call's last write.
import { CallSimulator } from '../../emulator/simulator/simulator';
import { createStore, DEFAULT_NOW, formatDateTime, type EmulatorStore, type Row } from '../../emulator/store';

type Event = Record<string, unknown>;

beforeEach(() => jest.useFakeTimers({ now: DEFAULT_NOW }));
afterEach(() => jest.useRealTimers());

function setup(config: Record<string, unknown> = {}): {
  store: EmulatorStore;
  events: Event[];
  sim: CallSimulator;
} {
  const store = createStore({ seed: 7, cdrs: 40, now: DEFAULT_NOW });
  const events: Event[] = [];
  const sim = new CallSimulator(
    () => store,
    (_c, e) => events.push(e),
  );
  sim.configure({ speed: 1000, seed: 3, ...config });
  return { store, events, sim };
}

function byLive(store: EmulatorStore, table: 'cdrs' | 'monitors', liveId: number): Row[] {
  return store.tables[table].query(store.admin.customer_id, {
    page: 1,
    limit: 10,
    filter: [{ property: 'live_id', operator: 'eq', value: liveId }],
  }).data;
}

const at = (epochSeconds: number): string => formatDateTime(new Date(epochSeconds * 1000));

describe('late records', () => {
  test('the CDR and the recording come cdr_delay_s and recording_delay_s after hangup', () => {
    const { store, events, sim } = setup({ cdr_delay_s: [600, 600], recording_delay_s: [900, 900] });
    const plan = sim.placeCall({ scenario: 'outbound_answered', talk_s: 60, recorded: true });
    const hangup = plan.start + plan.cdr.duration;
    jest.advanceTimersByTime(plan.cdr.duration);
    // At hangup: the live call is gone and call.hangup has gone, but no CDR yet.
    expect(events.at(-1)).toMatchObject({ event_name: 'call.hangup', call_id: plan.callId });
    expect(store.tables.calls.get(plan.callId)).toBeUndefined();
    expect(byLive(store, 'cdrs', plan.callId)).toEqual([]);
    expect(sim.ledger().calls[0]).toMatchObject({ hangup_sent: true, cdr_id: null, pending: true });
    jest.advanceTimersByTime(599);
    expect(byLive(store, 'cdrs', plan.callId)).toEqual([]);
    jest.advanceTimersByTime(1);
    const [cdr] = byLive(store, 'cdrs', plan.callId);
    expect(cdr).toMatchObject({
      live_id: plan.callId,
      calldate: at(plan.start),
      duration: plan.cdr.duration,
    });
    expect(store.clock.nowString()).toBe(at(hangup + 600));
    expect(byLive(store, 'monitors', plan.callId)).toEqual([]);
    jest.advanceTimersByTime(299);
    expect(byLive(store, 'monitors', plan.callId)).toEqual([]);
    jest.advanceTimersByTime(1);
    const [monitor] = byLive(store, 'monitors', plan.callId);
    expect(monitor).toMatchObject({ cdr_id: cdr?.id, created_at: at(hangup + 900), transcript: null });
    expect(sim.ledger().calls[0]).toMatchObject({
      cdr_id: cdr?.id,
      cdr_written_at: hangup + 600,
      recording_id: monitor?.id,
      recording_at: hangup + 900,
      audio_ready_at: hangup + 900,
      pending: true, // the transcript is still to come
    });
    jest.advanceTimersByTime(120);
    expect(byLive(store, 'monitors', plan.callId)[0]?.transcript).toEqual(expect.any(String));
    expect(sim.ledger().calls[0]).toMatchObject({ transcript_at: hangup + 1020, pending: false });
    expect(sim.ledger().pending).toBe(0);
  });

  test('a recording is never listed before its CDR', () => {
    const { store, sim } = setup({ cdr_delay_s: [300, 300], recording_delay_s: [0, 0] });
    const plan = sim.placeCall({ scenario: 'outbound_answered', talk_s: 30, recorded: true });
    jest.advanceTimersByTime(plan.cdr.duration + 299);
    expect(byLive(store, 'monitors', plan.callId)).toEqual([]);
    jest.advanceTimersByTime(1);
    expect(byLive(store, 'cdrs', plan.callId)).toHaveLength(1);
    expect(byLive(store, 'monitors', plan.callId)).toHaveLength(1);
  });

  test('a CDR is dated at its call’s true start, before CDRs written since', () => {
    const { store, sim } = setup({ cdr_delay_s: [60, 60] });
    const long = sim.placeCall({ scenario: 'inbound_answered', talk_s: 3 * 3600, recorded: false });
    jest.advanceTimersByTime(1000);
    const short = sim.placeCall({ scenario: 'outbound_answered', talk_s: 30, recorded: false });
    jest.advanceTimersByTime(4 * 3600);
    const [a] = byLive(store, 'cdrs', long.callId);
    const [b] = byLive(store, 'cdrs', short.callId);
    expect(a?.calldate).toBe(at(long.start));
    expect(b?.calldate).toBe(at(short.start));
    // Written after the short call's CDR (a higher id), dated before it: what real platforms do.
    expect(Number(a?.id)).toBeGreaterThan(Number(b?.id));
    expect(String(a?.calldate) < String(b?.calldate)).toBe(true);
    // A date range still finds it.
    const found = store.tables.cdrs.query(store.admin.customer_id, {
      page: 1,
      limit: 10,
      filter: [
        { property: 'calldate', operator: 'gte', value: at(long.start) },
        { property: 'calldate', operator: 'lt', value: at(short.start) },
      ],
    });
    expect(found.data.map((r) => r.id)).toContain(a?.id);
  });

  test('a voicemail’s voice message is written with its CDR, late', () => {
    const { store, sim } = setup({ cdr_delay_s: [200, 200] });
    const plan = sim.placeCall({ scenario: 'inbound_voicemail' });
    jest.advanceTimersByTime(plan.cdr.duration + 199);
    const vms = (): Row[] =>
      store.tables.voicemessages.query(store.admin.customer_id, {
        page: 1,
        limit: 10,
        filter: [{ property: 'live_id', operator: 'eq', value: plan.callId }],
      }).data;
    expect(vms()).toEqual([]);
    jest.advanceTimersByTime(1);
    expect(vms()).toHaveLength(1);
    expect(sim.ledger().voicemails).toEqual([
      {
        voicemessage_id: vms()[0]?.id,
        call_id: plan.callId,
        customer_id: store.admin.customer_id,
        written_at: plan.start + plan.cdr.duration + 200,
        audio_ready_at: plan.start + plan.cdr.duration + 200,
      },
    ]);
  });
});

describe('long calls', () => {
  test('long_call_share of connected calls talk for long_call_s', () => {
    const { sim } = setup({ long_call_share: 1, long_call_s: [7200, 7200] });
    const answered = sim.placeCall({ scenario: 'inbound_answered' });
    expect(answered.cdr.billsec).toBe(7200);
    const missed = sim.placeCall({ scenario: 'inbound_missed' });
    const given = sim.placeCall({ scenario: 'outbound_answered', talk_s: 45 });
    expect(given.cdr.billsec).toBe(45);
    jest.advanceTimersByTime(8000);
    const entries = new Map(sim.ledger().calls.map((c) => [c.call_id, c]));
    expect(entries.get(answered.callId)).toMatchObject({ long: true, connected: true, pending: false });
    expect(entries.get(missed.callId)).toMatchObject({ long: false, connected: false, missed: true });
    expect(entries.get(given.callId)).toMatchObject({ long: false });
  });

  test('without long_call_share no call talks more than 20 minutes', () => {
    const { sim } = setup();
    for (let i = 0; i < 30; i++)
      expect(sim.placeCall({ scenario: 'inbound_answered' }).cdr.billsec).toBeLessThanOrEqual(1200);
  });
});
