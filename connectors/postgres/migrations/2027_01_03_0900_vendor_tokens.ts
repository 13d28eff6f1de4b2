// OAuth tokens that renew themselves (HubSpot apps, Salesforce connected apps), shared by every worker:
// one row per vendor and identity (a HubSpot app's install for an account, a Salesforce org user),
// holding the access and refresh tokens sealed with SecretBox (never in clear), the access token's
// expiry, non-secret facts of the install (portal id, instance URL, scopes), and a version that each
// refresh or install moves on. A refresh runs under a transaction-scoped advisory lock on the key.
// Frozen: later changes go in new migrations, never here.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('vendor_tokens')
    .addColumn('vendor', 'text', (c) => c.notNull())
    .addColumn('identity', 'text', (c) => c.notNull())
    .addColumn('access_token_sealed', 'text', (c) => c.notNull())
    .addColumn('refresh_token_sealed', 'text')
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('details', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn('version', 'bigint', (c) => c.notNull().defaultTo(1))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('vendor_tokens_pkey', ['vendor', 'identity'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('vendor_tokens').execute();
}
