// Webhook receiver tables: the durable inbox (every acknowledged delivery, with the relay's state per
// row) and the rejected deliveries kept for inspection.
// Frozen: later changes go in new migrations, never here.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('webhook_inbox')
    .addColumn('id', 'bigint', (c) => c.primaryKey().generatedAlwaysAsIdentity())
    .addColumn('account', 'text', (c) => c.notNull())
    .addColumn('event_id', 'text', (c) => c.notNull())
    .addColumn('event_name', 'text', (c) => c.notNull())
    .addColumn('call_id', 'bigint')
    .addColumn('received_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('body', 'jsonb', (c) => c.notNull())
    // Relay state: pending until the event reached Temporal (or needs nothing), failed when it never can.
    .addColumn('status', 'text', (c) =>
      c
        .notNull()
        .defaultTo('pending')
        .check(sql`status in ('pending', 'done', 'failed')`),
    )
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('last_error', 'text')
    .addColumn('next_attempt_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('done_at', 'timestamptz')
    .addUniqueConstraint('webhook_inbox_account_event_key', ['account', 'event_id'])
    .execute();
  // The relay reads pending rows in arrival order; done rows drop out of this index.
  await db.schema
    .createIndex('webhook_inbox_pending_idx')
    .on('webhook_inbox')
    .column('id')
    .where(sql<boolean>`status = 'pending'`)
    .execute();
  await db.schema
    .createIndex('webhook_inbox_call_idx')
    .on('webhook_inbox')
    .columns(['account', 'call_id'])
    .where(sql<boolean>`call_id is not null`)
    .execute();

  await db.schema
    .createTable('webhook_rejected')
    .addColumn('id', 'bigint', (c) => c.primaryKey().generatedAlwaysAsIdentity())
    .addColumn('account', 'text', (c) => c.notNull())
    .addColumn('received_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('headers', 'jsonb', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('webhook_rejected_account_received_idx')
    .on('webhook_rejected')
    .columns(['account', 'received_at desc'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['webhook_rejected', 'webhook_inbox']) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}
