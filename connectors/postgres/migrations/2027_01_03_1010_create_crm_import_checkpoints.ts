// `callsync crm import`: how far an account's import of historical calls into a CRM destination got,
// so an interrupted import resumes after the last call it wrote. Keyed by account and destination
// (the CRM portal or org), like the mapping tables: another destination imports from the start.
// Frozen: later changes go in new migrations, never here.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('crm_import_checkpoints')
    .addColumn('account', 'text', (c) => c.notNull())
    .addColumn('destination', 'text', (c) => c.notNull())
    // The window being imported: calls started in [since, until).
    .addColumn('since', 'timestamptz', (c) => c.notNull())
    .addColumn('until', 'timestamptz', (c) => c.notNull())
    // The last call (live id) done, in the import's order (call id ascending); null before the first.
    .addColumn('last_call_id', 'bigint')
    .addColumn('done', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('total', 'integer', (c) => c.notNull())
    .addColumn('started_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('finished_at', 'timestamptz')
    .addPrimaryKeyConstraint('crm_import_checkpoints_pk', ['account', 'destination'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('crm_import_checkpoints').execute();
}
