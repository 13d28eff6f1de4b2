// Auto-dial attempts, recorded before each POST /calls: what calls to the number existed before, and
// the call the attempt placed once known. A retry whose response was lost finds its call from here.
// Frozen: later changes go in new migrations, never here.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('callback_dials')
    .addColumn('attempt_key', 'text', (c) => c.primaryKey())
    .addColumn('account', 'text', (c) => c.notNull())
    .addColumn('number', 'text', (c) => c.notNull())
    .addColumn('known_call_ids', sql`bigint[]`, (c) => c.notNull())
    .addColumn('call_id', 'bigint')
    .addColumn('requested_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('placed_at', 'timestamptz')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('callback_dials').execute();
}
