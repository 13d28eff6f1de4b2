// The dashboard: a quarantined record's last retry (when and how it ended), a sync run's data lag at
// its end (the lag chart), and indexes behind the dashboard's charts and call search.
// Frozen: later changes go in new migrations, never here.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('quarantined_records')
    .addColumn('last_retry_at', 'timestamptz')
    .addColumn('last_retry_outcome', 'text')
    .execute();
  await db.schema.alterTable('sync_runs').addColumn('data_lag_seconds', 'double precision').execute();
  // Lag and throughput over time: finished runs of the last day, without reading every run.
  await db.schema
    .createIndex('sync_runs_finished_idx')
    .on('sync_runs')
    .columns(['finished_at'])
    .where(sql<boolean>`finished_at is not null`)
    .execute();
  // The call list filtered by outcome, newest first.
  await db.schema
    .createIndex('cdrs_account_disposition_calldate_idx')
    .on('cdrs')
    .columns(['account', 'disposition', 'calldate'])
    .execute();
  // Recently resolved quarantined records (what a retry cleared).
  await db.schema
    .createIndex('quarantined_records_resolved_idx')
    .on('quarantined_records')
    .columns(['resolved_at'])
    .where(sql<boolean>`resolved_at is not null`)
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('quarantined_records_resolved_idx').ifExists().execute();
  await db.schema.dropIndex('cdrs_account_disposition_calldate_idx').ifExists().execute();
  await db.schema.dropIndex('sync_runs_finished_idx').ifExists().execute();
  await db.schema.alterTable('sync_runs').dropColumn('data_lag_seconds').execute();
  await db.schema
    .alterTable('quarantined_records')
    .dropColumn('last_retry_outcome')
    .dropColumn('last_retry_at')
    .execute();
}
