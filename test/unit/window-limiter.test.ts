import { WindowLimiter } from '../../lib/window-limiter';
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

  it('refuses a window it cannot keep', () => {
    const { source } = fakeTime();
    expect(() => new WindowLimiter({ max: 0, windowMs: 1000 }, source)).toThrow('max');
    expect(() => new WindowLimiter({ max: 2, windowMs: 0 }, source)).toThrow('windowMs');
  });
});
