// CRM outcomes written back to CDRs: what each call's CRM disposition was last seen as, and what
// callsync wrote for it (docs/crm.md "Outcomes back on the CDR").
import { sql, type Kysely } from 'kysely';
import type { CdrOutcomeRow, CdrOutcomeState, Database } from '../tables';

/** One call's outcome row as written (updated_at is the database's). */
export type CdrOutcomeInput = Omit<CdrOutcomeRow, 'updated_at'>;

/** The rows of these call keys of one destination, by key. */
export async function getCdrOutcomes(
  db: Kysely<Database>,
  destination: string,
  keys: readonly string[],
): Promise<Map<string, CdrOutcomeRow>> {
  if (keys.length === 0) return new Map();
  const rows = await db
    .selectFrom('cdr_outcomes')
    .selectAll()
    .where('destination', '=', destination)
    .where('call_key', 'in', [...keys])
    .execute();
  return new Map(rows.map((r) => [r.call_key, r]));
}

/** Writes an earlier attempt of this account left pending (it may or may not have reached the platform). */
export function pendingCdrOutcomes(
  db: Kysely<Database>,
  account: string,
  destination: string,
): Promise<CdrOutcomeRow[]> {
  return db
    .selectFrom('cdr_outcomes')
    .selectAll()
    .where('account', '=', account)
    .where('destination', '=', destination)
    .where('state', '=', 'pending')
    .orderBy('call_key')
    .execute();
}

/** Creates or replaces the rows of these calls. */
export async function saveCdrOutcomes(db: Kysely<Database>, rows: readonly CdrOutcomeInput[]): Promise<void> {
  if (rows.length === 0) return;
  await db
    .insertInto('cdr_outcomes')
    .values(rows.map((r) => ({ ...r })))
    .onConflict((oc) =>
      oc.columns(['destination', 'call_key']).doUpdateSet((eb) => ({
        account: eb.ref('excluded.account'),
        crm_id: eb.ref('excluded.crm_id'),
        cdr_id: eb.ref('excluded.cdr_id'),
        value: eb.ref('excluded.value'),
        label: eb.ref('excluded.label'),
        previous_label: eb.ref('excluded.previous_label'),
        note: eb.ref('excluded.note'),
        state: eb.ref('excluded.state'),
        reason: eb.ref('excluded.reason'),
        crm_changed_at: eb.ref('excluded.crm_changed_at'),
        updated_at: sql<Date>`now()`,
      })),
    )
    .execute();
}

/** Moves these calls' rows to `state` (with the platform's reason for a refusal). */
export async function setCdrOutcomeState(
  db: Kysely<Database>,
  destination: string,
  keys: readonly string[],
  state: CdrOutcomeState,
  reason: string | null = null,
): Promise<void> {
  if (keys.length === 0) return;
  await db
    .updateTable('cdr_outcomes')
    .set({ state, reason, updated_at: sql<Date>`now()` })
    .where('destination', '=', destination)
    .where('call_key', 'in', [...keys])
    .execute();
}

/** Refused writes of an account (for status and tests), newest first. */
export function refusedCdrOutcomes(db: Kysely<Database>, account: string): Promise<CdrOutcomeRow[]> {
  return db
    .selectFrom('cdr_outcomes')
    .selectAll()
    .where('account', '=', account)
    .where('state', '=', 'refused')
    .orderBy('updated_at', 'desc')
    .execute();
}

/** Per account and destination: how many calls' outcomes are in each state. */
export async function cdrOutcomeCounts(
  db: Kysely<Database>,
): Promise<{ account: string; destination: string; state: CdrOutcomeState; n: number }[]> {
  const rows = await db
    .selectFrom('cdr_outcomes')
    .select(['account', 'destination', 'state', sql<string>`count(*)`.as('n')])
    .groupBy(['account', 'destination', 'state'])
    .orderBy('account')
    .orderBy('destination')
    .execute();
  return rows.map((r) => ({ ...r, n: Number(r.n) }));
}
