// Call timelines: every call event received by webhook, once per event id.
// Frozen: later changes go in new migrations, never here.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('call_events')
    .addColumn('account', 'text', (c) => c.notNull())
    .addColumn('event_id', 'text', (c) => c.notNull())
    .addColumn('call_id', 'bigint', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('event_time', 'timestamptz')
    .addColumn('state', 'text')
    .addColumn('context', 'text')
    .addColumn('detail', 'jsonb', (c) => c.notNull())
    .addColumn('recorded_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('call_events_pkey', ['account', 'event_id'])
    .execute();
  await db.schema
    .createIndex('call_events_call_idx')
    .on('call_events')
    .columns(['account', 'call_id', 'event_time'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('call_events').execute();
}
