// Salesforce sessions (connectors/salesforce/sessions.ts, oauth-grants.ts, config.ts) against the
// local Salesforce's token endpoint (test/fakes/salesforce-oauth.ts), with a clock the test moves: the
// JWT bearer flow gets a new session each time one ends and the request goes through; an access
// token alone fails with a message that says what to configure; the token endpoint follows
// Salesforce's rules (assertion claims, rotation refusing a used refresh token, expired sessions).
import { generateKeyPairSync } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { salesforceAuthOf, salesforceConfigSchema } from '../../connectors/salesforce/config';
import {
  jwtBearerAssertion,
  jwtBearerGrant,
  refreshTokenGrant,
} from '../../connectors/salesforce/oauth-grants';
import { SalesforceConnector } from '../../connectors/salesforce';
import type {
  StoredTokens,
  TokenStore,
  VendorTokenKey,
  VendorTokens,
} from '../../connectors/crm/vendor-token-store';
import { startFakeSalesforce, type FakeSalesforce } from '../fakes/salesforce-server';
import { callLog } from './crm-fixtures';

const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const PEM = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
const SESSION_MS = 5 * 60_000;

let sf: FakeSalesforce;
let dir: string;

beforeAll(async () => {
  sf = await startFakeSalesforce({ oauth: { jwtPublicKey: publicKey, sessionLifetimeMs: SESSION_MS } });
  dir = await mkdtemp(join(tmpdir(), 'callsync-sf-'));
});
afterAll(async () => {
  await sf.close();
  await rm(dir, { recursive: true, force: true });
});
afterEach(() => jest.useRealTimers());

/** Only Date is faked: the test moves the clock both the connector and the local Salesforce read. */
function fakeClock(): (ms: number) => void {
  jest.useFakeTimers({
    doNotFake: ['nextTick', 'setImmediate', 'setTimeout', 'setInterval', 'queueMicrotask'],
  });
  return (ms) => jest.setSystemTime(Date.now() + ms);
}

const jwtInput = () => ({
  clientId: sf.oauth.settings.clientId,
  username: sf.oauth.settings.username,
  loginUrl: sf.url,
  privateKey: PEM,
});

const connector = (destination: Record<string, unknown>) =>
  new SalesforceConnector(
    salesforceConfigSchema.parse({
      type: 'salesforce',
      instanceUrl: sf.url,
      requestsPerSecond: 100,
      ...destination,
    }),
  );

describe('JWT bearer flow', () => {
  it('signs a new assertion whenever the session has ended, and the call goes through', async () => {
    const keyFile = join(dir, 'sf.key');
    await writeFile(keyFile, PEM);
    const crm = connector({
      auth: {
        type: 'jwt',
        clientId: sf.oauth.settings.clientId,
        username: sf.oauth.settings.username,
        privateKeyFile: keyFile,
        loginUrl: sf.url,
      },
    });
    const grantsBefore = sf.oauth.grants.length;
    const advance = fakeClock();
    const keys: string[] = [];
    for (let i = 0; i < 4; i++) {
      const log = callLog();
      keys.push(log.key);
      await crm.createCallLog(log);
      advance(SESSION_MS + 1000); // every session ends between two calls
    }
    const grants = sf.oauth.grants.slice(grantsBefore);
    expect(grants.map((g) => [g.grant, g.status])).toEqual(
      keys.map(() => ['urn:ietf:params:oauth:grant-type:jwt-bearer', 200]),
    );
    const mine = sf.records('Task').filter((r) => keys.includes(String(r.fields.CallObject)));
    expect(mine).toHaveLength(4);
  });

  it('makes the assertion Salesforce asks for: iss, sub, aud, exp within 3 minutes', () => {
    const now = Date.parse('2026-11-27T10:00:00Z');
    const [, payload] = jwtBearerAssertion(
      { ...jwtInput(), loginUrl: 'https://login.salesforce.com/' },
      now,
    ).split('.');
    const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString()) as Record<string, unknown>;
    expect(claims).toEqual({
      iss: sf.oauth.settings.clientId,
      sub: sf.oauth.settings.username,
      aud: 'https://login.salesforce.com',
      exp: now / 1000 + 170,
    });
  });
});

/** The vendor token store in memory (PostgreSQL's is in the integration test); one lock holder at a time. */
class MemoryStore implements TokenStore<'locked'> {
  readonly rows = new Map<string, StoredTokens>();
  private lock: Promise<unknown> = Promise.resolve();
  async load(key: VendorTokenKey): Promise<StoredTokens | undefined> {
    const row = this.rows.get(key.identity);
    return row && { ...row };
  }
  async save(key: VendorTokenKey, tokens: VendorTokens): Promise<number> {
    const version = (this.rows.get(key.identity)?.version ?? 0) + 1;
    this.rows.set(key.identity, { ...tokens, version });
    return version;
  }
  withLock<T>(_key: VendorTokenKey, work: (session: 'locked') => Promise<T>): Promise<T> {
    const run = this.lock.then(() => work('locked'));
    this.lock = run.catch(() => undefined);
    return run;
  }
}

