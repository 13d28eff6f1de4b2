// Sliding-window request limits shared by every worker: request n of a scope starts no earlier than
// now, than request n - 1, and than request n - max plus the window (lib/window-limiter.ts is the
// same rule in one process). The scope's row holds the last `max` start times; one atomic upsert per
// request reserves a start and records it, on PostgreSQL's clock for every host.
import { sql, type Kysely } from 'kysely';
import type { Database } from '../tables';

export interface RateWindowRequest {
  vendor: string;
  /** What the limit belongs to (a portal's requests); a scope always has the same max and window. */
  scope: string;
  max: number;
  windowMs: number;
}

/** Reserves the next request start of the scope and returns the milliseconds until it (0: now). */
export async function reserveWindowSlot(db: Kysely<Database>, req: RateWindowRequest): Promise<number> {
  const now = sql`(extract(epoch from clock_timestamp()) * 1000)::float8`;
  const max = sql`${req.max}::int`;
  // Array subscripts must be int: request numbers are bigint, their slots are not.
  const slotOf = (k: ReturnType<typeof sql>) => sql`((${k}) % ${max})::int + 1`;
  // Request number k (0-based) keeps its start at starts[k % max + 1]; `reserved` counts requests.
  const result = await sql<{ wait_ms: number }>`
    insert into vendor_rate_windows as w (vendor, scope, reserved, starts)
    values (${req.vendor}, ${req.scope}, 1, array[${now}]::float8[])
    on conflict (vendor, scope) do update
      set reserved = w.reserved + 1,
        starts[${slotOf(sql`w.reserved`)}] = greatest(
          ${now},
          w.starts[${slotOf(sql`w.reserved - 1`)}],
          case when w.reserved >= ${max}
            then w.starts[${slotOf(sql`w.reserved`)}] + ${req.windowMs}::float8 end
        )
    returning greatest(0, starts[${slotOf(sql`reserved - 1`)}] - ${now})::float8 as wait_ms`.execute(db);
  return Math.ceil(Number(result.rows[0]?.wait_ms ?? 0));
}
