// The platform's shared request rate on a real PostgreSQL: concurrent reservations from many
// "workers" get slots one interval apart, a burst lets that many go at once after an idle spell,
// and scopes (accounts) do not share slots. Intervals are minutes long, so no assertion depends on
// how fast the machine runs: a reservation only computes its wait, nothing sleeps for real.
import { sql } from 'kysely';
import {
  answerWindowSlot,
  blockingWindowRequest,
  reserveRateSlot,
  reserveWindowSlot,
} from '../../connectors/postgres';
import { UNANSWERED_PLACE_MS } from '../../lib/window-limiter';
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

  it('shares a sliding window: max places at once, each freed one window after its answer, across workers', async () => {
    const window = { vendor: 'hubspot', scope: 'portal', max: 4, windowMs: MINUTE };
    // Ten concurrent reservations, as from several workers: four places, and no start for the rest
    // while those four are in flight.
    const slots = await Promise.all(Array.from({ length: 10 }, () => reserveWindowSlot(w.db, window)));
    const given = slots.filter((s) => s !== null);
    expect(given.map((s) => s.number).sort()).toEqual([0, 1, 2, 3]);
    expect(given.map((s) => s.waitMs)).toEqual([0, 0, 0, 0]);
    expect(await blockingWindowRequest(w.db, window)).toBe(0);
    // Request 4 takes request 0's place: request 1's answer does not free it.
    await answerWindowSlot(w.db, window, 1);
    expect(await reserveWindowSlot(w.db, window)).toBeNull();
    await answerWindowSlot(w.db, window, 0);
    for (const number of [4, 5]) {
      const slot = await reserveWindowSlot(w.db, window);
      expect(slot?.number).toBe(number);
      expect(slot!.waitMs).toBeGreaterThan(MINUTE - 10_000);
      expect(slot!.waitMs).toBeLessThanOrEqual(MINUTE);
    }
    // Another portal has a window of its own.
    expect(await reserveWindowSlot(w.db, { ...window, scope: 'other portal' })).toEqual({
      number: 0,
      waitMs: 0,
    });
  });

  it("frees a dead worker's place once it is stale, and ignores its answer after that", async () => {
    const window = { vendor: 'pipedrive', scope: 'token', max: 2, windowMs: MINUTE };
    expect((await reserveWindowSlot(w.db, window))?.number).toBe(0);
    expect((await reserveWindowSlot(w.db, window))?.number).toBe(1);
    await answerWindowSlot(w.db, window, 1);
    expect(await reserveWindowSlot(w.db, window)).toBeNull();
    // Request 0's worker died UNANSWERED_PLACE_MS ago, with its request in flight.
    await sql`update vendor_rate_windows set starts = array[starts[1] - ${UNANSWERED_PLACE_MS}::float8, starts[2]]
      where vendor = 'pipedrive' and scope = 'token'`.execute(w.db);
    const taken = await reserveWindowSlot(w.db, window);
    expect(taken?.number).toBe(2);
    // Counted a window from when the place went stale, which is now.
    expect(taken!.waitMs).toBeGreaterThan(MINUTE - 10_000);
    expect((await reserveWindowSlot(w.db, window))?.number).toBe(3);
    await answerWindowSlot(w.db, window, 0);
    // Request 2 holds that place now: the dead request's late answer freed nothing.
    expect(await reserveWindowSlot(w.db, window)).toBeNull();
    await answerWindowSlot(w.db, window, 2);
    expect((await reserveWindowSlot(w.db, window))?.number).toBe(4);
  });
});
