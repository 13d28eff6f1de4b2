// The built-in CRM's SMS and voice messages on the contact: one row per message, keyed by callsync's
// `<account>:sms:<id>` or `<account>:voicemail:<id>`.
// Frozen: later changes go in new migrations, never here.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('builtin_messages')
    .addColumn('id', 'bigint', (c) => c.primaryKey().generatedAlwaysAsIdentity())
    .addColumn('account', 'text', (c) => c.notNull())
    .addColumn('key', 'text', (c) => c.notNull().unique())
    .addColumn('channel', 'text', (c) => c.notNull().check(sql`channel in ('sms', 'voicemail')`))
    .addColumn('direction', 'text', (c) => c.notNull())
    .addColumn('at', 'timestamptz', (c) => c.notNull())
    .addColumn('from_number', 'text')
    .addColumn('to_number', 'text')
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('user_email', 'text')
    .addColumn('contact_id', 'text', (c) => c.notNull())
    .addColumn('contact_kind', 'text', (c) => c.notNull())
    .addColumn('contact_name', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  // A contact's conversation, newest first.
  await db.schema
    .createIndex('builtin_messages_contact_at_idx')
    .on('builtin_messages')
    .columns(['account', 'contact_id', 'at'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('builtin_messages').execute();
}
