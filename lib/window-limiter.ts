// A sliding-window limit, the way HubSpot and Pipedrive count requests (190 in any rolling 10 seconds,
// 20 in any rolling 2): a request may start once the request `max` before it had its answer a window
// ago. A token bucket that must never exceed such a window has to keep its burst small (burst + 10 s
// of its rate fit in the window), so a quiet client that needs 400 requests waits most of them out
// one by one; the window lets the first `max` go at once and the next `max` one window later, which
// is exactly what the vendor allows. Counting from the answer rather than the start is what makes it
// safe: the vendor counted the request when it arrived, which is before its answer, so requests that
// leave a starved event loop late and bunched still never put more than `max` in any window there.
import type { RequestLimiter, RequestPermit, TimeSource } from './rate-limiter';

export interface WindowRate {
  /** Requests allowed in any window. */
  max: number;
  /** The window's length, ms (the vendor's window plus a margin). */
  windowMs: number;
}

/** A sliding-window limit in this process (SharedWindowLimiter shares one through PostgreSQL). */
export class WindowLimiter implements RequestLimiter {
  /** Start times of the last `max` requests, by request number modulo max. */
  private readonly starts: number[] = [];
  /** When each of those had its answer; undefined while it is in flight. */
  private readonly answers: (number | undefined)[] = [];
  /** The reservation waiting for a slot's answer. */
  private readonly waiting = new Map<number, () => void>();
  private count = 0;
  /** Reservations go one at a time, in the order they were asked for. */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly rate: WindowRate,
    private readonly time: TimeSource,
  ) {
    if (!(Number.isInteger(rate.max) && rate.max >= 1))
      throw new RangeError('max must be a whole number ≥ 1');
    if (!(rate.windowMs > 0)) throw new RangeError('windowMs must be positive');
  }

  /** A place counted from its start (for a caller that cannot say when its answer came). */
  async acquire(): Promise<number> {
    const permit = await this.hold();
    await permit.release();
    return permit.waitedMs;
  }

  /** A place held until `release`, which the caller must call once the answer came or the request failed. */
  async hold(): Promise<RequestPermit> {
    const turn = this.queue.then(() => this.reserve());
    this.queue = turn.catch(() => undefined);
    const { number, start } = await turn;
    const wait = Math.max(0, Math.ceil(start - this.time.now()));
    if (wait > 0) await this.time.sleep(wait);
    let released = false;
    return {
      waitedMs: wait,
      release: async () => {
        if (released) return;
        released = true;
        this.answered(number);
      },
    };
  }

  /** Request n starts after request n - 1, and a window after request n - max had its answer. */
  private async reserve(): Promise<{ number: number; start: number }> {
    const { max, windowMs } = this.rate;
    const number = this.count;
    const slot = number % max;
    // Every permit is released (RateGate does it in `finally`), so the wait ends.
    if (number >= max && this.answers[slot] === undefined)
      await new Promise<void>((resolve) => this.waiting.set(slot, resolve));
    this.waiting.delete(slot);
    const previous = number > 0 ? this.starts[(number - 1) % max]! : -Infinity;
    const freed = number >= max ? this.answers[slot]! + windowMs : -Infinity;
    const start = Math.max(this.time.now(), previous, freed);
    this.starts[slot] = start;
    this.answers[slot] = undefined;
    this.count++;
    return { number, start };
  }

  private answered(number: number): void {
    const slot = number % this.rate.max;
    this.answers[slot] = Math.max(this.time.now(), this.starts[slot]!);
    this.waiting.get(slot)?.();
  }
}
