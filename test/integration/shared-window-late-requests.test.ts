// A vendor's sliding window shared by two workers through a real PostgreSQL, with requests that leave
// late and bunched, as from a starved event loop: each place is held until the request's answer, so
// the vendor, which counts a request when it arrives, never sees more than the limit in any window.
import { sharedRateLimiters } from '../../connectors/crm/shared-rate-limiter';
import { holdPlace } from '../../lib/rate-limiter';
import { SlidingWindowLimit } from '../fakes/vendor-limits';
import { createMigratedWarehouse, type MigratedWarehouse } from './warehouse-db';

describe('shared window limit with late requests', () => {
  let w: MigratedWarehouse;
  beforeAll(async () => {
    w = await createMigratedWarehouse('window-late', 20);
  });
  afterAll(async () => {
    await w?.dispose();
  });

  it('keeps two workers inside the vendor window however late their requests leave', async () => {
    const rate = { max: 3, windowMs: 200 };
    // Two workers: each its own limiter instance on the same scope, as in two processes.
    const workers = [0, 1].map(() => sharedRateLimiters(w.db, 'pipedrive').window('token', rate));
    const vendor = new SlidingWindowLimit(rate.max, rate.windowMs);
    const arrivals: number[] = [];
    let refused = 0;
    let left = 45;
    let seed = 5;
    const random = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
    const caller = async (k: number) => {
      while (left-- > 0) {
        const place = await holdPlace(workers[k % 2]!);
        try {
          // Leaves up to 300 ms after its start, reaches the vendor, has its answer 5 ms later.
          await new Promise((r) => setTimeout(r, Math.floor(random() * 300)));
          const now = Date.now();
          arrivals.push(now);
          if (!vendor.take(now)) refused++;
          await new Promise((r) => setTimeout(r, 5));
        } finally {
          await place.release();
        }
      }
    };
    await Promise.all(Array.from({ length: 8 }, (_, k) => caller(k)));
    expect(arrivals).toHaveLength(45);
    expect(refused).toBe(0);
    // 45 requests, 3 a window: the limit held them back (15 windows at the least).
    expect(arrivals.at(-1)! - arrivals[0]!).toBeGreaterThanOrEqual(14 * rate.windowMs);
  });
});
