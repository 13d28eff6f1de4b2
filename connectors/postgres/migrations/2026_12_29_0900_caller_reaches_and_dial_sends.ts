// caller_reaches: per account and caller (the keyed hash callback ids use, never the number), the
// latest-starting call that reached them, so a callback whose missed calls are all older closes even
// when that call's follow-up finished first. callback_dials: when each attempt's POST /calls was last
// sent, and the newest start of the calls to the number before it (platform time), so a retry reads
// only the calls placed since. Frozen: later changes go in new migrations, never here.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('caller_reaches')
    .addColumn('account', 'text', (c) => c.notNull())
    .addColumn('caller_key', 'text', (c) => c.notNull())
    .addColumn('reached_at', 'timestamptz', (c) => c.notNull())
    .addColumn('call_id', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('caller_reaches_pkey', ['account', 'caller_key'])
    .execute();
  await db.schema
    .alterTable('callback_dials')
    .addColumn('sent_at', 'timestamptz')
    .addColumn('calls_since', 'timestamptz')
    .execute();
  // Attempts from before may have sent their POST already: a retry waits for their call as if it had.
  await sql`update callback_dials set sent_at = requested_at where call_id is null`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('callback_dials').dropColumn('sent_at').dropColumn('calls_since').execute();
  await db.schema.dropTable('caller_reaches').execute();
}
