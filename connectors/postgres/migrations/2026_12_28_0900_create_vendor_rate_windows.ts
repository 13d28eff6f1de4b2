// Sliding-window request limits shared by every worker (HubSpot's 190 requests in any rolling 10 s):
// one row per vendor and scope with the number of requests reserved and the start times (epoch ms)
// of the last `max` of them, by request number modulo max. Each request moves it in one atomic upsert.
// Frozen: later changes go in new migrations, never here.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('vendor_rate_windows')
    .addColumn('vendor', 'text', (c) => c.notNull())
    .addColumn('scope', 'text', (c) => c.notNull())
    .addColumn('reserved', 'bigint', (c) => c.notNull())
    .addColumn('starts', sql`float8[]`, (c) => c.notNull())
    .addPrimaryKeyConstraint('vendor_rate_windows_pkey', ['vendor', 'scope'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('vendor_rate_windows').execute();
}
