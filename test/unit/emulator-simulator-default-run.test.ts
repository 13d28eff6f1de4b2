// With every real-world behaviour off (the defaults), a seeded simulator run and a seeded webhook fault
// plan produce exactly what they produced before those behaviours existed: the same events (but their
// random UUIDs), the same CDRs, recordings, voice messages and SMS, the same fault draws. The digests
// below were taken from the code at 565a6b4; any change to a default run changes them. Since then only
// recordings changed, on purpose: `timestamp` is a date string and `type` the call's direction (issue 28).
import { createHash } from 'node:crypto';
import { CallSimulator } from '../../emulator/simulator/simulator';
import { createStore, DEFAULT_NOW, type EmulatorStore, type Row, type TableName } from '../../emulator/store';
import { FaultPlan } from '../../emulator/webhooks/faults';

function digest(value: unknown): string {
  return createHash('sha256').update(JSON.stringify(value)).digest('hex').slice(0, 16);
}

function rowsAfter(store: EmulatorStore, table: TableName, customerId: number, firstId: number): Row[] {
  return store.tables[table]
    .query(customerId, { page: 1, limit: 1_000_000, filter: [] })
    .data.filter((r) => Number(r.id) >= firstId);
}

describe('a default seeded run', () => {
  beforeEach(() => jest.useFakeTimers({ now: DEFAULT_NOW }));
  afterEach(() => jest.useRealTimers());

  test('plays the same calls, events and rows as before the real-world behaviours existed', () => {
    const store = createStore({ seed: 7, cdrs: 50, now: DEFAULT_NOW });
    const customerId = store.admin.customer_id;
    const events: Record<string, unknown>[] = [];
    const sim = new CallSimulator(
      () => store,
      (_c, e) => events.push(e),
    );
    const first = {
      cdrs: store.tables.cdrs.lastId + 1,
      monitors: store.tables.monitors.lastId + 1,
      voicemessages: store.tables.voicemessages.lastId + 1,
      sms: store.tables.sms.lastId + 1,
    };
    sim.start({ rate_per_minute: 120, speed: 600, seed: 4 });
    jest.advanceTimersByTime(60_000);
    // A call placed through the API while traffic runs is played too.
    const user = store.tables.users.query(customerId, { page: 1, limit: 1, filter: [] }).data[0] as Row;
    store.tables.calls.insert(customerId, {
      src_id: String(user.id),
      dst: '+447700900321',
      start_time: Math.floor(store.clock.now().getTime() / 1000),
      state: 0,
    });
    jest.advanceTimersByTime(30_000);
    sim.stop();
    jest.advanceTimersByTime(10 * 60_000);
    const status = sim.status() as { active: number; errors: number; calls_started: Record<string, number> };
    expect(status.active).toBe(0);
    expect(status.errors).toBe(0);
    const calls = Object.values(status.calls_started).reduce((a, b) => a + b, 0);
    const rows = {
      cdrs: rowsAfter(store, 'cdrs', customerId, first.cdrs),
      monitors: rowsAfter(store, 'monitors', customerId, first.monitors),
      voicemessages: rowsAfter(store, 'voicemessages', customerId, first.voicemessages),
      sms: rowsAfter(store, 'sms', customerId, first.sms),
    };
    const withoutIds = events.map(({ id: _id, ...rest }) => rest);
    const counts = {
      calls,
      events: events.length,
      cdrs: rows.cdrs.length,
      monitors: rows.monitors.length,
      voicemessages: rows.voicemessages.length,
      sms: rows.sms.length,
    };
    expect(counts).toEqual(EXPECTED.counts);
    expect({ events: digest(withoutIds), rows: digest(rows), clock: store.clock.nowString() }).toEqual(
      EXPECTED.digests,
    );
    sim.close();
  });

  test('draws the same webhook faults as before late deliveries existed', () => {
    const plan = new FaultPlan();
    plan.set({
      duplicate_probability: 0.2,
      reorder_probability: 0.3,
      drop_probability: 0.1,
      delay_ms: [5, 50],
      seed: 9,
    });
    const decisions = Array.from({ length: 2000 }, () => {
      const d = plan.decide();
      return [d.drop, d.duplicate, d.reorder, d.delayMs];
    });
    expect(digest(decisions)).toBe(EXPECTED.faults);
  });
});

/** Taken from 565a6b4 (before the real-world behaviours). */
const EXPECTED = {
  counts: { calls: 201, events: 832, cdrs: 195, monitors: 81, voicemessages: 6, sms: 6 },
  digests: { events: '015c4fd8701b00ca', rows: 'e0c6a54bc7a1d1f8', clock: '2026-11-02 03:00:00' },
  faults: '38d48939d44d7f73',
};
