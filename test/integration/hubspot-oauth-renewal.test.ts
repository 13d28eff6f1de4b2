// HubSpot OAuth tokens that renew themselves, on a real PostgreSQL and the HubSpot test server with
// 2-second access tokens and rotating refresh tokens. Two "workers" (connectors from the product's
// own wiring, runtime/crm.ts, each on a pool of its own) log a simulated hour of calls (one every 18
// simulated seconds), one of them restarted midway (a new instance on the same database). No call
// fails, each is logged once, the refreshes run one at a time (a rotated refresh token is never used
// twice: no invalid_grant), and the tokens in PostgreSQL are sealed. A token the vendor refuses as
// expired is renewed and the request retried once.
import { randomBytes } from 'node:crypto';
import { parseTestConfig } from '../support/test-config';
import type { CrmConnector } from '../../connectors/crm/crm-connector';
import { upsertCallLog } from '../../connectors/crm/upsert';
import { RenewingToken } from '../../connectors/crm/renewing-token';
import { VendorTokenStore } from '../../connectors/crm/vendor-token-store';
import { HubSpotConnector } from '../../connectors/hubspot';
import {
  hubspotAuthorizeUrl,
  hubspotInstallKey,
  hubspotRefreshGrant,
  installHubSpotApp,
} from '../../connectors/hubspot/oauth';
import { createDatabase } from '../../connectors/postgres';
import { metrics } from '../../lib/metrics';
import { createCrmConnectors } from '../../runtime/crm';
import { secretBoxFromConfig } from '../../lib/encryption-keys';
import { startFakeHubSpot, type FakeHubSpot } from '../fakes/hubspot-server';
import { callLog } from '../unit/crm-fixtures';
import { createMigratedWarehouse, type MigratedWarehouse } from './warehouse-db';

const APP = { clientId: 'app-client-id', clientSecret: 'app-client-secret' };
const REDIRECT = 'https://callsync.example.com/dashboard/hubspot/callback';
const platform = {
  baseUrl: 'http://127.0.0.1:1/v1.1/voipstudio',
  credentials: { type: 'apiKey', userId: 1, apiKey: 'k' },
};

function configFor(fake: FakeHubSpot, refreshBeforeExpirySeconds: number) {
  return parseTestConfig({
    accounts: [{ name: 'acme', platform }],
    crm: {
      destination: {
        type: 'hubspot',
        basePath: fake.url,
        requestsPer10Seconds: 1000,
        oauth: {
          ...APP,
          redirectUrl: REDIRECT,
          scopes: ['crm.objects.calls.write'],
          authorizeUrl: `${fake.url}/oauth/authorize`,
          refreshBeforeExpirySeconds,
        },
      },
    },
    temporal: {
      encryption: { keys: [{ id: 'k1', key: randomBytes(32).toString('base64') }], activeKeyId: 'k1' },
    },
    logLevel: 'silent',
  });
}

/** The consent step: HubSpot's authorize page redirects back with a code (the fake consents at once). */
async function authorize(config: ReturnType<typeof configFor>): Promise<string> {
  const d = config.crm.destination;
  if (d.type !== 'hubspot' || !d.oauth) throw new Error('not a HubSpot OAuth destination');
  const res = await fetch(hubspotAuthorizeUrl(d.oauth, 'state-1'), { redirect: 'manual' });
  const to = new URL(res.headers.get('location')!);
  expect(to.origin + to.pathname).toBe(REDIRECT);
  expect(to.searchParams.get('state')).toBe('state-1');
  return to.searchParams.get('code')!;
}

async function install(config: ReturnType<typeof configFor>, store: VendorTokenStore): Promise<string> {
  const d = config.crm.destination;
  if (d.type !== 'hubspot' || !d.oauth) throw new Error('not a HubSpot OAuth destination');
  return installHubSpotApp(store, 'acme', { basePath: d.basePath, oauth: d.oauth }, await authorize(config));
}

async function refreshFailures(): Promise<number> {
  const { values } = await metrics().tokenRefreshFailures.get();
  return values.find((v) => v.labels.vendor === 'hubspot')?.value ?? 0;
}

