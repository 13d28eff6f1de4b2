// CRM state: the mapping from callsync's idempotency keys to CRM object ids, and the built-in CRM
// destination's tables (used when no CRM is configured).
// Frozen: later changes go in new migrations, never here.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // One row per CRM object callsync created, written before anything depends on the object, so a
  // retried step updates it instead of creating another.
  await db.schema
    .createTable('crm_objects')
    .addColumn('account', 'text', (c) => c.notNull())
    .addColumn('destination', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('call_log', 'task', 'contact')`))
    .addColumn('source_key', 'text', (c) => c.notNull())
    .addColumn('crm_id', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('crm_objects_pkey', ['destination', 'kind', 'source_key'])
    .execute();
  await db.schema
    .createIndex('crm_objects_account_kind_idx')
    .on('crm_objects')
    .columns(['account', 'kind', 'created_at'])
    .execute();

  await db.schema
    .createTable('builtin_contacts')
    .addColumn('id', 'bigint', (c) => c.primaryKey().generatedAlwaysAsIdentity())
    .addColumn('account', 'text', (c) => c.notNull())
    .addColumn('phone', 'text', (c) => c.notNull())
    .addColumn('name', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createIndex('builtin_contacts_account_phone_idx')
    .on('builtin_contacts')
    .columns(['account', 'phone'])
    .execute();

  await db.schema
    .createTable('builtin_call_logs')
    .addColumn('id', 'bigint', (c) => c.primaryKey().generatedAlwaysAsIdentity())
    .addColumn('account', 'text', (c) => c.notNull())
    .addColumn('key', 'text', (c) => c.notNull().unique())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('direction', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('started_at', 'timestamptz', (c) => c.notNull())
    .addColumn('duration_seconds', 'integer', (c) => c.notNull())
    .addColumn('from_number', 'text')
    .addColumn('to_number', 'text')
    .addColumn('user_email', 'text')
    .addColumn('contact_id', 'text')
    .addColumn('contact_kind', 'text')
    .addColumn('contact_name', 'text')
    .addColumn('recording_url', 'text')
    .addColumn('summary', 'text')
    .addColumn('transcript_excerpt', 'text')
    .addColumn('sentiment', 'text')
    .addColumn('body', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createIndex('builtin_call_logs_account_started_idx')
    .on('builtin_call_logs')
    .columns(['account', 'started_at'])
    .execute();

  await db.schema
    .createTable('builtin_tasks')
    .addColumn('id', 'bigint', (c) => c.primaryKey().generatedAlwaysAsIdentity())
    .addColumn('account', 'text', (c) => c.notNull())
    .addColumn('key', 'text', (c) => c.notNull().unique())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('due_at', 'timestamptz', (c) => c.notNull())
    .addColumn('caller_number', 'text', (c) => c.notNull())
    .addColumn('assignee_email', 'text')
    .addColumn('contact_id', 'text')
    .addColumn('contact_kind', 'text')
    .addColumn('contact_name', 'text')
    .addColumn('closed_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createIndex('builtin_tasks_open_idx')
    .on('builtin_tasks')
    .columns(['account', 'caller_number'])
    .where(sql<boolean>`status = 'open'`)
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['builtin_tasks', 'builtin_call_logs', 'builtin_contacts', 'crm_objects']) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}
