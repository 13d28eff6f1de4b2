// Sliding-window request limits shared by every worker. A vendor counts a request when it arrives, and
// a request arrives before its answer does: so request n of a scope starts no earlier than now, than
// request n - 1, and than a window after request n - max had its answer (lib/window-limiter.ts is the
// same rule in one process). A request that leaves a busy worker late cannot then crowd the vendor's
// window, as a rule on start times alone lets it. The scope's row holds the last `max` start and
// answer times by request number modulo max, on PostgreSQL's clock for every host; one atomic upsert
// reserves a start, one update records the answer.
import { sql, type Kysely } from 'kysely';
import { UNANSWERED_PLACE_MS } from '../../../lib/window-limiter';
import type { Database } from '../tables';

export interface RateWindowRequest {
  vendor: string;
  /** What the limit belongs to (a portal's requests); a scope always has the same max and window. */
  scope: string;
  max: number;
  windowMs: number;
}

/** A reserved request: its number in the scope, and the milliseconds until it may start (0: now). */
export interface WindowSlot {
  number: number;
  waitMs: number;
}

const now = sql`(extract(epoch from clock_timestamp()) * 1000)::float8`;

/**
 * Reserves the next request of the scope, or returns null while request n - max is in flight (its
 * place frees a window after its answer, so no start can be given yet).
 */
export async function reserveWindowSlot(
  db: Kysely<Database>,
  req: RateWindowRequest,
): Promise<WindowSlot | null> {
  const max = sql`${req.max}::int`;
  // Array subscripts must be int: request numbers are bigint, their slots are not.
  const slotOf = (k: ReturnType<typeof sql>) => sql`((${k}) % ${max})::int + 1`;
  const slot = slotOf(sql`w.reserved`);
  const unanswered = sql`${UNANSWERED_PLACE_MS}::float8`;
  // Request number k (0-based) keeps its start at starts[k % max + 1]; `reserved` counts requests.
  const result = await sql<{ number: string; wait_ms: number }>`
    insert into vendor_rate_windows as w (vendor, scope, reserved, starts, answers)
    values (${req.vendor}, ${req.scope}, 1, array[${now}]::float8[], array[null]::float8[])
    on conflict (vendor, scope) do update
      set reserved = w.reserved + 1,
        starts[${slot}] = greatest(
          ${now},
          w.starts[${slotOf(sql`w.reserved - 1`)}],
          case when w.reserved >= ${max}
            then coalesce(w.answers[${slot}], w.starts[${slot}] + ${unanswered}) + ${req.windowMs}::float8 end
        ),
        answers[${slot}] = null
      where w.reserved < ${max} or w.answers[${slot}] is not null or w.starts[${slot}] + ${unanswered} <= ${now}
    returning reserved - 1 as number, greatest(0, starts[${slotOf(sql`reserved - 1`)}] - ${now})::float8 as wait_ms`.execute(
    db,
  );
  const row = result.rows[0];
  return row ? { number: Number(row.number), waitMs: Math.ceil(Number(row.wait_ms)) } : null;
}

/** The request that holds back the scope's next one (n - max), for a caller that waits for it. */
export async function blockingWindowRequest(
  db: Kysely<Database>,
  req: RateWindowRequest,
): Promise<number | null> {
  const result = await sql<{ number: string }>`
    select reserved - ${req.max}::int as number from vendor_rate_windows
    where vendor = ${req.vendor} and scope = ${req.scope} and reserved >= ${req.max}::int`.execute(db);
  const row = result.rows[0];
  return row ? Number(row.number) : null;
}

/** Records that request `number` of the scope had its answer (or failed): its place counts from now. */
export async function answerWindowSlot(
  db: Kysely<Database>,
  req: RateWindowRequest,
  number: number,
): Promise<void> {
  const slot = sql`(${number}::bigint % ${req.max}::int)::int + 1`;
  // Only while the slot is still this request's: a later one takes it once the place went stale.
  await sql`
    update vendor_rate_windows set answers[${slot}] = greatest(${now}, starts[${slot}])
    where vendor = ${req.vendor} and scope = ${req.scope} and reserved <= ${number}::bigint + ${req.max}::int`.execute(
    db,
  );
}
