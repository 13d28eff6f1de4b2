// OAuth tokens per vendor and identity, as sealed strings (sealing is the caller's: connectors/crm/
// vendor-token-store.ts). A refresh runs inside withVendorTokenLock: a transaction holding an advisory
// lock on the key, so one worker at a time renews, and what it read under the lock is what it replaces.
import { sql, type Kysely, type Transaction } from 'kysely';
import { toJsonText } from '../json-text';
import type { Database } from '../tables';

/** Whose tokens: the vendor and, within it, the install (e.g. `<account>/<client id>`). */
export interface VendorTokenKey {
  vendor: string;
  identity: string;
}

/** Tokens as they are kept: sealed. */
export interface SealedVendorTokens {
  accessTokenSealed: string;
  refreshTokenSealed: string | null;
  expiresAt: Date;
  /** Non-secret facts of the install (portal id, instance URL, scopes). */
  details: Record<string, string>;
}

/** Stored tokens with the version the last install or refresh gave them. */
export interface StoredVendorTokens extends SealedVendorTokens {
  version: number;
  updatedAt: Date;
}

/** An install as listed (no token, sealed or not). */
export interface VendorTokenInstall {
  identity: string;
  details: Record<string, string>;
  expiresAt: Date;
  updatedAt: Date;
}

/** The key's tokens, or undefined when there are none. */
export async function getVendorTokens(
  db: Kysely<Database>,
  key: VendorTokenKey,
): Promise<StoredVendorTokens | undefined> {
  const row = await db
    .selectFrom('vendor_tokens')
    .select(['access_token_sealed', 'refresh_token_sealed', 'expires_at', 'details', 'version', 'updated_at'])
    .where('vendor', '=', key.vendor)
    .where('identity', '=', key.identity)
    .executeTakeFirst();
  if (!row) return undefined;
  return {
    accessTokenSealed: row.access_token_sealed,
    refreshTokenSealed: row.refresh_token_sealed,
    expiresAt: new Date(row.expires_at),
    details: row.details,
    version: Number(row.version),
    updatedAt: new Date(row.updated_at),
  };
}

/**
 * Writes the key's tokens (an install, or a refresh under the lock) and returns their new version.
 * An upsert: writing the same tokens again leaves one row.
 */
export async function putVendorTokens(
  db: Kysely<Database>,
  key: VendorTokenKey,
  tokens: SealedVendorTokens,
): Promise<number> {
  const values = {
    access_token_sealed: tokens.accessTokenSealed,
    refresh_token_sealed: tokens.refreshTokenSealed,
    expires_at: tokens.expiresAt,
    details: toJsonText(tokens.details) ?? '{}',
  };
  const row = await db
    .insertInto('vendor_tokens')
    .values({ vendor: key.vendor, identity: key.identity, ...values })
    .onConflict((oc) =>
      oc.columns(['vendor', 'identity']).doUpdateSet({
        ...values,
        version: sql<number>`vendor_tokens.version + 1`,
        updated_at: sql<Date>`now()`,
      }),
    )
    .returning('version')
    .executeTakeFirstOrThrow();
  return Number(row.version);
}

/** Removes the key's tokens (an uninstall); true when there were some. */
export async function deleteVendorTokens(db: Kysely<Database>, key: VendorTokenKey): Promise<boolean> {
  const result = await db
    .deleteFrom('vendor_tokens')
    .where('vendor', '=', key.vendor)
    .where('identity', '=', key.identity)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** The vendor's installs whose identity starts with `prefix` (default all), without tokens. */
export async function listVendorTokenInstalls(
  db: Kysely<Database>,
  vendor: string,
  prefix = '',
): Promise<VendorTokenInstall[]> {
  const rows = await db
    .selectFrom('vendor_tokens')
    .select(['identity', 'details', 'expires_at', 'updated_at'])
    .where('vendor', '=', vendor)
    .where(sql<boolean>`starts_with(identity, ${prefix})`)
    .orderBy('identity')
    .execute();
  return rows.map((r) => ({
    identity: r.identity,
    details: r.details,
    expiresAt: new Date(r.expires_at),
    updatedAt: new Date(r.updated_at),
  }));
}

/**
 * Runs `work` in a transaction that holds the key's advisory lock (released at commit or rollback):
 * one holder at a time per key, across every worker process. Read the tokens again inside it.
 */
export async function withVendorTokenLock<T>(
  db: Kysely<Database>,
  key: VendorTokenKey,
  work: (trx: Transaction<Database>) => Promise<T>,
): Promise<T> {
  return db.transaction().execute(async (trx) => {
    const lockName = `vendor-token:${key.vendor}:${key.identity}`;
    await sql`select pg_advisory_xact_lock(hashtextextended(${lockName}, 0))`.execute(trx);
    return work(trx);
  });
}
