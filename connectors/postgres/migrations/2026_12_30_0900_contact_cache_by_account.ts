// The CRM contact cache keyed by account and destination (the portal, org or instance), not by the
// connector's type alone: two accounts on two HubSpot portals, or an account's cached "nobody", must
// never answer for another account. The old rows only cached CRM answers (nothing created by callsync
// lives here), so they are dropped: the next lookup asks the CRM, the contact sync warms it again.
// Frozen: later changes go in new migrations, never here.
import { sql, type Kysely } from 'kysely';

async function createCache(db: Kysely<unknown>, keyed: 'account' | 'type'): Promise<void> {
  const byAccount = (columns: string[]) => (keyed === 'account' ? ['account', ...columns] : columns);
  let table = db.schema.createTable('crm_contact_cache');
  if (keyed === 'account') table = table.addColumn('account', 'text', (c) => c.notNull());
  await table
    .addColumn('destination', 'text', (c) => c.notNull())
    .addColumn('e164', 'text', (c) => c.notNull())
    .addColumn('crm_id', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('contact', 'lead', 'none')`))
    .addColumn('name', 'text')
    .addColumn('owner_id', 'text')
    .addColumn('crm_updated_at', 'text')
    .addColumn('cached_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('crm_contact_cache_pkey', byAccount(['destination', 'e164', 'crm_id']) as never)
    .execute();
  // Forgetting a contact (deleted, or its numbers changed) finds its rows by id.
  await db.schema
    .createIndex('crm_contact_cache_crm_id_idx')
    .on('crm_contact_cache')
    .columns(byAccount(['destination', 'crm_id']))
    .execute();
}

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('crm_contact_cache').execute();
  await createCache(db, 'account');
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('crm_contact_cache').execute();
  await createCache(db, 'type');
}
