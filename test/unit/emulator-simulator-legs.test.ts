// Missed legs of queue and ring-group calls (missed_leg_share): agents whose leg rang unanswered get a
// call.missed in the user context before another agent's call.connected, or every leg misses and the call
// ends missed in the group's context. And the inbound_ring_group scenario, off in the default mix.
import { callEventSchema } from '../../connectors/platform/schemas/events';
import { DEFAULT_MIX } from '../../emulator/simulator';
import { CallSimulator } from '../../emulator/simulator/simulator';
import { createStore, DEFAULT_NOW, type EmulatorStore, type Row } from '../../emulator/store';

type Event = Record<string, unknown> & { event_name: string; context: string; call_id: number };

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
    (_c, e) => events.push(e as unknown as Event),
  );
  sim.configure({ speed: 1000, seed: 5, ...config });
  return { store, events, sim };
}

/** Plays a call to its end; returns its events. */
function play(sim: CallSimulator, events: Event[], scenario: string): { callId: number; events: Event[] } {
  const plan = sim.placeCall({ scenario: scenario as 'inbound_ring_group', talk_s: 30 });
  jest.advanceTimersByTime(plan.cdr.duration + 1);
  const mine = events.filter((e) => e.call_id === plan.callId);
  for (const e of mine) expect(callEventSchema.safeParse(e).success).toBe(true);
  return { callId: plan.callId, events: mine };
}

const legs = (events: Event[]): Event[] =>
  events.filter((e) => e.event_name === 'call.missed' && e.context === 'LOCAL_USER');
const names = (events: Event[]): string[] => events.map((e) => `${e.event_name}/${e.context}`);

function cdrOf(store: EmulatorStore, callId: number): Row | undefined {
  return store.tables.cdrs.query(store.admin.customer_id, {
    page: 1,
    limit: 1,
    filter: [{ property: 'live_id', operator: 'eq', value: callId }],
  }).data[0];
}

describe('queue calls', () => {
  test('answered: other agents’ legs are missed (LOCAL_USER) before the answering agent connects', () => {
    const { events, sim } = setup({ missed_leg_share: 1 });
    const call = play(sim, events, 'inbound_queue_answered');
    const missed = legs(call.events);
    expect(missed.length).toBeGreaterThanOrEqual(1);
    const connected = call.events.findIndex((e) => e.event_name === 'call.connected');
    expect(connected).toBeGreaterThan(0);
    for (const leg of missed) {
      expect(call.events.indexOf(leg)).toBeLessThan(connected);
      expect(leg).toMatchObject({ connected_at: null, t_cause: 'No user responding' });
      expect(String(leg.event_time) <= String(call.events[connected]?.event_time)).toBe(true);
      // Each missed leg rang first, and it was another agent than the one who answered.
      expect(leg.dst_id).not.toBe(call.events[connected]?.dst_id);
    }
    expect(call.events.at(-1)?.event_name).toBe('call.hangup');
    expect(sim.ledger().calls[0]).toMatchObject({
      legs_missed: missed.length,
      connected: true,
      missed: false,
    });
  });

  test('missed: the agents’ legs are missed, then the queue’s call.missed and call.hangup end it', () => {
    const { events, sim } = setup({ missed_leg_share: 1 });
    let call = play(sim, events, 'inbound_queue_missed');
    // An abandoned call may end before any agent's leg could ring out; the next one lasts longer.
    for (let i = 0; i < 10 && legs(call.events).length === 0; i++)
      call = play(sim, events, 'inbound_queue_missed');
    expect(legs(call.events).length).toBeGreaterThanOrEqual(1);
    expect(names(call.events).slice(-2)).toEqual(['call.missed/QUEUE', 'call.hangup/QUEUE']);
    expect(call.events.some((e) => e.event_name === 'call.connected')).toBe(false);
    const last = sim.ledger().calls.at(-1);
    expect(last).toMatchObject({ call_id: call.callId, missed: true, legs_missed: legs(call.events).length });
  });

  test('without missed_leg_share a queue call reports no legs (today’s events)', () => {
    const { events, sim } = setup();
    expect(names(play(sim, events, 'inbound_queue_answered').events)).toEqual([
      'call.initial/QUEUE',
      'call.ringing/QUEUE',
      'call.ringing/LOCAL_USER',
      'call.connected/LOCAL_USER',
      'call.hangup/LOCAL_USER',
    ]);
    expect(legs(play(sim, events, 'inbound_queue_missed').events)).toEqual([]);
  });
});

describe('inbound_ring_group', () => {
  test('members ring in turn: answered by one after the others’ legs, or missed by all', () => {
    const { store, events, sim } = setup({ missed_leg_share: 1 });
    const groups = store.tables.ringgroups.query(store.admin.customer_id, {
      page: 1,
      limit: 100,
      filter: [],
    }).data;
    const members = new Set(groups.flatMap((g) => g.users as number[]));
    const seen = { answered: 0, missed: 0, legsBeforeAnswer: 0 };
    for (let i = 0; i < 25; i++) {
      const call = play(sim, events, 'inbound_ring_group');
      expect(names(call.events).slice(0, 2)).toEqual(['call.initial/RING_GROUP', 'call.ringing/RING_GROUP']);
      const cdr = cdrOf(store, call.callId);
      expect(cdr?.context).toBe('RING_GROUP');
      const connected = call.events.findIndex((e) => e.event_name === 'call.connected');
      if (connected >= 0) {
        seen.answered++;
        expect(members.has(call.events[connected]?.dst_id as number)).toBe(true);
        for (const leg of legs(call.events)) expect(call.events.indexOf(leg)).toBeLessThan(connected);
        if (legs(call.events).length > 0) seen.legsBeforeAnswer++;
        expect(cdr).toMatchObject({ type: 'I', disposition: 'CONNECTED' });
      } else {
        seen.missed++;
        expect(legs(call.events).length).toBeGreaterThanOrEqual(1);
        expect(names(call.events).slice(-2)).toEqual(['call.missed/RING_GROUP', 'call.hangup/RING_GROUP']);
        expect(cdr).toMatchObject({ type: 'M', billsec: 0 });
      }
      for (const leg of legs(call.events)) expect(members.has(leg.dst_id as number)).toBe(true);
    }
    expect(seen.answered).toBeGreaterThan(0);
    expect(seen.missed).toBeGreaterThan(0);
    expect(seen.legsBeforeAnswer).toBeGreaterThan(0);
  });

  test('is off in the default mix, and plays when a mix asks for it', () => {
    expect(DEFAULT_MIX.inbound_ring_group).toBe(0);
    const { events, sim } = setup();
    sim.start({ rate_per_minute: 600, speed: 1000, mix: { inbound_ring_group: 1 } });
    jest.advanceTimersByTime(2000);
    sim.stop();
    jest.advanceTimersByTime(60_000);
    const started = (sim.status() as { calls_started: Record<string, number> }).calls_started;
    expect(started.inbound_ring_group).toBeGreaterThan(3);
    expect(
      events.filter((e) => e.event_name === 'call.initial').every((e) => e.context === 'RING_GROUP'),
    ).toBe(true);
  });
});
