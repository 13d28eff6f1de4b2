// Webhook retention deletes relayed inbox rows and refused deliveries by age: indexes that find them
// without reading the whole tables.
// Frozen: later changes go in new migrations, never here.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex('webhook_inbox_done_at_idx')
    .on('webhook_inbox')
    .column('done_at')
    .where(sql<boolean>`status = 'done'`)
    .execute();
  await db.schema
    .createIndex('webhook_rejected_received_idx')
    .on('webhook_rejected')
    .column('received_at')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('webhook_rejected_received_idx').ifExists().execute();
  await db.schema.dropIndex('webhook_inbox_done_at_idx').ifExists().execute();
}
