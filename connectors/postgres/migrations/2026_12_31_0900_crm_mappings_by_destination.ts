// CRM object mappings (crm_objects), contact links, contact sync state and ambiguities, CDR outcomes
// and the outcomes cursor are keyed by the destination's identity (the portal, org or instance, as the
// contact cache is since 2026_12_30_0900), not by the connector's type: an account moved to another
// HubSpot portal or Salesforce org must neither PATCH ids of the old one there nor skip creating what
// the new one has never seen. Their `destination` columns already take part in every key; from now on
// they hold the identity (`hubspot:<token digest>`, `salesforce:<instance URL>`; `builtin` and
// `google-tasks`, whose identity is their type, are unchanged).
//
// Rows written before hold the type alone (`hubspot`, `salesforce`), and which portal or org that was
// is known only from the configuration, which a migration does not see: kysely hands it the database
// alone, and commands that migrate (`callsync users`, `status`, `erase`) may run without CRM settings.
// So a worker's start claims them, before it takes any task, for the destination each account is
// configured with then (repositories/crm-destination-claims.ts), and records each claim in the table
// created here, so an operator can see which identity old rows were given (and move them, should the
// configuration have changed in the very restart that brought this migration). Until claimed, a
// type-only row matches no query: nothing is ever updated through it in a portal it may not be in.
// Frozen: later changes go in new migrations, never here.
import { sql, type Kysely } from 'kysely';

/** Tables with a `destination` column that now holds the identity, each with its keys and a recency column. */
const TABLES: readonly { table: string; keys: readonly (readonly string[])[]; newest: string }[] = [
  { table: 'crm_objects', keys: [['kind', 'source_key']], newest: 'updated_at' },
  { table: 'cdr_outcomes', keys: [['call_key']], newest: 'updated_at' },
  {
    table: 'contact_links',
    keys: [
      ['account', 'platform_id'],
      ['account', 'crm_kind', 'crm_id'],
    ],
    newest: 'synced_at',
  },
  { table: 'contact_sync_state', keys: [['account']], newest: 'updated_at' },
  { table: 'contact_ambiguities', keys: [['account', 'side', 'record_id']], newest: 'seen_at' },
];

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('crm_destination_claims')
    .addColumn('account', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('destination', 'text', (c) => c.notNull())
    .addColumn('rows', 'integer', (c) => c.notNull())
    .addColumn('claimed_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('crm_destination_claims_pkey', ['account', 'type', 'destination'])
    .execute();
}

/**
 * Back to type-only keys: where an account has rows of two portals or orgs of one type for the same
 * key, the most recent one is kept (the older portal's mapping is lost, as it was before `up`).
 */
export async function down(db: Kysely<unknown>): Promise<void> {
  const type = (alias: string) => sql.raw(`split_part(${alias}.destination, ':', 1)`);
  for (const { table, keys, newest } of TABLES) {
    for (const key of keys) {
      const same = sql.join(
        key.map((k) => sql.raw(`o.${k} = n.${k}`)),
        sql` and `,
      );
      await sql`delete from ${sql.table(table)} o using ${sql.table(table)} n
        where ${same} and ${type('o')} = ${type('n')} and o.destination <> n.destination
          and (o.${sql.raw(newest)}, o.destination) < (n.${sql.raw(newest)}, n.destination)`.execute(db);
    }
    await sql`update ${sql.table(table)} set destination = split_part(destination, ':', 1)
      where destination like '%:%'`.execute(db);
  }
  await sql`delete from sync_checkpoints o using sync_checkpoints n
    where o.stream = 'crm_outcomes' and n.stream = 'crm_outcomes' and o.account = n.account
      and split_part(o.scope, ':', 1) = split_part(n.scope, ':', 1) and o.scope <> n.scope
      and (o.updated_at, o.scope) < (n.updated_at, n.scope)`.execute(db);
  await sql`update sync_checkpoints set scope = split_part(scope, ':', 1)
    where stream = 'crm_outcomes' and scope like '%:%'`.execute(db);
  await db.schema.dropTable('crm_destination_claims').execute();
}
