// Client-side rate limiting shared by every outbound API client (the platform's and the CRMs'):
// each vendor has a request budget, and staying under it is cheaper than being told "slow down".

/** Clock and sleep, injected so tests run without waiting. */
export interface TimeSource {
  now: () => number;
  sleep: (ms: number) => Promise<void>;
}

/** The wall clock and a real timer. */
export const realTime: TimeSource = {
  now: () => Date.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};

/** What a client waits on before each request: in-process (RateLimiter) or shared by a deployment. */
export interface RequestLimiter {
  /** Waits until one more request may be sent; returns the milliseconds waited. */
  acquire(): Promise<number>;
  /**
   * Waits likewise, and holds the request's place until its answer: a limit the vendor counts as
   * requests arrive (a sliding window) frees a place from the answer, which comes after the arrival
   * however late the request really left. Limiters without it count from the start.
   */
  hold?(): Promise<RequestPermit>;
}

/** A request's place under a limit, held from its start until its answer. */
export interface RequestPermit {
  /** Milliseconds waited for the place. */
  waitedMs: number;
  /** The request has its answer, or failed for good: the place counts from now. Never throws. */
  release(): Promise<void>;
}

/** A place under `limiter`: held until release where it can be, else counted from its start. */
export async function holdPlace(limiter: RequestLimiter): Promise<RequestPermit> {
  if (limiter.hold) return limiter.hold();
  return { waitedMs: await limiter.acquire(), release: async () => {} };
}

/** A request must have a place under both limits (a vendor's search window and its token's). */
export function bothLimits(a: RequestLimiter, b: RequestLimiter): RequestLimiter {
  const hold = async (): Promise<RequestPermit> => {
    const first = await holdPlace(a);
    const second = await holdPlace(b).catch(async (err: unknown) => {
      await first.release();
      throw err;
    });
    return {
      waitedMs: first.waitedMs + second.waitedMs,
      release: async () => {
        await Promise.all([first.release(), second.release()]);
      },
    };
  };
  return {
    hold,
    acquire: async () => {
      const permit = await hold();
      await permit.release();
      return permit.waitedMs;
    },
  };
}

/**
 * Token bucket: `ratePerSecond` tokens a second, at most `burst` saved up. A caller that finds the bucket
 * empty reserves the next token (the count goes negative) and sleeps until it is due, so concurrent
 * callers are spaced in arrival order without a queue.
 */
export class RateLimiter implements RequestLimiter {
  private tokens: number;
  private last: number;

  constructor(
    private readonly ratePerSecond: number,
    private readonly burst: number,
    private readonly time: TimeSource,
  ) {
    if (!(ratePerSecond > 0)) throw new RangeError('requestsPerSecond must be positive');
    if (!(burst >= 1)) throw new RangeError('burst must be at least 1');
    this.tokens = burst;
    this.last = time.now();
  }

  /** Waits until one more request may be sent; returns the milliseconds waited. */
  async acquire(): Promise<number> {
    const now = this.time.now();
    this.tokens = Math.min(this.burst, this.tokens + ((now - this.last) * this.ratePerSecond) / 1000);
    this.last = now;
    this.tokens -= 1;
    if (this.tokens >= 0) return 0;
    const waitMs = Math.ceil((-this.tokens * 1000) / this.ratePerSecond);
    await this.time.sleep(waitMs);
    return waitMs;
  }
}
