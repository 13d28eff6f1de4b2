// `callsync crm import` against the HubSpot test server (a Professional private app's real limits)
// and real PostgreSQL, through the product's wiring (createActivityDeps, as the command runs it):
// N calls logged exactly once, one already logged by live traffic included; interrupted after its
// first page and resumed, still exactly once; a second run writes nothing and sends no request.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildProgram } from '../../cli/main';
import { parseTestConfig } from '../support/test-config';
import { runCrmImport, NoCdrsError } from '../../activities/crm-import';
import { contactLookupOf } from '../../activities/contact-lookup';
import { buildCallLog } from '../../connectors/crm/call-log';
import { destinationIdOf } from '../../connectors/crm/crm-connector';
import { upsertCallLog } from '../../connectors/crm/upsert';
import { cdrSchema } from '../../connectors/platform';
import { getCrmImportCheckpoint, upsertPage } from '../../connectors/postgres';
import { silentLogger } from '../../lib/logger';
import { createActivityDeps, type RuntimeDeps } from '../../runtime/activity-deps';
import { startFakeHubSpot, type FakeHubSpot } from '../fakes/hubspot-server';
import { harnessEncryption } from './sync-harness';
import { createTestDatabase, type TestDatabase } from './warehouse-db';

jest.setTimeout(60_000);

const CALLS = 250;
const platformTime = (ms: number) => new Date(ms).toISOString().slice(0, 19).replace('T', ' ');

/** CDR legs of CALLS calls in the last days (every 10th with a second, unanswered leg), and one older call. */
function cdrRecords(now: number) {
  const raws: Record<string, unknown>[] = [];
  for (let i = 0; i < CALLS; i++) {
    const leg = {
      id: 10_000 + i,
      live_id: 5_000 + i,
      type: 'I',
      calldate: platformTime(now - (i + 1) * 600_000),
      src: `+4420794${String(60_000 + i)}`,
      dst: '600',
      billsec: 30 + (i % 50),
      disposition: 'ANSWERED',
    };
    raws.push(leg);
    if (i % 10 === 0) raws.push({ ...leg, id: 20_000 + i, billsec: 0, disposition: 'NO ANSWER' });
  }
  raws.push({
    id: 9_999,
    live_id: 4_999,
    type: 'I',
    calldate: platformTime(now - 100 * 86_400_000),
    src: '+442079460001',
    dst: '600',
    billsec: 10,
    disposition: 'ANSWERED',
  });
  return raws.map((raw) => ({ record: cdrSchema.parse(raw), raw }));
}

