// A vendor's request rate shared by every worker process: each request reserves the next slot of the
// rate in PostgreSQL (repositories/rate-slots.ts, the same slots the platform's rate uses), so three
// workers together send no faster than one would alone.
import type { Kysely } from 'kysely';
import { realTime, type RequestLimiter, type TimeSource } from '../../lib/rate-limiter';
import { reserveRateSlot } from '../postgres/repositories/rate-slots';
import { reserveWindowSlot, type RateWindowRequest } from '../postgres/repositories/rate-windows';
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

/** A sliding-window limit shared by every worker (see repositories/rate-windows.ts). */
export class SharedWindowLimiter implements RequestLimiter {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly window: RateWindowRequest,
    private readonly time: TimeSource = realTime,
  ) {}

  async acquire(): Promise<number> {
    const wait = await reserveWindowSlot(this.db, this.window);
    if (wait > 0) await this.time.sleep(wait);
    return wait;
  }
}

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
