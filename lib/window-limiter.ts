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

/**
 * How long after its start a request whose answer never came (it hung, or its permit was lost) stops
 * holding its place: longer than any request callsync sends takes.
 */
export const UNANSWERED_PLACE_MS = 120_000;

/**
 * Places handed out one reservation at a time, in the order asked for, each held from the end of its
 * wait until the caller releases it (WindowLimiter here; SharedWindowLimiter through PostgreSQL).
 */
export abstract class HeldPlaces implements RequestLimiter {
  private queue: Promise<unknown> = Promise.resolve();

  constructor(protected readonly time: TimeSource) {}

  /** The next request's number and the milliseconds until it may start. */
  protected abstract reserve(): Promise<{ number: number; waitMs: number }>;
  /** Request `number` had its answer (or failed): its place counts from now. */
  protected abstract answered(number: number): Promise<void>;

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
    const { number, waitMs } = await turn;
    if (waitMs > 0) await this.time.sleep(waitMs);
    let released = false;
    return {
      waitedMs: waitMs,
      release: async () => {
        if (released) return;
        released = true;
        await this.answered(number);
      },
    };
  }
}

/** A sliding-window limit in this process (SharedWindowLimiter shares one through PostgreSQL). */
export class WindowLimiter extends HeldPlaces {
  /** Start times of the last `max` requests, by request number modulo max. */
  private readonly starts: number[] = [];
  /** When each of those had its answer; undefined while it is in flight. */
  private readonly answers: (number | undefined)[] = [];
  /** The reservation waiting for a slot's answer. */
  private readonly waiting = new Map<number, () => void>();
  private count = 0;

  constructor(
    private readonly rate: WindowRate,
    time: TimeSource,
  ) {
    super(time);
    if (!(Number.isInteger(rate.max) && rate.max >= 1))
      throw new RangeError('max must be a whole number ≥ 1');
    if (!(rate.windowMs > 0)) throw new RangeError('windowMs must be positive');
  }

  /** Request n starts after request n - 1, and a window after request n - max had its answer. */
  protected async reserve(): Promise<{ number: number; waitMs: number }> {
    const { max, windowMs } = this.rate;
    const number = this.count;
    const slot = number % max;
    // RateGate releases every permit once its request ends; a request that never ends (no answer,
    // no timeout) gives up its place UNANSWERED_PLACE_MS after its start.
    if (number >= max && this.answers[slot] === undefined) {
      const staleIn = this.starts[slot]! + UNANSWERED_PLACE_MS - this.time.now();
      await new Promise<void>((resolve) => {
        const stale = setTimeout(resolve, Math.max(0, staleIn));
        stale.unref();
        this.waiting.set(slot, () => {
          clearTimeout(stale);
          resolve();
        });
      });
    }
    this.waiting.delete(slot);
    const previous = number > 0 ? this.starts[(number - 1) % max]! : -Infinity;
    const freed =
      number >= max ? (this.answers[slot] ?? this.starts[slot]! + UNANSWERED_PLACE_MS) + windowMs : -Infinity;
    const now = this.time.now();
    const start = Math.max(now, previous, freed);
    this.starts[slot] = start;
    this.answers[slot] = undefined;
    this.count++;
    return { number, waitMs: Math.ceil(start - now) };
  }

  protected async answered(number: number): Promise<void> {
    // A later request took the slot once this one's place went stale.
    if (this.count > number + this.rate.max) return;
    const slot = number % this.rate.max;
    this.answers[slot] = Math.max(this.time.now(), this.starts[slot]!);
    this.waiting.get(slot)?.();
  }
}
