// Request rates shared by every worker: a generic cell rate algorithm whose state (the next
// request's theoretical arrival time) lives in PostgreSQL, moved by one atomic upsert per request.
// PostgreSQL's clock is the only clock, so workers on hosts whose clocks disagree are spaced alike.
import { sql, type Kysely } from 'kysely';
import type { Database } from '../tables';

export interface RateSlotRequest {
  vendor: string;
  /** What the rate belongs to (an account's API credentials). */
  scope: string;
  /** Milliseconds between two requests at the allowed rate (1000 / requests per second). */
  intervalMs: number;
  /** Requests allowed back to back before they are spaced (1: never two at once). */
  burst: number;
}

/**
 * Reserves the next request slot of the scope and returns the milliseconds until it starts (0: now).
 * Slots are `intervalMs` apart for everyone reserving in the scope; a caller that waits the
 * returned time and then sends keeps the whole deployment at the rate.
 */
export async function reserveRateSlot(db: Kysely<Database>, req: RateSlotRequest): Promise<number> {
  const interval = req.intervalMs / 1000;
  const tolerance = ((Math.max(1, req.burst) - 1) * req.intervalMs) / 1000;
  // next_at is the slot after the one reserved here; the reserved one starts one interval before it,
  // or up to `tolerance` earlier when the scope has been idle (a burst).
  const result = await sql<{ wait_ms: number }>`
    insert into vendor_rate_slots as s (vendor, scope, next_at)
    values (${req.vendor}, ${req.scope}, clock_timestamp() + make_interval(secs => ${interval}::float8))
    on conflict (vendor, scope) do update
      set next_at = greatest(s.next_at, clock_timestamp()) + make_interval(secs => ${interval}::float8)
    returning greatest(0, extract(epoch from (
      s.next_at - make_interval(secs => ${interval + tolerance}::float8) - clock_timestamp()
    )) * 1000)::float8 as wait_ms`.execute(db);
  return Math.ceil(Number(result.rows[0]?.wait_ms ?? 0));
}
