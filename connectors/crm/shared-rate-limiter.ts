// A vendor's request rate shared by every worker process: each request reserves the next slot of the
// rate in PostgreSQL (repositories/rate-slots.ts, the same slots the platform's rate uses), so three
// workers together send no faster than one would alone.
import type { Kysely } from 'kysely';
import { realTime, type RequestLimiter, type TimeSource } from '../../lib/rate-limiter';
import { HeldPlaces } from '../../lib/window-limiter';
import { reserveRateSlot } from '../postgres/repositories/rate-slots';
import {
  answerWindowSlot,
  blockingWindowRequest,
  reserveWindowSlot,
  type RateWindowRequest,
  type WindowSlot,
} from '../postgres/repositories/rate-windows';
import type { Database } from '../postgres/tables';
import type { TokenSourceFactory } from './rate-gate';

export class SharedRateLimiter implements RequestLimiter {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly slot: { vendor: string; scope: string; intervalMs: number; burst: number },
    private readonly time: TimeSource = realTime,
  ) {}

  async acquire(): Promise<number> {
    const wait = await reserveRateSlot(this.db, this.slot);
    if (wait > 0) await this.time.sleep(wait);
    return wait;
  }
}

/**
 * A sliding-window limit shared by every worker (see repositories/rate-windows.ts): a place is held
 * until the request's answer. Reservations from this process go one at a time; while the next
 * request must wait for request n - max's answer, this process waits for it here when the request is
 * its own, and asks PostgreSQL again every POLL_MS when another worker's.
 */
export class SharedWindowLimiter extends HeldPlaces {
  /** Answers of this process's requests in flight, by request number. */
  private readonly inFlight = new Map<number, { answered: Promise<void>; settle: () => void }>();

  constructor(
    private readonly db: Kysely<Database>,
    private readonly window: RateWindowRequest,
    time: TimeSource = realTime,
  ) {
    super(time);
  }

  protected async reserve(): Promise<WindowSlot> {
    for (;;) {
      const slot = await reserveWindowSlot(this.db, this.window);
      if (slot) {
        let settle = () => {};
        const answered = new Promise<void>((resolve) => (settle = resolve));
        this.inFlight.set(slot.number, { answered, settle });
        return slot;
      }
      const blocking = await blockingWindowRequest(this.db, this.window);
      // This process's own request: its answer, or a second at the most (it may never come, and
      // PostgreSQL frees a place that went stale).
      const own = blocking === null ? undefined : this.inFlight.get(blocking);
      await (own ? Promise.race([own.answered, this.time.sleep(OWN_WAIT_MS)]) : this.time.sleep(POLL_MS));
    }
  }

  protected async answered(number: number): Promise<void> {
    // A lost write leaves the place held until it goes stale (UNANSWERED_PLACE_MS): slower, never over.
    await answerWindowSlot(this.db, this.window, number).catch(() => undefined);
    this.inFlight.get(number)?.settle();
    this.inFlight.delete(number);
  }
}

/** How often a worker waiting for another worker's answer asks again. */
const POLL_MS = 25;
/** The longest a worker waits for its own request's answer before it asks again. */
const OWN_WAIT_MS = 1_000;

/**
 * Shared rates for one vendor; `scope` names the portal or org and the rate. A bucket: slots
 * `1000 / rate` ms apart, `burst` of them back to back after a quiet spell (at most burst + 10 × rate
 * in any 10 s). A window: at most `max` starts in any `windowMs`.
 */
export function sharedRateLimiters(db: Kysely<Database>, vendor: string): TokenSourceFactory {
  return {
    bucket: (scope, ratePerSecond, burst) =>
      new SharedRateLimiter(db, { vendor, scope, intervalMs: 1000 / ratePerSecond, burst }),
    // The scope names the limit too: a changed limit starts a row of its own.
    window: (scope, rate) =>
      new SharedWindowLimiter(db, { vendor, scope: `${scope} ${rate.max}/${rate.windowMs}ms`, ...rate }),
  };
}
