// The dashboard's users (role and the accounts each may see), its server-side sessions, and the
// failed log-ins that lock an address or a user out for a while.
// Frozen: later changes go in new migrations, never here.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('dashboard_users')
    .addColumn('username', 'text', (c) => c.primaryKey())
    .addColumn('role', 'text', (c) => c.notNull().check(sql`role in ('admin', 'viewer')`))
    // The account names the user may see; an admin sees every account whatever this holds.
    .addColumn('accounts', sql`text[]`, (c) => c.notNull().defaultTo(sql`'{}'::text[]`))
    // scrypt$N$r$p$<salt>$<hash> (base64url): never the password itself.
    .addColumn('password_hash', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('password_changed_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createTable('dashboard_sessions')
    // sha256 of the cookie's token: a leaked table gives no usable cookie.
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('username', 'text', (c) => c.notNull())
    // Set for the bootstrap admin (config password): a digest of that password, so changing it ends its sessions.
    .addColumn('credential', 'text')
    .addColumn('csrf_token', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('dashboard_sessions_username_idx')
    .on('dashboard_sessions')
    .column('username')
    .execute();
  await db.schema
    .createTable('dashboard_login_failures')
    // 'address' or 'user', and the address or the username.
    .addColumn('scope', 'text', (c) => c.notNull())
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('failures', 'integer', (c) => c.notNull())
    .addColumn('first_at', 'timestamptz', (c) => c.notNull())
    .addColumn('locked_until', 'timestamptz')
    .addPrimaryKeyConstraint('dashboard_login_failures_pk', ['scope', 'key'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('dashboard_login_failures').ifExists().execute();
  await db.schema.dropTable('dashboard_sessions').ifExists().execute();
  await db.schema.dropTable('dashboard_users').ifExists().execute();
}
