// An OAuth access token that renews itself, shared by every worker through PostgreSQL
// (vendor-token-store.ts). current() answers from memory while the token is good for longer than the
// skew; otherwise it reads the store (another worker may have renewed it), and only when the stored
// token is also stale does it refresh: in a transaction holding the key's advisory lock, it reads the
// tokens again (a worker that renewed while this one waited wins, and its token is used), calls the
// vendor's grant (injected: HubSpot's, Salesforce's), and writes the new tokens, a rotated refresh
// token included, before the transaction ends and before the new access token is used. So one refresh
// runs at a time per install, and a refresh token is never used after the vendor replaced it.
import type { StoredTokens, TokenStore, VendorTokenKey, VendorTokens } from './vendor-token-store';

/** What a refresh grant answers. */
export interface RefreshedTokens {
  accessToken: string;
  /** The vendor's new refresh token when it rotates them; absent or null keeps the current one. */
  refreshToken?: string | null | undefined;
  expiresAt: Date;
  /** Facts to add to the install's details (e.g. a new instance URL). */
  details?: Record<string, string> | undefined;
}

/** The vendor's refresh grant: a refresh token in, new tokens out. Errors must not carry tokens. */
export type RefreshGrant = (refreshToken: string) => Promise<RefreshedTokens>;

export interface RenewingTokenOptions<S = never> {
  store: TokenStore<S>;
  key: VendorTokenKey;
  refresh: RefreshGrant;
  /** Renew when the token expires within this many milliseconds (default 5 minutes). */
  skewMs?: number;
  now?: () => number;
  /** Called when a refresh fails (a metric); the error is thrown to current()'s callers as well. */
  onRefreshFailed?: (err: unknown) => void;
  /** The error when the store has no tokens for the key (e.g. one saying how to install the app). */
  notInstalled?: () => Error;
  /**
   * The tokens the configuration gives (a refresh token, perhaps an access token), stored once when
   * the store has none for the key, under its lock: two workers' first uses store one pair. Without
   * it the store must already hold them (an install flow wrote them).
   */
  seed?: () => VendorTokens;
}

/** A token source for an install whose tokens live in the store. */
export class RenewingToken<S = never> {
  private cached: StoredTokens | undefined;
  /** The version of a token the vendor refused: that one and older ones are not used again. */
  private refusedVersion = 0;
  private renewing: Promise<StoredTokens> | undefined;
  private seeded: Promise<void> | undefined;
  private readonly skewMs: number;
  private readonly now: () => number;

  constructor(private readonly opts: RenewingTokenOptions<S>) {
    this.skewMs = opts.skewMs ?? 300_000;
    this.now = opts.now ?? Date.now;
  }

  /** A valid access token: the one in memory, the store's, or a new one from the vendor. */
  async current(): Promise<string> {
    if (this.cached && this.usable(this.cached)) return this.cached.accessToken;
    if (this.opts.seed) {
      this.seeded ??= this.storeSeed(this.opts.seed).catch((err: unknown) => {
        this.seeded = undefined;
        throw err;
      });
      await this.seeded;
    }
    // One renewal at a time in this process; the advisory lock makes it one across processes.
    this.renewing ??= this.renew().finally(() => {
      this.renewing = undefined;
    });
    const tokens = await this.renewing;
    return tokens.accessToken;
  }

  /**
   * The vendor refused `accessToken` (a 401): the next current() renews it, unless another worker has
   * already replaced it in the store. A token other than the current one changes nothing.
   */
  invalidate(accessToken: string): void {
    if (this.cached?.accessToken === accessToken)
      this.refusedVersion = Math.max(this.refusedVersion, this.cached.version);
  }

  private usable(t: StoredTokens): boolean {
    return t.version > this.refusedVersion && t.expiresAt.getTime() - this.skewMs > this.now();
  }

  private async renew(): Promise<StoredTokens> {
    const { store, key } = this.opts;
    // Without the lock first: most of the time another worker renewed it already.
    const seen = await store.load(key);
    if (!seen) throw this.notInstalled();
    if (this.usable(seen)) return (this.cached = seen);
    const renewed = await store.withLock(key, async (trx) => {
      const stored = await store.load(key, trx);
      if (!stored) throw this.notInstalled();
      if (this.usable(stored)) return stored;
      if (stored.refreshToken === null)
        throw new Error(
          `${key.vendor} ${key.identity}: the access token expired and there is no refresh token`,
        );
      let fresh: RefreshedTokens;
      try {
        fresh = await this.opts.refresh(stored.refreshToken);
      } catch (err) {
        this.opts.onRefreshFailed?.(err);
        throw err;
      }
      const next = {
        accessToken: fresh.accessToken,
        refreshToken: fresh.refreshToken ?? stored.refreshToken,
        expiresAt: fresh.expiresAt,
        details: { ...stored.details, ...fresh.details },
      };
      // Written in the locked transaction: committed before anyone uses the new access token.
      const version = await store.save(key, next, trx);
      return { ...next, version };
    });
    this.cached = renewed;
    return renewed;
  }

  /** Stores the configured tokens when the store has none for the key (once, under its lock). */
  private async storeSeed(seed: () => VendorTokens): Promise<void> {
    const { store, key } = this.opts;
    if (await store.load(key)) return;
    await store.withLock(key, async (session) => {
      if (!(await store.load(key, session))) await store.save(key, seed(), session);
    });
  }

  private notInstalled(): Error {
    const { key } = this.opts;
    return this.opts.notInstalled?.() ?? new Error(`${key.vendor} ${key.identity}: no tokens stored`);
  }
}
