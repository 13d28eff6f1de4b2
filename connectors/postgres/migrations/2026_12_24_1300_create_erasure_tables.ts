// Erasure of one person: the short-lived request (the only place the identifier itself is kept, and
// only while its workflow runs), the permanent record of each erasure (what, when, counts; no
// personal data), and the suppression list of keyed hashes that later syncs and webhooks consult.
// Frozen: later changes go in new migrations, never here.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('erasure_requests')
    .addColumn('subject_hash', 'text', (c) => c.primaryKey())
    .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('number', 'email')`))
    // The normalised identifier, and what the erasure learnt (names, call ids): deleted when it ends.
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('found', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  await db.schema
    .createTable('erasures')
    .addColumn('id', 'bigint', (c) => c.primaryKey().generatedAlwaysAsIdentity())
    .addColumn('subject_hash', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('workflow_id', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('running'))
    .addColumn('counts', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn('error', 'text')
    .addColumn('requested_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('finished_at', 'timestamptz')
    .execute();
  await db.schema
    .createIndex('erasures_subject_idx')
    .on('erasures')
    .columns(['subject_hash', 'requested_at'])
    .execute();

  await db.schema
    .createTable('erasure_suppressions')
    .addColumn('id', 'bigint', (c) => c.primaryKey().generatedAlwaysAsIdentity())
    // number (E.164), email, tail (last digits: a cheap first test), call (account and call id).
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('hash', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['erasure_suppressions', 'erasures', 'erasure_requests']) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}
