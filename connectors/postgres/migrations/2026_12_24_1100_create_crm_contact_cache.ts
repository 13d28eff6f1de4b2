// The CRM contact cache: which CRM contacts (and leads) hold a phone number, as last read from the CRM
// or written by the contact sync. Screen-pop answers a ringing call from here without a CRM search.
// A row with crm_id '' remembers that the CRM had nobody with the number (an unknown caller).
// Frozen: later changes go in new migrations, never here.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('crm_contact_cache')
    .addColumn('destination', 'text', (c) => c.notNull())
    .addColumn('e164', 'text', (c) => c.notNull())
    .addColumn('crm_id', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('contact', 'lead', 'none')`))
    .addColumn('name', 'text')
    .addColumn('owner_id', 'text')
    .addColumn('crm_updated_at', 'text')
    .addColumn('cached_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('crm_contact_cache_pkey', ['destination', 'e164', 'crm_id'])
    .execute();
  // Forgetting a contact (deleted, or its numbers changed) finds its rows by id.
  await db.schema
    .createIndex('crm_contact_cache_crm_id_idx')
    .on('crm_contact_cache')
    .columns(['destination', 'crm_id'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('crm_contact_cache').execute();
}
