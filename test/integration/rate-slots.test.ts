// The platform's shared request rate on a real PostgreSQL: concurrent reservations from many
// "workers" get slots one interval apart, a burst lets that many go at once after an idle spell,
// and scopes (accounts) do not share slots. Intervals are minutes long, so no assertion depends on
// how fast the machine runs: a reservation only computes its wait, nothing sleeps for real.
import { reserveRateSlot, reserveWindowSlot } from '../../connectors/postgres';
import { sharedPlatformLimiter } from '../../runtime/vendor-limits';
import { createMigratedWarehouse, type MigratedWarehouse } from './warehouse-db';

const MINUTE = 60_000;

describe('shared rate slots', () => {
  let w: MigratedWarehouse;
  beforeAll(async () => {
    w = await createMigratedWarehouse('rate-slots', 20);
  });
  afterAll(async () => {
    await w?.dispose();
  });

  it('spaces 8 concurrent reservations one interval apart, in any order they arrive', async () => {
    const slot = { vendor: 'platform', scope: 'acme', intervalMs: MINUTE, burst: 1 };
    const waits = await Promise.all(Array.from({ length: 8 }, () => reserveRateSlot(w.db, slot)));
    waits.sort((a, b) => a - b);
    expect(waits[0]).toBe(0);
    for (let k = 1; k < waits.length; k++) {
      expect(waits[k]).toBeLessThanOrEqual(k * MINUTE);
      expect(waits[k]).toBeGreaterThan(k * MINUTE - 10_000);
    }
    // Another account has slots of its own.
    expect(await reserveRateSlot(w.db, { ...slot, scope: 'other' })).toBe(0);
  });

  it('lets a burst go at once after an idle spell, then spaces the rest', async () => {
    const slot = { vendor: 'platform', scope: 'bursty', intervalMs: MINUTE, burst: 3 };
    const waits: number[] = [];
    for (let i = 0; i < 5; i++) waits.push(await reserveRateSlot(w.db, slot));
    expect(waits.slice(0, 3)).toEqual([0, 0, 0]);
    expect(waits[3]).toBeGreaterThan(MINUTE - 10_000);
    expect(waits[4]).toBeGreaterThan(2 * MINUTE - 10_000);
  });

  it("the platform client's limiter sleeps the reserved wait", async () => {
    const slept: number[] = [];
    const limiter = sharedPlatformLimiter(
      w.db,
      'limiter',
      { requestsPerSecond: 1 / 60, burst: 1 },
      async (ms) => {
        slept.push(ms);
      },
    );
    expect(await limiter.acquire()).toBe(0);
    const second = await limiter.acquire();
    expect(second).toBeGreaterThan(MINUTE - 10_000);
    expect(slept).toEqual([second]);
  });

  it('shares a sliding window: max starts at once, the next max one window after them, across workers', async () => {
    const window = { vendor: 'hubspot', scope: 'portal', max: 4, windowMs: MINUTE };
    // Ten concurrent reservations, as from several workers.
    const waits = await Promise.all(Array.from({ length: 10 }, () => reserveWindowSlot(w.db, window)));
    waits.sort((a, b) => a - b);
    expect(waits.slice(0, 4)).toEqual([0, 0, 0, 0]);
    for (const wait of waits.slice(4, 8)) {
      expect(wait).toBeGreaterThan(MINUTE - 10_000);
      expect(wait).toBeLessThanOrEqual(MINUTE);
    }
    for (const wait of waits.slice(8)) {
      expect(wait).toBeGreaterThan(2 * MINUTE - 10_000);
      expect(wait).toBeLessThanOrEqual(2 * MINUTE);
    }
    // Another portal has a window of its own.
    expect(await reserveWindowSlot(w.db, { ...window, scope: 'other portal' })).toBe(0);
  });
});
