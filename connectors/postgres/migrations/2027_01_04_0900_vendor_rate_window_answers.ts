// When each of a window's last `max` requests had its answer (epoch ms, by request number modulo max;
// null while it is in flight): a vendor counts a request when it arrives, which is before its answer,
// so a place that frees a window after the answer can never crowd the vendor's window, however late
// the request left a busy worker (repositories/rate-windows.ts).
// Frozen: later changes go in new migrations, never here.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('vendor_rate_windows')
    .addColumn('answers', sql`float8[]`, (c) => c.notNull().defaultTo(sql`'{}'::float8[]`))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('vendor_rate_windows').dropColumn('answers').execute();
}