describe('HubSpot OAuth tokens renewing across workers', () => {
  let w: MigratedWarehouse;
  beforeAll(async () => {
    w = await createMigratedWarehouse('hubspot-oauth', 10);
  });
  afterAll(async () => {
    await w?.dispose();
  });

  it('logs a simulated hour of calls from two workers, one restarted, through many expiries', async () => {
    const fake = await startFakeHubSpot({
      limits: false,
      oauth: { ...APP, accessTokenMs: 2000, rotateRefreshTokens: true },
    });
    const pools: ReturnType<typeof createDatabase>[] = [];
    try {
      // Both workers renew 0.5 s before expiry, so at every expiry both want a new token at once.
      const config = configFor(fake, 0.5);
      const store = new VendorTokenStore(w.db, secretBoxFromConfig(config.temporal));
      expect(await install(config, store)).toBe(String(fake.portalId));
      const worker = (): CrmConnector => {
        const pool = createDatabase(w.url, { max: 4 });
        pools.push(pool);
        return createCrmConnectors(config, pool.db)('acme');
      };
      const failuresBefore = await refreshFailures();
      const a = worker();
      let b = worker();
      await a.prepare!();
      await b.prepare!();

      // 200 calls, one every 18 simulated seconds (an hour): every 60 ms real time, one call to each
      // worker at the same moment.
      const calls = Array.from({ length: 200 }, (_, i) =>
        callLog({
          key: `acme:${900_000 + i}`,
          startedAt: new Date(Date.UTC(2027, 0, 4, 9, 0, 0) + i * 18_000).toISOString(),
        }),
      );
      const started = Date.now();
      const failed: unknown[] = [];
      let byRestartedB = 0;
      const inFlight = new Set<Promise<unknown>>();
      const send = (connector: CrmConnector, i: number, restarted: boolean) => {
        const p = upsertCallLog(w.db, connector, calls[i]!, { mayExist: false })
          .then(() => {
            if (restarted) byRestartedB++;
          })
          .catch((err: unknown) => failed.push(err))
          .finally(() => inFlight.delete(p));
        inFlight.add(p);
      };
      for (let tick = 0; tick < 100; tick++) {
        if (tick === 50) {
          // Worker B restarts: it stops taking calls, finishes what it started, and a new instance
          // (new pool, nothing in memory) takes over on the same database.
          await Promise.all(inFlight);
          b = worker();
        }
        send(a, 2 * tick, false);
        send(b, 2 * tick + 1, tick >= 50);
        await new Promise((r) => setTimeout(r, 60));
      }
      await Promise.all(inFlight);
      const elapsedMs = Date.now() - started;

      expect(failed).toEqual([]);
      const logged = fake.objects('calls').map((o) => o.properties.callsync_key);
      expect(logged.sort()).toEqual(calls.map((c) => c.key).sort());
      expect(byRestartedB).toBe(50);
      const oauth = fake.oauth!.counters;
      // Several expiries, renewed one at a time: a rotated refresh token was never presented twice.
      expect(oauth.invalidGrants).toBe(0);
      expect(oauth.refreshGrants).toBeGreaterThanOrEqual(Math.floor(elapsedMs / 2000) - 1);
      expect(oauth.refreshGrants).toBeGreaterThanOrEqual(3);
      // Each worker refreshing for itself would take about two per token lifetime.
      expect(oauth.refreshGrants).toBeLessThanOrEqual(Math.ceil(elapsedMs / 1000));
      expect(await refreshFailures()).toBe(failuresBefore);

      // In PostgreSQL: sealed tokens (none of the issued ones, nor the client secret, in clear)
      // that open to the current ones.
      const rows = await w.db.selectFrom('vendor_tokens').selectAll().execute();
      expect(rows.map((r) => [r.vendor, r.identity])).toEqual([['hubspot', `acme/${APP.clientId}`]]);
      const text = JSON.stringify(rows);
      for (const t of fake.oauth!.issued()) expect(text).not.toContain(t);
      expect(text).not.toContain(APP.clientSecret);
      const stored = await store.load(hubspotInstallKey('acme', APP.clientId));
      // The token in PostgreSQL is the last one issued, and its refresh token the one HubSpot holds.
      expect(fake.oauth!.check(stored!.accessToken).state).not.toBe('unknown');
      expect(stored!.details.hubId).toBe(String(fake.portalId));
      expect(Number(rows[0]!.version)).toBe(oauth.refreshGrants + 1);
    } finally {
      await Promise.all(pools.map((p) => p.close()));
      await fake.close();
    }
  });

  it('renews a token HubSpot refuses as expired, and retries the request once', async () => {
    const fake = await startFakeHubSpot({ limits: false, oauth: APP });
    try {
      const config = configFor(fake, 0);
      const d = config.crm.destination;
      if (d.type !== 'hubspot' || !d.oauth) throw new Error('not a HubSpot OAuth destination');
      const store = new VendorTokenStore(w.db, secretBoxFromConfig(config.temporal));
      await w.db.deleteFrom('vendor_tokens').execute();
      await install(config, store);
      // callsync's clock stands still, so only HubSpot can say the token has expired.
      const tokens = new RenewingToken({
        store,
        key: hubspotInstallKey('acme', APP.clientId),
        refresh: hubspotRefreshGrant(d.basePath, d.oauth),
        skewMs: 0,
        now: () => 0,
      });
      const connector = new HubSpotConnector(d, { tokens, account: 'acme' });
      await connector.prepare();
      const first = await tokens.current();
      fake.oauth!.expire(first); // its life at HubSpot runs out (a renewed one lives the full 30 minutes)
      expect(fake.oauth!.check(first).state).toBe('expired');
      const id = await connector.createCallLog(callLog({ key: 'acme:77' }));
      expect(fake.objects('calls').map((o) => o.id)).toEqual([id]);
      expect(fake.oauth!.counters.expiredCalls).toBe(1);
      expect(fake.oauth!.counters.refreshGrants).toBe(1);
      expect(await tokens.current()).not.toBe(first);
      const refused = fake.requests.filter((r) => r.status === 401);
      expect(refused).toHaveLength(1);
    } finally {
      await fake.close();
    }
  });
});
