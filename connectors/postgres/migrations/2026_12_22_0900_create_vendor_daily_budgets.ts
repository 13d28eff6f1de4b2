// Daily vendor allowances shared by every worker (Salesforce counts API calls per org per 24 hours,
// which Temporal's per-second task-queue rate limits cannot express): one row per vendor, scope and
// UTC day, with the units spent so far. Frozen: later changes go in new migrations, never here.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('vendor_daily_budgets')
    .addColumn('vendor', 'text', (c) => c.notNull())
    .addColumn('scope', 'text', (c) => c.notNull())
    .addColumn('day', 'date', (c) => c.notNull())
    .addColumn('used', 'integer', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('vendor_daily_budgets_pkey', ['vendor', 'scope', 'day'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('vendor_daily_budgets').execute();
}
