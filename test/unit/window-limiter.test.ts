import { realTime } from '../../lib/rate-limiter';
import { UNANSWERED_PLACE_MS, WindowLimiter } from '../../lib/window-limiter';
import { SlidingWindowLimit } from '../fakes/vendor-limits';

describe('window limiter', () => {
  function fakeTime() {
    const time = { t: 0 };
    return {
      time,
      // Sleeping moves the clock: a request that waited starts when its wait ends.
      source: {
        now: () => time.t,
        sleep: async (ms: number) => {
          time.t += ms;
        },
      },
    };
  }

  it('lets the first max go at once and the next max one window after them', async () => {
    const { time, source } = fakeTime();
    const limiter = new WindowLimiter({ max: 3, windowMs: 1000 }, source);
    const starts: number[] = [];
    for (let i = 0; i < 7; i++) {
      await limiter.acquire();
      starts.push(time.t);
    }
    expect(starts).toEqual([0, 0, 0, 1000, 1000, 1000, 2000]);
  });

  it('never puts more than max starts in any window, however requests arrive', async () => {
    const { time, source } = fakeTime();
    const limiter = new WindowLimiter({ max: 19, windowMs: 1000 }, source);
    // The vendor's own count: the fake's sliding window refuses what would exceed it.
    const vendor = new SlidingWindowLimit(19, 1000);
    let seed = 7;
    const random = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
    for (let i = 0; i < 2000; i++) {
      time.t += Math.floor(random() * 120);
      await limiter.acquire();
      expect(vendor.take(time.t)).toBe(true);
    }
  });

  it('needs no wait after a quiet spell', async () => {
    const { time, source } = fakeTime();
    const limiter = new WindowLimiter({ max: 2, windowMs: 1000 }, source);
    await limiter.acquire();
    await limiter.acquire();
    time.t += 5000;
    expect(await limiter.acquire()).toBe(0);
    expect(await limiter.acquire()).toBe(0);
    expect(await limiter.acquire()).toBe(1000);
  });

  it('frees a place a window after its answer, not its start', async () => {
    const { time, source } = fakeTime();
    const limiter = new WindowLimiter({ max: 2, windowMs: 1000 }, source);
    const first = await limiter.hold();
    const second = await limiter.hold();
    let thirdStarted: number | undefined;
    const third = limiter.hold().then((permit) => {
      thirdStarted = time.t;
      return permit;
    });
    // The first request's answer takes five seconds: the window counts from it.
    time.t = 5000;
    await first.release();
    await (await third).release();
    expect(thirdStarted).toBe(6000);
    await second.release();
  });

  it("gives up a hung request's place two minutes after its start", async () => {
    jest.useFakeTimers({ now: 0 });
    try {
      const limiter = new WindowLimiter({ max: 1, windowMs: 1000 }, realTime);
      await limiter.hold(); // never released: the request hung
      let started: number | undefined;
      const next = limiter.hold().then((place) => {
        started = Date.now();
        return place;
      });
      await jest.advanceTimersByTimeAsync(UNANSWERED_PLACE_MS - 1);
      expect(started).toBeUndefined();
      await jest.advanceTimersByTimeAsync(1001);
      await (await next).release();
      expect(started).toBe(UNANSWERED_PLACE_MS + 1000);
    } finally {
      jest.useRealTimers();
    }
  });

  describe('requests that leave late and bunched (a starved event loop)', () => {
    beforeEach(() => jest.useFakeTimers({ now: 0 }));
    afterEach(() => jest.useRealTimers());

    /**
     * 20 concurrent callers send 300 requests; each leaves up to 1.5 s after its start, reaches the
     * vendor then and has its answer 30 ms later. Returns how many the vendor refused.
     */
    async function refusedByVendor(
      send: (limiter: WindowLimiter, request: () => Promise<void>) => Promise<void>,
    ) {
      const limiter = new WindowLimiter({ max: 5, windowMs: 1000 }, realTime);
      const vendor = new SlidingWindowLimit(5, 1000);
      let seed = 11;
      const random = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
      let refused = 0;
      let sent = 0;
      let left = 300;
      const request = async () => {
        await realTime.sleep(Math.floor(random() * 1500));
        sent++;
        if (!vendor.take(Date.now())) refused++;
        await realTime.sleep(30);
      };
      const caller = async () => {
        while (left-- > 0) await send(limiter, request);
      };
      let done = false;
      const all = Promise.all(Array.from({ length: 20 }, caller)).then(() => (done = true));
      while (!done) await jest.advanceTimersByTimeAsync(50);
      await all;
      expect(sent).toBe(300);
      return refused;
    }

    it('never crowd the vendor window when each place is held until the answer', async () => {
      const refused = await refusedByVendor(async (limiter, request) => {
        const place = await limiter.hold();
        await request().finally(() => place.release());
      });
      expect(refused).toBe(0);
      // 300 requests, 5 a window: the limit held them back, it did not just pass them.
      expect(Date.now()).toBeGreaterThan(60_000);
    });

    it('do crowd it when places count from the start (why places are held)', async () => {
      const refused = await refusedByVendor(async (limiter, request) => {
        await limiter.acquire();
        await request();
      });
      expect(refused).toBeGreaterThan(0);
    });
  });

  it('refuses a window it cannot keep', () => {
    const { source } = fakeTime();
    expect(() => new WindowLimiter({ max: 0, windowMs: 1000 }, source)).toThrow('max');
    expect(() => new WindowLimiter({ max: 2, windowMs: 0 }, source)).toThrow('windowMs');
  });
});
