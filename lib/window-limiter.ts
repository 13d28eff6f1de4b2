// A sliding-window limit, the way HubSpot counts requests (190 in any rolling 10 seconds): request n
// may start once request n - max started `windowMs` ago. A token bucket that must never exceed such a
// window has to keep its burst small (burst + 10 s of its rate fit in the window), so a quiet client
// that needs 400 requests waits most of them out one by one; the window lets the first `max` go at
// once and the next `max` one window later, which is exactly what the vendor allows.
import type { RequestLimiter, TimeSource } from './rate-limiter';

export interface WindowRate {
  /** Requests allowed in any window. */
  max: number;
  /** The window's length, ms (the vendor's window plus a margin for requests that leave late). */
  windowMs: number;
}

/** A sliding-window limit in this process (SharedWindowLimiter shares one through PostgreSQL). */
export class WindowLimiter implements RequestLimiter {
  /** Start times of the last `max` requests, by request number modulo max. */
  private readonly starts: number[] = [];
  private count = 0;

  constructor(
    private readonly rate: WindowRate,
    private readonly time: TimeSource,
  ) {
    if (!(Number.isInteger(rate.max) && rate.max >= 1))
      throw new RangeError('max must be a whole number ≥ 1');
    if (!(rate.windowMs > 0)) throw new RangeError('windowMs must be positive');
  }

  async acquire(): Promise<number> {
    const now = this.time.now();
    const slot = this.count % this.rate.max;
    // Starts never go back (the previous one) and never crowd the window (request n - max's + window).
    const previous = this.count > 0 ? this.starts[(this.count - 1) % this.rate.max]! : -Infinity;
    const freed = this.count >= this.rate.max ? this.starts[slot]! + this.rate.windowMs : -Infinity;
    const start = Math.max(now, previous, freed);
    this.starts[slot] = start;
    this.count++;
    const wait = Math.ceil(start - now);
    if (wait > 0) await this.time.sleep(wait);
    return Math.max(0, wait);
  }
}
