// Deliveries of finished reports (e-mail, Drive, Sheets), one row per run, channel and target,
// recorded before and after each send so a retried or repeated run never delivers twice.
// No foreign key to report_runs: that table belongs to the export's own migrations, and a delivery
// row is only ever written for a run that exists. Frozen: later changes go in new migrations.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('report_deliveries')
    .addColumn('id', 'bigint', (c) => c.primaryKey().generatedAlwaysAsIdentity())
    .addColumn('run_id', 'bigint', (c) => c.notNull())
    .addColumn('channel', 'text', (c) => c.notNull().check(sql`channel in ('email', 'drive', 'sheets')`))
    .addColumn('target', 'text', (c) => c.notNull())
    .addColumn('delivery_key', 'text', (c) => c.notNull().unique())
    .addColumn('state', 'text', (c) =>
      c
        .notNull()
        .defaultTo('pending')
        .check(sql`state in ('pending', 'sending', 'sent', 'failed')`),
    )
    .addColumn('external_id', 'text')
    .addColumn('external_url', 'text')
    .addColumn('detail', 'jsonb')
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('error', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('sent_at', 'timestamptz')
    .addUniqueConstraint('report_deliveries_run_channel_target_key', ['run_id', 'channel', 'target'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('report_deliveries').execute();
}
