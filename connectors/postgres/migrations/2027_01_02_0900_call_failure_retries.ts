// A failed call follow-up can be retried (dashboard, `callsync retry`): its row keeps who asked and
// when, the run that retried it and how that ended, so the failure's history stays readable. A retry
// that fails again is a row of its own, pointing back at the one it retried (retry_of).
// Frozen: later changes go in new migrations, never here.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('call_failures')
    .addColumn('retry_of', 'bigint')
    .addColumn('retry_requested_at', 'timestamptz')
    .addColumn('retry_requested_by', 'text')
    .addColumn('retry_run_id', 'text')
    .addColumn('retry_outcome', 'text')
    .addColumn('retry_finished_at', 'timestamptz')
    .execute();
  // The call page reads a call's latest failure; `retry --all-failed` reads the ones not retried.
  await db.schema
    .createIndex('call_failures_subject_idx')
    .on('call_failures')
    .columns(['account', 'workflow_type', 'subject', 'failed_at'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('call_failures_subject_idx').execute();
  await db.schema
    .alterTable('call_failures')
    .dropColumn('retry_of')
    .dropColumn('retry_requested_at')
    .dropColumn('retry_requested_by')
    .dropColumn('retry_run_id')
    .dropColumn('retry_outcome')
    .dropColumn('retry_finished_at')
    .execute();
}
