// Two-way contact sync: which platform contact is which CRM record (with each side's last synced
// state and its hash, how a change callsync wrote is recognised when it comes back), each account's
// sync progress and CRM cursor, and the matches left ambiguous. Frozen: later changes go in new
// migrations, never here.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('contact_links')
    .addColumn('account', 'text', (c) => c.notNull())
    .addColumn('destination', 'text', (c) => c.notNull())
    .addColumn('platform_id', 'text', (c) => c.notNull())
    .addColumn('crm_kind', 'text', (c) => c.notNull())
    .addColumn('crm_id', 'text', (c) => c.notNull())
    .addColumn('platform_state', 'jsonb', (c) => c.notNull())
    .addColumn('crm_state', 'jsonb', (c) => c.notNull())
    .addColumn('platform_hash', 'text', (c) => c.notNull())
    .addColumn('crm_hash', 'text', (c) => c.notNull())
    .addColumn('deleted_side', 'text')
    .addColumn('linked_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('synced_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('contact_links_pkey', ['account', 'destination', 'platform_id'])
    .addUniqueConstraint('contact_links_crm_key', ['account', 'destination', 'crm_kind', 'crm_id'])
    .execute();
  await db.schema
    .createTable('contact_sync_state')
    .addColumn('account', 'text', (c) => c.notNull())
    .addColumn('destination', 'text', (c) => c.notNull())
    .addColumn('phase', 'text', (c) => c.notNull())
    .addColumn('crm_cursor', 'timestamptz')
    .addColumn('stage', 'text', (c) => c.notNull())
    .addColumn('done', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('total', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('counters', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn('last_error', 'text')
    .addColumn('run_started_at', 'timestamptz')
    .addColumn('run_finished_at', 'timestamptz')
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('contact_sync_state_pkey', ['account', 'destination'])
    .execute();
  await db.schema
    .createTable('contact_ambiguities')
    .addColumn('account', 'text', (c) => c.notNull())
    .addColumn('destination', 'text', (c) => c.notNull())
    .addColumn('side', 'text', (c) => c.notNull())
    .addColumn('record_id', 'text', (c) => c.notNull())
    .addColumn('candidates', 'jsonb', (c) => c.notNull())
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('seen_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('contact_ambiguities_pkey', ['account', 'destination', 'side', 'record_id'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('contact_ambiguities').execute();
  await db.schema.dropTable('contact_sync_state').execute();
  await db.schema.dropTable('contact_links').execute();
}
