import { RateLimiter, realTime } from '../../lib/rate-limiter';

describe('rate limiter', () => {
  function fakeTime() {
    const time = { t: 0, slept: [] as number[] };
    return {
      time,
      source: {
        now: () => time.t,
        sleep: async (ms: number) => {
          time.slept.push(ms);
        },
      },
    };
  }

  it('spaces requests by 1/rate seconds once the burst is spent', async () => {
    const { time, source } = fakeTime();
    const limiter = new RateLimiter(4, 1, source);
    const waits = await Promise.all([
      limiter.acquire(),
      limiter.acquire(),
      limiter.acquire(),
      limiter.acquire(),
    ]);
    expect(waits).toEqual([0, 250, 500, 750]);
    expect(time.slept).toEqual([250, 500, 750]);
  });

  it('lets a burst through, then refills with time', async () => {
    const { time, source } = fakeTime();
    const limiter = new RateLimiter(10, 3, source);
    expect(await Promise.all([limiter.acquire(), limiter.acquire(), limiter.acquire()])).toEqual([0, 0, 0]);
    expect(await limiter.acquire()).toBe(100);
    time.t += 1000; // a second later the bucket is full again
    expect(await Promise.all([limiter.acquire(), limiter.acquire(), limiter.acquire()])).toEqual([0, 0, 0]);
  });

  it('rejects a non-positive rate', () => {
    const { source } = fakeTime();
    expect(() => new RateLimiter(0, 1, source)).toThrow(RangeError);
    expect(() => new RateLimiter(5, 0, source)).toThrow('burst must be at least 1');
  });

  it('waits on the real clock by default', async () => {
    const limiter = new RateLimiter(20, 1, realTime);
    await limiter.acquire();
    const started = Date.now();
    // 50 ms between tokens, less whatever passed between the two calls on a busy machine.
    const waited = await limiter.acquire();
    expect(waited).toBeGreaterThan(30);
    expect(waited).toBeLessThanOrEqual(50);
    expect(Date.now() - started).toBeGreaterThanOrEqual(waited - 5);
  });
});