describe('crm import into HubSpot', () => {
  let fake: FakeHubSpot;
  let database: TestDatabase;
  let deps: RuntimeDeps;
  let configFile: string;

  beforeAll(async () => {
    [fake, database] = await Promise.all([startFakeHubSpot(), createTestDatabase('crm_import')]);
    const input = {
      accounts: [
        {
          name: 'acme',
          platform: {
            baseUrl: 'http://127.0.0.1:9/v1.1/voipstudio',
            credentials: { type: 'apiKey', userId: 1, apiKey: 'unused' },
          },
        },
      ],
      database: { url: database.url },
      temporal: { encryption: harnessEncryption() },
      crm: { destination: { type: 'hubspot', accessToken: fake.token, basePath: fake.url } },
      logLevel: 'silent',
    };
    const config = parseTestConfig(input);
    configFile = join(mkdtempSync(join(tmpdir(), 'callsync-crm-import-')), 'callsync.json');
    // A test setup: its secrets inline, as only a local setup may write them.
    writeFileSync(configFile, JSON.stringify({ allowInlineSecrets: true, ...input }), { mode: 0o600 });
    deps = await createActivityDeps(config, database.url, silentLogger);
    await upsertPage(deps.warehouse.pool, {
      stream: 'cdrs',
      account: 'acme',
      records: cdrRecords(Date.now()),
    });
  });

  afterAll(async () => {
    await deps?.close();
    await database?.drop();
    await fake?.close();
  });

  const importArgs = () => ({
    db: deps.warehouse.db,
    config: deps.config,
    account: 'acme',
    crm: deps.crm('acme'),
    lookup: contactLookupOf(deps),
    since: new Date(Date.now() - 90 * 86_400_000),
    until: new Date(),
  });
  const importCalls = (signal?: AbortSignal, onProgress?: () => void) =>
    runCrmImport({ ...importArgs(), ...(signal ? { signal } : {}), ...(onProgress ? { onProgress } : {}) });

  it('says to backfill first when the account has no CDRs', async () => {
    await expect(runCrmImport({ ...importArgs(), account: 'globex' })).rejects.toThrow(NoCdrsError);
    await expect(runCrmImport({ ...importArgs(), account: 'globex' })).rejects.toThrow(
      /callsync backfill --stream cdrs/,
    );
  });

  it('logs each call once, across live traffic, an interruption and a second run', async () => {
    // A call live traffic already logged (the worker's path: same key, same mapping table).
    const live = cdrRecords(Date.now()).find((r) => r.record.live_id === 5_150)!;
    const liveLog = buildCallLog({
      account: 'acme',
      callId: 5_150,
      cdr: live.record,
      recording: null,
      recordingUrl: null,
      userEmail: null,
      contact: null,
      defaultCountry: 'GB',
      ivrDigits: null,
    });
    const { crmId: liveId } = await upsertCallLog(deps.warehouse.db, deps.crm('acme'), liveLog);

    const stop = new AbortController();
    const first = await importCalls(stop.signal, () => stop.abort());
    expect(first).toMatchObject({ resumed: false, total: CALLS, done: 100, created: 100 });
    const checkpoint = await getCrmImportCheckpoint(deps.warehouse.db, {
      account: 'acme',
      destination: destinationIdOf(deps.crm('acme')),
    });
    expect(checkpoint).toMatchObject({ last_call_id: 5099, done: 100, total: CALLS, finished_at: null });

    const resumed = await importCalls();
    expect(resumed).toMatchObject({
      resumed: true,
      total: CALLS,
      done: CALLS,
      created: CALLS - 101,
      alreadyLogged: 1,
      failed: 0,
    });

    const keys = fake.objects('calls').map((o) => o.properties.callsync_key);
    expect(keys).toHaveLength(CALLS);
    expect(new Set(keys).size).toBe(CALLS);
    expect(keys).not.toContain('acme:4999');
    expect(fake.objects('calls').find((o) => o.properties.callsync_key === 'acme:5150')?.id).toBe(liveId);

    // The second run is the command itself, as a user runs it: nothing new, no call or search sent.
    const requestsBefore = fake.requests.length;
    const out: string[] = [];
    const write = jest.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
      out.push(String(chunk));
      return true;
    });
    const progress = jest.spyOn(process.stderr, 'write').mockImplementation(() => true);
    const serverUrl = process.env.DATABASE_URL;
    // The environment's DATABASE_URL (the test server's) would override the file's database.
    process.env.DATABASE_URL = database.url;
    try {
      await buildProgram().parseAsync([
        'node',
        'callsync',
        '--config',
        configFile,
        'crm',
        'import',
        '--account',
        'acme',
        '--since',
        '90d',
      ]);
    } finally {
      process.env.DATABASE_URL = serverUrl;
      write.mockRestore();
      progress.mockRestore();
    }
    const again = JSON.parse(out.join('')) as Record<string, unknown>;
    expect(again).toMatchObject({ resumed: false, done: CALLS, created: 0, alreadyLogged: CALLS });
    // The command's start reads the portal's settings (GETs); the import itself sends nothing.
    expect(fake.requests.slice(requestsBefore).filter((r) => r.method !== 'GET')).toEqual([]);
    expect(fake.objects('calls')).toHaveLength(CALLS);
    expect(fake.counters.limited).toBe(0);
  });
});
