// The simulator's pure event generators (used by the webhook benchmarks): deterministic per seed, unique
// ids, bodies that the receiver's schemas accept, sequences of the spec's call-state table.
import {
  callEventSchema,
  dtmfEventSchema,
  smsReceivedEventSchema,
} from '../../connectors/platform/schemas/events';
import { CALL_SCENARIOS, generateCallEvents, realisticEvents, seededWorld } from '../../emulator/simulator';

describe('generateCallEvents', () => {
  test('same parameters, same events; sequences start with call.initial and end the call', () => {
    const world = seededWorld(3);
    for (const scenario of CALL_SCENARIOS) {
      const a = generateCallEvents(scenario, { world, seed: 3, callId: 42 });
      const b = generateCallEvents(scenario, { world, seed: 3, callId: 42 });
      expect(a.events).toEqual(b.events);
      const names = a.events.map((e) => e.event_name);
      expect(names[0]).toBe('call.initial');
      expect(['call.hangup', 'call.failed']).toContain(names.at(-1));
      if (scenario === 'outbound_failed') expect(names).not.toContain('call.connected');
      if (scenario === 'inbound_queue_missed') {
        expect(a.events.find((e) => e.event_name === 'call.missed')?.context).toBe('QUEUE');
      }
      for (const e of a.events) {
        expect(e.call_id).toBe(42);
        if (e.event_name !== 'call.dtmf') expect(callEventSchema.safeParse(e).success).toBe(true);
        else expect(dtmfEventSchema.parse(e)).toMatchObject({ call_id: 42, digits: expect.any(String) });
      }
      expect(a.plan.cdr.billsec).toBeLessThanOrEqual(a.plan.cdr.duration);
    }
  });

  test('callers are seeded contacts (E.164) or unknown numbers', () => {
    const world = seededWorld(3);
    const contactNumbers = new Set(world.contacts.flatMap((c) => c.numbers));
    let contacts = 0;
    for (let i = 1; i <= 50; i++) {
      const { plan } = generateCallEvents('inbound_answered', { world, seed: 9, callId: i });
      expect(plan.src.number).toMatch(/^\+\d{6,15}$/);
      if (contactNumbers.has(plan.src.number)) {
        contacts++;
        expect(plan.src.ref).toMatch(/^contact:\d+$/);
      }
    }
    expect(contacts).toBeGreaterThan(20);
    expect(contacts).toBeLessThan(50);
  });
});

describe('realisticEvents', () => {
  test('n events with unique ids, a mix of call events and SMS, deterministic per seed', () => {
    const events = realisticEvents(3000, 5);
    expect(events).toHaveLength(3000);
    expect(new Set(events.map((e) => e.id)).size).toBe(3000);
    expect(realisticEvents(3000, 5)).toEqual(events);
    const names = new Set(events.map((e) => e.event_name));
    for (const n of [
      'call.initial',
      'call.ringing',
      'call.connected',
      'call.hangup',
      'call.missed',
      'call.failed',
      'call.hold',
      'sms.received',
      'call.dtmf',
    ])
      expect(names).toContain(n);
    for (const e of events.slice(0, 500)) {
      const schema =
        e.event_name === 'sms.received'
          ? smsReceivedEventSchema
          : e.event_name === 'call.dtmf'
            ? dtmfEventSchema
            : callEventSchema;
      expect(schema.safeParse(e).success).toBe(true);
    }
  });
});
