// The renewing token against a store in memory and a clock the test moves: it answers from memory
// while the token is good beyond the skew, renews within it, renews after invalidate() only the token
// that was refused, makes one refresh for many concurrent callers, keeps a rotated refresh token, and
// counts a failed refresh.
import { RenewingToken, type RefreshedTokens } from '../../connectors/crm/renewing-token';
import type {
  StoredTokens,
  TokenStore,
  VendorTokenKey,
  VendorTokens,
} from '../../connectors/crm/vendor-token-store';

const KEY: VendorTokenKey = { vendor: 'hubspot', identity: 'acme/app' };

/** One row in memory; the lock is a promise chain, as the advisory lock is one holder at a time. */
class MemoryStore implements TokenStore<'locked'> {
  row: StoredTokens | undefined;
  loads = 0;
  private lock: Promise<unknown> = Promise.resolve();

  async load(): Promise<StoredTokens | undefined> {
    this.loads++;
    return this.row && { ...this.row };
  }
  async save(_key: VendorTokenKey, tokens: VendorTokens): Promise<number> {
    const version = (this.row?.version ?? 0) + 1;
    this.row = { ...tokens, version };
    return version;
  }
  withLock<T>(_key: VendorTokenKey, work: (session: 'locked') => Promise<T>): Promise<T> {
    const run = this.lock.then(() => work('locked'));
    this.lock = run.catch(() => undefined);
    return run;
  }
}

function setup(opts: { rotate?: boolean; fail?: boolean } = {}) {
  let now = 1_000_000;
  const store = new MemoryStore();
  store.row = {
    accessToken: 'access-0',
    refreshToken: 'refresh-0',
    expiresAt: new Date(now + 60_000),
    details: { hubId: '42' },
    version: 1,
  };
  const grants: string[] = [];
  const failures: unknown[] = [];
  const refresh = async (refreshToken: string): Promise<RefreshedTokens> => {
    grants.push(refreshToken);
    await new Promise((r) => setImmediate(r));
    if (opts.fail) throw new Error('invalid_grant');
    const n = grants.length;
    return {
      accessToken: `access-${n}`,
      ...(opts.rotate ? { refreshToken: `refresh-${n}` } : {}),
      expiresAt: new Date(now + 60_000),
    };
  };
  const token = new RenewingToken({
    store,
    key: KEY,
    refresh,
    skewMs: 10_000,
    now: () => now,
    onRefreshFailed: (err) => failures.push(err),
  });
  return { store, grants, failures, token, advance: (ms: number) => (now += ms) };
}

describe('RenewingToken', () => {
  it('answers from memory while the token is good beyond the skew, and renews within it', async () => {
    const { store, grants, token, advance } = setup();
    expect(await token.current()).toBe('access-0');
    expect(await token.current()).toBe('access-0');
    expect(store.loads).toBe(1);
    advance(49_000); // 11 s left: still beyond the 10 s skew
    expect(await token.current()).toBe('access-0');
    expect(grants).toEqual([]);
    advance(2_000); // 9 s left: within the skew
    expect(await token.current()).toBe('access-1');
    expect(grants).toEqual(['refresh-0']);
    expect(store.row?.accessToken).toBe('access-1');
    expect(store.row?.refreshToken).toBe('refresh-0'); // not rotated: kept
    expect(store.row?.details).toEqual({ hubId: '42' });
  });

  it('makes one refresh for many concurrent callers', async () => {
    const { grants, token, advance } = setup();
    advance(55_000);
    const tokens = await Promise.all(Array.from({ length: 20 }, () => token.current()));
    expect(new Set(tokens)).toEqual(new Set(['access-1']));
    expect(grants).toHaveLength(1);
  });

  it('uses a token another worker renewed instead of refreshing again', async () => {
    const { store, grants, token, advance } = setup();
    expect(await token.current()).toBe('access-0');
    advance(55_000);
    // Another worker renewed it (through the same store) before this one looked.
    await store.save(KEY, {
      accessToken: 'other-worker',
      refreshToken: 'refresh-other',
      expiresAt: new Date(10 ** 13),
      details: {},
    });
    expect(await token.current()).toBe('other-worker');
    expect(grants).toEqual([]);
  });

  it('renews after invalidate() of the current token, but not of an older one', async () => {
    const { grants, token } = setup();
    expect(await token.current()).toBe('access-0');
    token.invalidate('some-older-token');
    expect(await token.current()).toBe('access-0');
    token.invalidate('access-0');
    expect(await token.current()).toBe('access-1');
    expect(grants).toEqual(['refresh-0']);
    // The refused token stays refused even though it has not expired.
    expect(await token.current()).toBe('access-1');
    expect(grants).toHaveLength(1);
  });

  it('persists a rotated refresh token and uses it for the next refresh', async () => {
    const { store, grants, token, advance } = setup({ rotate: true });
    advance(55_000);
    expect(await token.current()).toBe('access-1');
    expect(store.row?.refreshToken).toBe('refresh-1');
    advance(55_000);
    expect(await token.current()).toBe('access-2');
    expect(grants).toEqual(['refresh-0', 'refresh-1']);
    expect(store.row?.version).toBe(3);
  });

  it('reports a failed refresh once, throws it to every waiting caller, and tries again next time', async () => {
    const { grants, failures, token, advance } = setup({ fail: true });
    advance(55_000);
    const results = await Promise.allSettled([token.current(), token.current()]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    expect(failures).toHaveLength(1);
    await expect(token.current()).rejects.toThrow('invalid_grant');
    expect(grants).toHaveLength(2);
    expect(failures).toHaveLength(2);
  });

  it('says when there are no tokens at all', async () => {
    const { store, token } = setup();
    store.row = undefined;
    await expect(token.current()).rejects.toThrow('hubspot acme/app: no tokens stored');
  });
});

describe('seeding from the configuration', () => {
  it('stores the configured refresh token once for many first uses, then refreshes once with it', async () => {
    const store = new MemoryStore();
    const grants: string[] = [];
    let saves = 0;
    const save = store.save.bind(store);
    store.save = (key, tokens) => {
      saves++;
      return save(key, tokens);
    };
    const worker = () =>
      new RenewingToken({
        store,
        key: KEY,
        refresh: async (refreshToken) => {
          grants.push(refreshToken);
          await new Promise((r) => setImmediate(r));
          return { accessToken: 'fresh', expiresAt: new Date(Date.now() + 3_600_000) };
        },
        seed: () => ({ accessToken: '', refreshToken: 'configured', expiresAt: new Date(0), details: {} }),
      });
    // Two workers' first uses, several callers each.
    const [a, b] = [worker(), worker()];
    const tokens = await Promise.all([a.current(), a.current(), b.current(), b.current()]);
    expect(tokens).toEqual(['fresh', 'fresh', 'fresh', 'fresh']);
    expect(grants).toEqual(['configured']);
    // One seed and one renewal written; a later worker finds the row and seeds nothing.
    expect(saves).toBe(2);
    expect(await worker().current()).toBe('fresh');
    expect(saves).toBe(2);
  });
});
