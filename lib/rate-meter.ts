// Events per second over a short sliding window, kept in fixed time buckets so that marking an event
// costs a few arithmetic operations (the receiver marks every delivery).

export interface RateMeterOptions {
  /** Length of the window, in ms (default 1000). */
  windowMs?: number;
  /** Buckets the window is cut into (default 10). */
  buckets?: number;
  /** Clock, in ms (tests pass their own). */
  now?: () => number;
}

/** Counts events into time buckets; `perSecond()` is the rate over the last window. */
export class RateMeter {
  private readonly counts: Float64Array;
  private readonly bucketMs: number;
  private readonly now: () => number;
  /** Index (time / bucketMs) of the newest bucket written. */
  private head = 0;

  constructor(opts: RateMeterOptions = {}) {
    const windowMs = opts.windowMs ?? 1000;
    const buckets = opts.buckets ?? 10;
    if (!(windowMs > 0) || !Number.isInteger(buckets) || buckets < 1) {
      throw new RangeError('RateMeter: windowMs must be > 0 and buckets a positive integer');
    }
    this.counts = new Float64Array(buckets);
    this.bucketMs = windowMs / buckets;
    this.now = opts.now ?? (() => performance.now());
    this.head = Math.floor(this.now() / this.bucketMs);
  }

  /** Records `n` events now. */
  mark(n = 1): void {
    const slot = this.advance();
    this.counts[slot % this.counts.length]! += n;
  }

  /** Events per second over the last window. */
  perSecond(): number {
    this.advance();
    let sum = 0;
    for (const c of this.counts) sum += c;
    return (sum * 1000) / (this.bucketMs * this.counts.length);
  }

  /** Moves the head to now, emptying the buckets that fell out of the window; returns the head. */
  private advance(): number {
    const slot = Math.floor(this.now() / this.bucketMs);
    const stale = Math.min(slot - this.head, this.counts.length);
    for (let i = 1; i <= stale; i++) this.counts[(this.head + i) % this.counts.length] = 0;
    if (slot > this.head) this.head = slot;
    return this.head;
  }
}
