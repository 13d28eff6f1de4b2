// CRM outcomes written back to CDRs: per call (destination + call key), the CRM disposition last seen,
// the label and note callsync put on the CDR for it, and whether that write is pending, done, refused
// by the platform, or was no agent's outcome at all (callsync's own disposition coming back).
// Frozen: later changes go in new migrations, never here.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('cdr_outcomes')
    .addColumn('destination', 'text', (c) => c.notNull())
    .addColumn('call_key', 'text', (c) => c.notNull())
    .addColumn('account', 'text', (c) => c.notNull())
    .addColumn('crm_id', 'text', (c) => c.notNull())
    .addColumn('cdr_id', 'bigint')
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('label', 'text')
    .addColumn('previous_label', 'text')
    .addColumn('note', 'text')
    .addColumn('state', 'text', (c) =>
      c.notNull().check(sql`state in ('pending', 'applied', 'echo', 'refused')`),
    )
    .addColumn('reason', 'text')
    .addColumn('crm_changed_at', 'text')
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('cdr_outcomes_pkey', ['destination', 'call_key'])
    .execute();
  // A run first resumes the writes an earlier attempt left pending.
  await db.schema
    .createIndex('cdr_outcomes_pending_idx')
    .on('cdr_outcomes')
    .columns(['account', 'destination'])
    .where(sql.ref('state'), '=', 'pending')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('cdr_outcomes').execute();
}
