// Google apps state: the Tasks lists callsync created (so a retry finds its list instead of creating
// a second one), and one transcription job per recording (the Speech-to-Text operation it started,
// so a retry polls that operation instead of paying for another, and the month's audio minutes).
// Frozen: later changes go in new migrations, never here.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('google_tasklists')
    .addColumn('owner', 'text', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('tasklist_id', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('google_tasklists_pkey', ['owner', 'title'])
    .execute();
  await db.schema
    .createTable('transcription_jobs')
    .addColumn('account', 'text', (c) => c.notNull())
    .addColumn('recording_id', 'bigint', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('operation_name', 'text')
    .addColumn('audio_seconds', 'integer', (c) => c.notNull())
    .addColumn('month', 'text', (c) => c.notNull())
    .addColumn('reason', 'text')
    .addColumn('started_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('finished_at', 'timestamptz')
    .addPrimaryKeyConstraint('transcription_jobs_pkey', ['account', 'recording_id'])
    .execute();
  await db.schema
    .createIndex('transcription_jobs_month')
    .on('transcription_jobs')
    .columns(['account', 'month'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('transcription_jobs').execute();
  await db.schema.dropTable('google_tasklists').execute();
}
