// Call follow-ups that gave up: a call's or a callback's activity failed for good (a CRM refusing,
// retries spent), recorded by its workflow so `callsync status` and the warehouse show it.
// Frozen: later changes go in new migrations, never here.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('call_failures')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('account', 'text', (c) => c.notNull())
    .addColumn('workflow_id', 'text', (c) => c.notNull())
    .addColumn('run_id', 'text', (c) => c.notNull())
    .addColumn('workflow_type', 'text', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('activity', 'text', (c) => c.notNull())
    .addColumn('failure_type', 'text', (c) => c.notNull())
    .addColumn('message', 'text', (c) => c.notNull())
    .addColumn('retry_state', 'text')
    .addColumn('failed_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint('call_failures_run_key', ['workflow_id', 'run_id'])
    .execute();
  await db.schema
    .createIndex('call_failures_recent_idx')
    .on('call_failures')
    .columns(['failed_at'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('call_failures').execute();
}
