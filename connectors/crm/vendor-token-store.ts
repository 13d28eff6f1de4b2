// OAuth tokens kept in PostgreSQL, sealed with SecretBox: every token is sealed for its vendor, identity
// and kind (access or refresh), so a sealed value cannot be moved to another install's row. Nothing
// here logs or puts a token in an error.
import type { Kysely } from 'kysely';
import type { SecretBox } from '../../lib/secret-box';
import {
  getVendorTokens,
  putVendorTokens,
  withVendorTokenLock,
  type Database,
  type VendorTokenKey,
} from '../postgres';

export type { VendorTokenKey };

/** Tokens in clear, as a grant gives them. */
export interface VendorTokens {
  accessToken: string;
  /** null when the grant gave no refresh token. */
  refreshToken: string | null;
  expiresAt: Date;
  /** Non-secret facts of the install (portal id, instance URL, scopes). */
  details: Record<string, string>;
}

/** Tokens read from the store, with the version their install or refresh gave them. */
export interface StoredTokens extends VendorTokens {
  version: number;
}

/** The SecretBox context of one of the key's tokens. */
export function vendorTokenContext(key: VendorTokenKey, kind: 'access' | 'refresh'): string {
  return `vendor-token:${key.vendor}:${key.identity}:${kind}`;
}

/**
 * Where renewing tokens live: load and save through `session` (a locked transaction) or outside one.
 * VendorTokenStore is PostgreSQL's; unit tests use one in memory.
 */
export interface TokenStore<S> {
  load(key: VendorTokenKey, session?: S): Promise<StoredTokens | undefined>;
  save(key: VendorTokenKey, tokens: VendorTokens, session?: S): Promise<number>;
  withLock<T>(key: VendorTokenKey, work: (session: S) => Promise<T>): Promise<T>;
}

/** Reads and writes a vendor's tokens in PostgreSQL, sealed. */
export class VendorTokenStore implements TokenStore<Kysely<Database>> {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly box: SecretBox,
  ) {}

  /** The key's tokens in clear, or undefined when there are none (read through `db`, e.g. a locked trx). */
  async load(key: VendorTokenKey, db: Kysely<Database> = this.db): Promise<StoredTokens | undefined> {
    const row = await getVendorTokens(db, key);
    if (!row) return undefined;
    return {
      accessToken: this.box.open(row.accessTokenSealed, vendorTokenContext(key, 'access')),
      refreshToken:
        row.refreshTokenSealed === null
          ? null
          : this.box.open(row.refreshTokenSealed, vendorTokenContext(key, 'refresh')),
      expiresAt: row.expiresAt,
      details: row.details,
      version: row.version,
    };
  }

  /** Seals and writes the key's tokens (an install or a refresh); returns their version. */
  save(key: VendorTokenKey, tokens: VendorTokens, db: Kysely<Database> = this.db): Promise<number> {
    return putVendorTokens(db, key, {
      accessTokenSealed: this.box.seal(tokens.accessToken, vendorTokenContext(key, 'access')),
      refreshTokenSealed:
        tokens.refreshToken === null
          ? null
          : this.box.seal(tokens.refreshToken, vendorTokenContext(key, 'refresh')),
      expiresAt: tokens.expiresAt,
      details: tokens.details,
    });
  }

  /** Runs `work` holding the key's lock (one holder across every worker); `db` is the locked transaction. */
  withLock<T>(key: VendorTokenKey, work: (db: Kysely<Database>) => Promise<T>): Promise<T> {
    return withVendorTokenLock(this.db, key, work);
  }
}
