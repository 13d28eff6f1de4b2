// Report runs: one row per report schedule and period (or ad-hoc period), the exactly-once record of
// a report export. The unique key (account, schedule_id, period_label) makes a repeated or retried run
// find the run it repeats. Frozen: later changes go in new migrations, never here.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('report_runs')
    .addColumn('id', 'bigint', (c) => c.primaryKey().generatedAlwaysAsIdentity())
    .addColumn('account', 'text', (c) => c.notNull())
    .addColumn('schedule_id', 'bigint', (c) => c.notNull())
    .addColumn('report_id', 'bigint')
    .addColumn('period_from', 'timestamptz', (c) => c.notNull())
    .addColumn('period_to', 'timestamptz', (c) => c.notNull())
    .addColumn('period_label', 'text', (c) => c.notNull())
    .addColumn('timezone', 'text', (c) => c.notNull())
    .addColumn('format', 'text')
    .addColumn('status', 'text', (c) =>
      c
        .notNull()
        .defaultTo('queued')
        .check(sql`status in ('queued', 'building', 'delivering', 'succeeded', 'failed')`),
    )
    .addColumn('rows', 'bigint')
    .addColumn('bytes', 'bigint')
    .addColumn('checksum', 'text')
    .addColumn('file_path', 'text')
    .addColumn('error', 'text')
    .addColumn('workflow_id', 'text')
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('started_at', 'timestamptz')
    .addColumn('finished_at', 'timestamptz')
    .addUniqueConstraint('report_runs_period_key', ['account', 'schedule_id', 'period_label'])
    .execute();
  await db.schema
    .createIndex('report_runs_recent_idx')
    .on('report_runs')
    .columns(['account', 'schedule_id', 'created_at'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('report_runs').execute();
}
