// Companies onboarded at run time (`callsync accounts add`): one row per account, its configuration
// (accountConfigSchema's shape, credentials included) sealed with SecretBox. `version` comes from a
// sequence, so every add or change raises the table's max(version) and running processes notice.
// Frozen: later changes go in new migrations, never here.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create sequence stored_accounts_version_seq`.execute(db);
  await db.schema
    .createTable('stored_accounts')
    .addColumn('name', 'text', (c) => c.primaryKey())
    // SecretBox.seal(JSON of the account, 'stored-account:<name>'): never the configuration in clear.
    .addColumn('sealed_config', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('version', 'bigint', (c) => c.notNull().defaultTo(sql`nextval('stored_accounts_version_seq')`))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('stored_accounts').execute();
  await sql`drop sequence stored_accounts_version_seq`.execute(db);
}
