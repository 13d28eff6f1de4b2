// Accounts added at run time (`callsync accounts add`), each row's configuration sealed by the caller.
import { sql, type Kysely } from 'kysely';
import type { Database, StoredAccountRow } from '../tables';

/** Every stored account, by name. */
export function listStoredAccounts(db: Kysely<Database>): Promise<StoredAccountRow[]> {
  return db.selectFrom('stored_accounts').selectAll().orderBy('name').execute();
}

/** One stored account, or undefined. */
export function getStoredAccount(db: Kysely<Database>, name: string): Promise<StoredAccountRow | undefined> {
  return db.selectFrom('stored_accounts').selectAll().where('name', '=', name).executeTakeFirst();
}

/** Inserts or replaces an account's sealed configuration; its version is raised either way. */
export async function putStoredAccount(
  db: Kysely<Database>,
  row: { name: string; sealedConfig: string },
): Promise<void> {
  await db
    .insertInto('stored_accounts')
    .values({ name: row.name, sealed_config: row.sealedConfig })
    .onConflict((oc) =>
      oc.column('name').doUpdateSet({
        sealed_config: row.sealedConfig,
        updated_at: sql<Date>`now()`,
        version: sql<string>`nextval('stored_accounts_version_seq')`,
      } as never),
    )
    .execute();
}

/** Deletes a stored account; false when there was none. */
export async function deleteStoredAccount(db: Kysely<Database>, name: string): Promise<boolean> {
  const r = await db.deleteFrom('stored_accounts').where('name', '=', name).executeTakeFirst();
  return Number(r.numDeletedRows) > 0;
}

/**
 * What a process compares to notice any add, change or removal: the count and the highest version
 * (an add or change raises the version; a removal lowers the count).
 */
export async function storedAccountsFingerprint(db: Kysely<Database>): Promise<string> {
  const row = await db
    .selectFrom('stored_accounts')
    .select([sql<string>`count(*)`.as('n'), sql<string | null>`max(version)`.as('v')])
    .executeTakeFirstOrThrow();
  return `${row.n}:${row.v ?? 0}`;
}