describe('refresh token flow', () => {
  it('seeds the store from config once, keeps the rotated token across a restart, and starts again on a new authorisation', async () => {
    const store = new MemoryStore();
    const first = sf.oauth.authorize();
    const withToken = (refreshToken: string) =>
      new SalesforceConnector(
        salesforceConfigSchema.parse({
          type: 'salesforce',
          instanceUrl: sf.url,
          auth: {
            type: 'refresh-token',
            clientId: sf.oauth.settings.clientId,
            refreshToken,
            loginUrl: sf.url,
          },
        }),
        { tokenStore: () => store },
      );
    const refreshes = () => sf.oauth.grants.filter((g) => g.grant === 'refresh_token');
    const before = refreshes().length;

    await withToken(first).createCallLog(callLog());
    expect(
      refreshes()
        .slice(before)
        .map((g) => g.status),
    ).toEqual([200]);
    const [row] = [...store.rows.values()];
    expect(row!.refreshToken).not.toBe(first); // rotated, and stored

    // A restart: a new connector with the same config uses the stored session, not the spent seed.
    const advance = fakeClock();
    const restarted = withToken(first);
    await restarted.createCallLog(callLog());
    expect(refreshes().length - before).toBe(1);
    advance(SESSION_MS + 1000);
    await restarted.createCallLog(callLog());
    expect(
      refreshes()
        .slice(before)
        .map((g) => g.status),
    ).toEqual([200, 200]);

    // Authorising again (a new refresh token in config) starts from the new token.
    await withToken(sf.oauth.authorize()).createCallLog(callLog());
    expect(store.rows.size).toBe(2);
    expect(
      refreshes()
        .slice(before)
        .map((g) => g.status),
    ).toEqual([200, 200, 200]);
  });
});

describe('an access token alone', () => {
  it('fails after the session timeout with a non-retryable error that says to configure auth', async () => {
    const session = await jwtBearerGrant(jwtInput());
    const crm = connector({ accessToken: session.accessToken });
    await crm.createCallLog(callLog());
    const advance = fakeClock();
    advance(SESSION_MS + 1000);
    await expect(crm.createCallLog(callLog())).rejects.toMatchObject({
      status: 401,
      retryable: false,
      message: expect.stringContaining('give crm auth (jwt or refresh-token)'),
    });
  });
});

describe('config', () => {
  it('names the field that is missing or conflicting', () => {
    const issues = (input: Record<string, unknown>) =>
      salesforceConfigSchema
        .safeParse({ type: 'salesforce', instanceUrl: 'https://acme.my.salesforce.com', ...input })
        .error?.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    expect(issues({})).toEqual(['auth: give auth (jwt or refresh-token) or accessToken']);
    expect(issues({ refreshToken: 'r' })).toEqual([
      'oauth2.clientId: refreshToken needs oauth2.clientId (the connected app whose token it is)',
    ]);
    expect(issues({ auth: { type: 'jwt', clientId: 'c', username: 'u' } })).toEqual([
      'auth.privateKey: give privateKey or privateKeyFile (exactly one)',
    ]);
  });

  it('reads the older refreshToken + oauth2 form as the refresh token flow', () => {
    const config = salesforceConfigSchema.parse({
      type: 'salesforce',
      instanceUrl: 'https://acme.my.salesforce.com',
      accessToken: 'a',
      refreshToken: 'r',
      oauth2: { clientId: 'c' },
    });
    expect(salesforceAuthOf(config)).toEqual({
      type: 'refresh-token',
      clientId: 'c',
      refreshToken: 'r',
      loginUrl: 'https://login.salesforce.com',
    });
  });
});

describe('the local Salesforce’s token endpoint', () => {
  const post = async (form: Record<string, string>) => {
    const res = await fetch(`${sf.url}/services/oauth2/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(form),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };

  it('refuses a refresh token once rotation has replaced it', async () => {
    const first = sf.oauth.authorize();
    const app = { clientId: sf.oauth.settings.clientId, loginUrl: sf.url };
    const renewed = await refreshTokenGrant(app, first);
    expect(renewed.refreshToken).toMatch(/^5Aep861/);
    expect(renewed.refreshToken).not.toBe(first);
    const again = await post({ grant_type: 'refresh_token', client_id: app.clientId, refresh_token: first });
    expect(again).toEqual({
      status: 400,
      body: { error: 'invalid_grant', error_description: 'expired access/refresh token' },
    });
    await expect(refreshTokenGrant(app, renewed.refreshToken!)).resolves.toMatchObject({
      accessToken: expect.any(String),
    });
  });

  it('refuses an assertion for another audience, a user who has not approved the app, or a late exp', async () => {
    const assertion = (over: Partial<ReturnType<typeof jwtInput>>, now?: number) =>
      post({
        grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer',
        assertion: jwtBearerAssertion({ ...jwtInput(), ...over }, now),
      });
    expect((await assertion({ loginUrl: 'https://login.salesforce.com' })).body.error_description).toBe(
      'audience is invalid',
    );
    expect((await assertion({ username: 'someone@else.invalid' })).body.error_description).toBe(
      "user hasn't approved this consumer",
    );
    expect((await assertion({}, Date.now() + 60_000)).body.error_description).toBe(
      'expired authorization code',
    );
    expect((await assertion({}, Date.now() - 200_000)).body.error_description).toBe(
      'expired authorization code',
    );
    const other = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({
      type: 'pkcs8',
      format: 'pem',
    });
    expect((await assertion({ privateKey: other.toString() })).body).toEqual({
      error: 'invalid_grant',
      error_description: 'invalid assertion',
    });
  });

  it('answers an ended session with 401 INVALID_SESSION_ID', async () => {
    const { accessToken } = await jwtBearerGrant(jwtInput());
    const limits = () =>
      fetch(`${sf.url}/services/data/v62.0/limits`, { headers: { authorization: `Bearer ${accessToken}` } });
    expect((await limits()).status).toBe(200);
    fakeClock()(SESSION_MS);
    const res = await limits();
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual([
      { message: 'Session expired or invalid', errorCode: 'INVALID_SESSION_ID' },
    ]);
  });
});
