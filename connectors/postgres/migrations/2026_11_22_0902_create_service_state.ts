// Service-state tables: sync checkpoints, quarantined records, sync runs.
// Frozen: later changes go in new migrations, never here.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('sync_checkpoints')
    .addColumn('account', 'text', (c) => c.notNull())
    .addColumn('stream', 'text', (c) => c.notNull())
    .addColumn('scope', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('cursor', 'text')
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('sync_checkpoints_pkey', ['account', 'stream', 'scope'])
    .execute();

  await db.schema
    .createTable('quarantined_records')
    .addColumn('account', 'text', (c) => c.notNull())
    .addColumn('stream', 'text', (c) => c.notNull())
    .addColumn('record_id', 'text', (c) => c.notNull())
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('raw', 'jsonb')
    .addColumn('first_seen_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('last_seen_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('resolved_at', 'timestamptz')
    .addPrimaryKeyConstraint('quarantined_records_pkey', ['account', 'stream', 'record_id'])
    .execute();
  await db.schema
    .createIndex('quarantined_records_open_idx')
    .on('quarantined_records')
    .columns(['account', 'stream', 'last_seen_at'])
    .where(sql<boolean>`resolved_at is null`)
    .execute();

  await db.schema
    .createTable('sync_runs')
    .addColumn('id', 'bigint', (c) => c.primaryKey().generatedAlwaysAsIdentity())
    .addColumn('account', 'text', (c) => c.notNull())
    .addColumn('stream', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('workflow_id', 'text')
    .addColumn('started_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('finished_at', 'timestamptz')
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('running'))
    .addColumn('records', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('errors', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('error', 'text')
    .execute();
  await db.schema
    .createIndex('sync_runs_account_stream_started_idx')
    .on('sync_runs')
    .columns(['account', 'stream', 'started_at desc'])
    .execute();
  // A retried "start" of the same workflow's run finds the open run instead of opening another.
  await db.schema
    .createIndex('sync_runs_open_workflow_idx')
    .on('sync_runs')
    .columns(['account', 'stream', 'kind', 'workflow_id'])
    .unique()
    .where(sql<boolean>`finished_at is null and workflow_id is not null`)
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['sync_runs', 'quarantined_records', 'sync_checkpoints']) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}
