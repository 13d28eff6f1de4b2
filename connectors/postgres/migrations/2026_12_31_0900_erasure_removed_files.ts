// The report files an erasure deleted because they could not be rewritten (PDFs naming the person),
// each with the command that builds it again, so `callsync erase --status` can say what went and how
// to get it back. Frozen: later changes go in new migrations, never here.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('erasures')
    .addColumn('removed_files', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('erasures').dropColumn('removed_files').execute();
}
