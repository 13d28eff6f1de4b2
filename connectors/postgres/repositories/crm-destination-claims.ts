// Rows of CRM state written before it was keyed by the destination's identity hold the destination's
// type alone (migration 2026_12_31_0900_crm_mappings_by_destination says why a migration cannot fill
// it). A worker's start gives them the identity of the destination each account is configured with,
// before any task runs, so the mappings of objects callsync created keep being found and updated.
import { sql, type Kysely } from 'kysely';
import type { Database } from '../tables';

/** One account's configured destination: its type and its identity. */
export interface DestinationClaim {
  account: string;
  /** The destination type old rows hold (`hubspot`). */
  type: string;
  /** Its identity now (`hubspot:<token id>`); equal to `type` for destinations without one. */
  destination: string;
}

/** Tables keyed by (destination, …) with an account column, each with its unique keys besides destination. */
const KEYED: readonly { table: keyof Database; keys: readonly (readonly string[])[] }[] = [
  { table: 'crm_objects', keys: [['kind', 'source_key']] },
  { table: 'cdr_outcomes', keys: [['call_key']] },
  {
    table: 'contact_links',
    keys: [
      ['account', 'platform_id'],
      ['account', 'crm_kind', 'crm_id'],
    ],
  },
  { table: 'contact_sync_state', keys: [['account']] },
  { table: 'contact_ambiguities', keys: [['account', 'side', 'record_id']] },
];

/**
 * Gives the type-only rows of each account the identity of its configured destination, and records the
 * claim in crm_destination_claims; returns how many rows each account's claim moved. A row whose key
 * the identity already holds (written by a newer worker first) is left as it is: it matches no query.
 * `checkpointStreams`: sync_checkpoints streams whose scope is the destination (the outcomes cursor).
 */
export async function claimTypeOnlyRows(
  db: Kysely<Database>,
  claims: readonly DestinationClaim[],
  checkpointStreams: readonly string[],
): Promise<Map<string, number>> {
  const moved = new Map<string, number>();
  for (const c of claims) {
    if (c.destination === c.type) continue;
    const n = await db.transaction().execute(async (trx) => {
      // Workers starting together claim one after the other (the second finds nothing left).
      await sql`select pg_advisory_xact_lock(hashtextextended(${`crm-claim:${c.account}`}, 0))`.execute(trx);
      let rows = 0;
      for (const { table, keys } of KEYED) {
        const taken = keys.map(
          (key) => sql`not exists (select 1 from ${sql.table(table)} n where n.destination = ${c.destination}
            and ${sql.join(
              key.map((k) => sql`n.${sql.ref(k)} = o.${sql.ref(k)}`),
              sql` and `,
            )})`,
        );
        const r = await sql`update ${sql.table(table)} o set destination = ${c.destination}
          where o.account = ${c.account} and o.destination = ${c.type}
            and ${sql.join(taken, sql` and `)}`.execute(trx);
        rows += Number(r.numAffectedRows ?? 0);
      }
      if (checkpointStreams.length > 0) {
        const r = await sql`update sync_checkpoints o set scope = ${c.destination}
          where o.account = ${c.account} and o.stream in (${sql.join([...checkpointStreams])})
            and o.scope = ${c.type} and not exists (select 1 from sync_checkpoints n
              where n.account = o.account and n.stream = o.stream and n.scope = ${c.destination})`.execute(
          trx,
        );
        rows += Number(r.numAffectedRows ?? 0);
      }
      if (rows > 0) {
        await trx
          .insertInto('crm_destination_claims')
          .values({ account: c.account, type: c.type, destination: c.destination, rows })
          .onConflict((oc) =>
            oc.columns(['account', 'type', 'destination']).doUpdateSet((eb) => ({
              rows: sql<number>`${eb.ref('crm_destination_claims.rows')} + ${eb.ref('excluded.rows')}`,
              claimed_at: sql<Date>`now()`,
            })),
          )
          .execute();
      }
      return rows;
    });
    if (n > 0) moved.set(c.account, n);
  }
  return moved;
}

/** Every claim made so far, oldest first (for status and tests). */
export function destinationClaims(db: Kysely<Database>) {
  return db
    .selectFrom('crm_destination_claims')
    .selectAll()
    .orderBy('claimed_at')
    .orderBy('account')
    .execute();
}
