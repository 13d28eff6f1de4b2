// Daily vendor allowances shared by every worker: one atomic upsert per take, so concurrent workers
// never spend more than the limit together.
import { sql, type Kysely } from 'kysely';
import type { Database } from '../tables';

export interface BudgetTake {
  vendor: string;
  /** What the allowance belongs to (an org, an account). */
  scope: string;
  /** The UTC day, YYYY-MM-DD. */
  day: string;
  /** Units this take spends. */
  units: number;
  /** Units allowed for the day. */
  limit: number;
}

/** Spends `units` of the day's allowance if they fit; `granted: false` (nothing spent) otherwise. */
export async function takeDailyBudget(
  db: Kysely<Database>,
  take: BudgetTake,
): Promise<{ granted: boolean; used: number | null }> {
  if (take.units > take.limit) return { granted: false, used: null };
  // The conflict branch only updates while the sum fits; a row that does not fit returns nothing.
  const result = await sql<{ used: number }>`
    insert into vendor_daily_budgets (vendor, scope, day, used)
    values (${take.vendor}, ${take.scope}, ${take.day}::date, ${take.units})
    on conflict (vendor, scope, day) do update
      set used = vendor_daily_budgets.used + excluded.used, updated_at = now()
      where vendor_daily_budgets.used + excluded.used <= ${take.limit}
    returning used`.execute(db);
  const row = result.rows[0];
  return row ? { granted: true, used: Number(row.used) } : { granted: false, used: null };
}
