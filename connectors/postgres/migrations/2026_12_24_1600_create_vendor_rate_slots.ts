// Request rates shared by every worker (the platform's per-account rate): one row per vendor and
// scope holding the theoretical arrival time of the next request (GCRA). Each request moves it one
// interval on in a single atomic upsert, so workers on any number of hosts are spaced together.
// Frozen: later changes go in new migrations, never here.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('vendor_rate_slots')
    .addColumn('vendor', 'text', (c) => c.notNull())
    .addColumn('scope', 'text', (c) => c.notNull())
    .addColumn('next_at', 'timestamptz', (c) => c.notNull())
    .addPrimaryKeyConstraint('vendor_rate_slots_pkey', ['vendor', 'scope'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('vendor_rate_slots').execute();
}
