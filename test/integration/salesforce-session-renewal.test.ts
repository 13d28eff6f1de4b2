// Salesforce sessions that renew across workers (connectors/salesforce/sessions.ts, crm/renewing-token.ts)
// through the runtime's wiring (createCrmConnectors) on real PostgreSQL: two workers log an hour of
// calls (compressed into seconds) while the local Salesforce ends every session after 1.5 s and
// rotates refresh tokens; one worker is restarted midway. No call fails, each call is logged once,
// no refresh token is used twice (no invalid_grant), and refreshes never overlap.
import { randomBytes } from 'node:crypto';
import { parseTestConfig } from '../support/test-config';
import { upsertCallLog } from '../../connectors/crm';
import { createDatabase } from '../../connectors/postgres';
import { metrics } from '../../lib/metrics';
import { createCrmConnectors } from '../../runtime/crm';
import { startFakeSalesforce, type FakeSalesforce } from '../fakes/salesforce-server';
import { callLog } from '../unit/crm-fixtures';
import { createMigratedWarehouse, type MigratedWarehouse } from './warehouse-db';

const SESSION_MS = 1500;
const TRAFFIC_MS = 8000;
const CALLS = 96;

let sf: FakeSalesforce;
let wh: MigratedWarehouse;

beforeAll(async () => {
  sf = await startFakeSalesforce({ oauth: { sessionLifetimeMs: SESSION_MS, rotateRefreshTokens: true } });
  wh = await createMigratedWarehouse('sf_sessions');
});
afterAll(async () => {
  await sf?.close();
  await wh?.dispose();
});

const refreshFailures = async () =>
  (await metrics().tokenRefreshFailures.get()).values.find((v) => v.labels.vendor === 'salesforce')?.value;

it('two workers and a restart log an hour of calls across many session expiries, each once, with no failure', async () => {
  const firstRefreshToken = sf.oauth.authorize();
  const config = parseTestConfig({
    accounts: [
      {
        name: 'acme',
        platform: {
          baseUrl: 'http://127.0.0.1:1/v1.1/voipstudio',
          credentials: { type: 'apiKey', userId: 1, apiKey: 'k' },
        },
      },
    ],
    crm: {
      destination: {
        type: 'salesforce',
        instanceUrl: sf.url,
        auth: {
          type: 'refresh-token',
          clientId: sf.oauth.settings.clientId,
          refreshToken: firstRefreshToken,
          loginUrl: sf.url,
        },
        requestsPerSecond: 100,
      },
    },
    temporal: {
      encryption: { keys: [{ id: 'k1', key: randomBytes(32).toString('base64') }], activeKeyId: 'k1' },
    },
    logLevel: 'silent',
  });
  // A worker process: its own pool and connectors, as `callsync worker` builds them.
  const startWorker = () => {
    const warehouse = createDatabase(wh.url, { max: 4 });
    return { db: warehouse.db, crm: createCrmConnectors(config, warehouse.db)('acme'), warehouse };
  };
  const workers = [startWorker(), startWorker()];
  const retired: (typeof workers)[number][] = [];
  const inFlight: Promise<unknown>[][] = [[], []];
  const keys: string[] = [];
  const hour = Date.parse('2026-11-20T09:00:00Z');
  const began = Date.now();

  for (let i = 0; i < CALLS; i++) {
    await new Promise((r) => setTimeout(r, TRAFFIC_MS / CALLS));
    if (i === CALLS / 2) {
      // Worker 0 stops (its calls finish first) and a new process takes its place, memory empty.
      await Promise.all(inFlight[0]!);
      retired.push(workers[0]!);
      workers[0] = startWorker();
    }
    const log = callLog({ startedAt: new Date(hour + (i * 3600_000) / CALLS).toISOString() });
    keys.push(log.key);
    const send = (w: number) => inFlight[w]!.push(upsertCallLog(workers[w]!.db, workers[w]!.crm, log));
    send(i % 2);
    // Every fourth call is delivered twice, to both workers at once (a redelivered webhook).
    if (i % 4 === 0) send((i + 1) % 2);
  }
  const outcomes = await Promise.allSettled(inFlight.flat());
  const elapsed = Date.now() - began;

  expect(outcomes.filter((o) => o.status === 'rejected')).toEqual([]);
  const logged = sf.records('Task').map((r) => r.fields.CallObject);
  expect(logged.sort()).toEqual([...keys].sort());

  // Sessions ended all along: Salesforce refused some requests, and the workers renewed them.
  expect(sf.requests.filter((r) => r.status === 401).length).toBeGreaterThan(0);
  const refreshes = sf.oauth.grants.filter((g) => g.grant === 'refresh_token');
  expect(refreshes.filter((g) => g.status !== 200)).toEqual([]);
  expect(refreshes.length).toBeGreaterThanOrEqual(Math.floor(elapsed / SESSION_MS) - 1);
  // One refresh per ended session, whichever worker saw it end: two never come close together.
  const gaps = refreshes.slice(1).map((g, i) => g.at - refreshes[i]!.at);
  expect(Math.min(...gaps)).toBeGreaterThanOrEqual(SESSION_MS - 100);
  expect(await refreshFailures()).toBe(0);

  // The rotated refresh token is kept sealed: the table never holds it in clear.
  const rows = await wh.db
    .selectFrom('vendor_tokens')
    .selectAll()
    .where('vendor', '=', 'salesforce')
    .execute();
  expect(rows).toHaveLength(1);
  expect(Number(rows[0]!.version)).toBe(refreshes.length + 1);
  expect(JSON.stringify(rows)).not.toContain(firstRefreshToken);
  expect(JSON.stringify(rows)).not.toContain('5Aep861fake.');

  for (const w of [...workers, ...retired]) await w.warehouse.close();
});
