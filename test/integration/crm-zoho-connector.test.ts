// The Zoho connector's start-up check and token refusals against the Zoho test server: a missing key
// field stops the worker with the field to create; a refused refresh token is a non-retryable 401
// whose message names neither token.
import type {
  StoredTokens,
  TokenStore,
  VendorTokenKey,
  VendorTokens,
} from '../../connectors/crm/vendor-token-store';
import { CrmError } from '../../connectors/crm/errors';
import { ZohoConnector, zohoConfigSchema } from '../../connectors/zoho';
import { startFakeZoho, type FakeZoho } from '../fakes/zoho-server';

/** One row in memory; the lock a promise chain (one holder at a time, as the advisory lock). */
class MemoryStore implements TokenStore<'locked'> {
  row: StoredTokens | undefined;
  private lock: Promise<unknown> = Promise.resolve();
  load(): Promise<StoredTokens | undefined> {
    return Promise.resolve(this.row && { ...this.row });
  }
  save(_key: VendorTokenKey, tokens: VendorTokens): Promise<number> {
    const version = (this.row?.version ?? 0) + 1;
    this.row = { ...tokens, version };
    return Promise.resolve(version);
  }
  withLock<T>(_key: VendorTokenKey, work: (session: 'locked') => Promise<T>): Promise<T> {
    const run = this.lock.then(() => work('locked'));
    this.lock = run.catch(() => undefined);
    return run;
  }
}

const client = {
  clientId: '1000.PREPARE',
  clientSecret: 'prepare-secret',
  refreshToken: '1000.prepare-refresh',
};

describe('Zoho connector', () => {
  let fake: FakeZoho;
  beforeAll(async () => {
    fake = await startFakeZoho({ client });
  });
  afterAll(() => fake.close());

  const connector = (overrides: Record<string, unknown> = {}) =>
    new ZohoConnector(
      zohoConfigSchema.parse({
        type: 'zoho',
        dataCentre: 'us',
        ...client,
        apiUrl: fake.url,
        accountsUrl: fake.url,
        ...overrides,
      }),
      { tokenStore: () => new MemoryStore() },
    );

  it('prepare: Calls without the key field stops the start, naming the field to create', async () => {
    await expect(connector().prepare()).resolves.toBeUndefined();
    const err = await connector({ keyField: 'Other_Key' })
      .prepare()
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CrmError);
    expect(err).toMatchObject({ code: 'KEY_FIELD_MISSING', retryable: false });
    expect((err as Error).message).toMatch(/Calls has no field Other_Key/);
  });

  it('a refused refresh token is a non-retryable 401 that names neither token nor secret', async () => {
    const err = await connector({ refreshToken: '1000.revoked-refresh-token' })
      .findCallLog('acme:1')
      .catch((e: unknown) => e);
    expect(err).toMatchObject({ status: 401, code: 'invalid_code', retryable: false });
    expect((err as Error).message).not.toMatch(/revoked-refresh-token|prepare-secret/);
  });

  it("renews a token Zoho refused in the SDK's own field-metadata request, and answers", async () => {
    const c = connector();
    expect(await c.findCallLog('acme:1')).toBeNull();
    fake.expireTokens();
    // The first search in Contacts makes the SDK read Contacts' fields first: that request is refused.
    const grants = fake.counters.grants;
    expect(await c.findContactsByPhone('+442079460000')).toEqual([]);
    expect(fake.counters.grants).toBe(grants + 1);
  });
});
