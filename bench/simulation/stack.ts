// The real stack a simulated day runs on, built the way callsync's own commands build it: the
// receiver and relay (`startServer`, as `callsync server`), a worker (`createActivityDeps` +
// `createWorker`, as `callsync worker`), the sync Schedules (`applySchedules`, as `callsync
// schedules apply`), a Temporal dev server, PostgreSQL, the platform emulator and the HubSpot test
// server. PostgreSQL and the workflow bundle are shared by the seeds of one run; everything else is
// new for each seed, so seeds never see each other's calls, workflows or rows.
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@temporalio/client';
import { bundleWorkflowCode, DefaultLogger, Runtime } from '@temporalio/worker';
import pg from 'pg';
import { parseConfig } from '../../config/load';
import type { CallsyncConfig } from '../../config/schema';
import { startEmulator, type RunningEmulator } from '../../emulator';
import { createFileLogger, type Logger } from '../../lib/logger';
import { startEmbeddedPostgres } from '../../local/embedded-postgres';
import { startTemporalDevServer, type RunningTemporal } from '../../local/temporal-dev-server';
import { createActivityDeps, type RuntimeDeps } from '../../runtime/activity-deps';
import { applySchedules } from '../../runtime/schedules';
import { connectTemporalClient } from '../../runtime/temporal-connection';
import { FAILURE_CONVERTER_PATH, temporalDataConverter } from '../../runtime/temporal-encryption';
import { createWorker, type WorkerGroup } from '../../runtime/worker';
import { startServer, type RunningServer } from '../../server';
import { emulatorControl, type EmulatorControl } from '../../test/support/emulator-control';
import { startFakeHubSpot, type FakeHubSpot } from '../../test/fakes/hubspot-server';

export const ACCOUNT = 'acme';
const TASK_QUEUE = 'simulation';

/** What every seed of a run shares. */
export interface SharedServices {
  /** URL of a PostgreSQL server where this user may create databases. */
  postgresUrl: string;
  /** The workflow code, bundled once (a worker start then takes a second, not a minute). */
  bundlePath: string;
  scratch: string;
  close(): Promise<void>;
}

/**
 * PostgreSQL (DATABASE_URL, else embedded) and the workflow bundle (built here unless one built
 * already is given, as the test run's global setup does).
 */
export async function startSharedServices(
  log: (m: string) => void,
  opts: { bundlePath?: string | undefined } = {},
): Promise<SharedServices> {
  // A process that installed Temporal's runtime already (a test worker) keeps its own.
  try {
    Runtime.install({ logger: new DefaultLogger('ERROR') });
  } catch {
    // installed before
  }
  const scratch = mkdtempSync(join(tmpdir(), 'callsync-simulate-'));
  let stopPostgres: (() => Promise<void>) | undefined;
  let postgresUrl = process.env.DATABASE_URL;
  if (!postgresUrl) {
    const server = await startEmbeddedPostgres({
      dataDir: join(scratch, 'pg'),
      persistent: false,
      serverFlags: ['-c', 'max_connections=300', '-c', 'fsync=off'],
    });
    postgresUrl = server.url;
    stopPostgres = () => server.stop();
  }
  let bundlePath = opts.bundlePath;
  if (!bundlePath) {
    log('bundling the workflows');
    const bundle = await bundleWorkflowCode({
      workflowsPath: require.resolve('../../workflows'),
      failureConverterPath: FAILURE_CONVERTER_PATH,
      logger: new DefaultLogger('ERROR'),
    });
    bundlePath = join(scratch, 'workflow-bundle.js');
    writeFileSync(bundlePath, bundle.code);
  }
  return { postgresUrl, bundlePath, scratch, close: async () => stopPostgres?.() };
}

/** How one seed's callsync is configured (what the seed varies, and the compressed times). */
export interface SeedSettings {
  seed: number;
  /** Simulated seconds per real second. */
  speed: number;
  /** The platform clock at the start of the simulated day. */
  start: Date;
  /** CDRs of history the platform holds before the day starts. */
  historyCdrs: number;
  autoDial: boolean;
  createUnknownContacts: boolean;
  /** callbacks.expireAfter, in real ms (the policy, compressed like the day). */
  expireAfterMs: number;
  /** archive.missingAudioGrace, in real ms. */
  audioGraceMs: number;
  /** sync.historyInterval, in real ms. */
  historyIntervalMs: number;
  /** sync.settingsInterval, in real ms (ten history intervals when omitted). */
  settingsIntervalMs?: number;
}

export interface SeedStack {
  settings: SeedSettings;
  dir: string;
  emulator: RunningEmulator;
  control: EmulatorControl;
  hubspot: FakeHubSpot;
  temporal: RunningTemporal;
  client: Client;
  config: CallsyncConfig;
  /** The seed's warehouse, for the oracle's reads. */
  warehouse: pg.Pool;
  archiveDir: string;
  webhookSecret: string;
  /** Numbers HubSpot knows as contacts (seeded before the day), by number. */
  crmContacts: Map<string, string>;
  logFile: string;
  startWorker(): Promise<void>;
  stopWorker(): Promise<void>;
  startReceiver(): Promise<void>;
  stopReceiver(): Promise<void>;
  receiverRunning(): boolean;
  close(): Promise<void>;
}

async function createDatabase(
  serverUrl: string,
  name: string,
): Promise<{ url: string; drop(): Promise<void> }> {
  const admin = async (sql: string): Promise<void> => {
    const c = new pg.Client({ connectionString: serverUrl });
    await c.connect();
    try {
      await c.query(sql);
    } finally {
      await c.end();
    }
  };
  await admin(`CREATE DATABASE "${name}"`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => admin(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`) };
}

/** The seed's callsync configuration, as a user would write it (compressed times aside). */
function seedConfig(
  s: SeedSettings,
  parts: {
    emulator: RunningEmulator;
    hubspot: FakeHubSpot;
    databaseUrl: string;
    temporalAddress: string;
    archiveDir: string;
    webhookSecret: string;
  },
): Record<string, unknown> {
  const admin = parts.emulator.admin;
  return {
    allowInlineSecrets: true, // a local bench: the emulator's key and fresh secrets are inline
    accounts: [
      {
        name: ACCOUNT,
        webhookSecret: parts.webhookSecret,
        platform: {
          baseUrl: parts.emulator.baseUrl,
          credentials: { type: 'apiKey', userId: admin.user_id, apiKey: admin.api_key },
          requestsPerSecond: 300,
        },
      },
    ],
    database: { url: parts.databaseUrl },
    temporal: {
      address: parts.temporalAddress,
      taskQueue: TASK_QUEUE,
      encryption: {
        keys: [{ id: 'sim', key: randomBytes(32).toString('base64') }],
        activeKeyId: 'sim',
        idKey: randomBytes(24).toString('base64'),
      },
    },
    sync: {
      // Pages smaller than the platform's history, so every read spans several (capped) pages.
      pageSize: 400,
      historyInterval: s.historyIntervalMs,
      settingsInterval: s.settingsIntervalMs ?? 10 * s.historyIntervalMs,
      streams: ['cdrs', 'recordings', 'sms', 'voicemessages', 'contacts'],
    },
    crm: {
      destination: {
        type: 'hubspot',
        accessToken: parts.hubspot.token,
        basePath: parts.hubspot.url,
        requestsPer10Seconds: 190,
      },
      createUnknownContacts: s.createUnknownContacts,
    },
    callbacks: {
      expireAfter: s.expireAfterMs,
      autoDial: {
        enabled: s.autoDial,
        timezone: 'UTC',
        days: [1, 2, 3, 4, 5, 6, 7],
        start: '00:00',
        end: '23:59',
        maxAttempts: 1,
        retryAfter: s.expireAfterMs,
      },
    },
    // Today's audio only: the platform's history ends two days before the day starts.
    archive: { dir: parts.archiveDir, maxAge: '1d', missingAudioGrace: s.audioGraceMs },
    logLevel: 'info',
  };
}

export async function startSeedStack(
  shared: SharedServices,
  settings: SeedSettings,
  log: (m: string) => void,
): Promise<SeedStack> {
  const closers: Array<() => Promise<void>> = [];
  const close = async (): Promise<void> => {
    for (const c of closers.splice(0).reverse())
      await c().catch((e: unknown) => log(`cleanup: ${String(e)}`));
  };
  try {
    const dir = join(shared.scratch, `seed-${settings.seed}`);
    mkdirSync(dir, { recursive: true });
    const database = await createDatabase(
      shared.postgresUrl,
      `sim_${settings.seed}_${randomBytes(3).toString('hex')}`,
    );
    closers.push(() => database.drop());
    const temporal = await startTemporalDevServer();
    closers.push(() => temporal.stop());
    const emulator = await startEmulator({
      port: 0,
      seed: settings.seed,
      cdrs: settings.historyCdrs,
      now: settings.start,
    });
    closers.push(() => emulator.close());
    const hubspot = await startFakeHubSpot({ token: `pat-sim-${randomBytes(12).toString('hex')}` });
    closers.push(() => hubspot.close());
    const archiveDir = join(dir, 'archive');
    const webhookSecret = `sim-webhook-${randomBytes(12).toString('hex')}`;
    const input = seedConfig(settings, {
      emulator,
      hubspot,
      databaseUrl: database.url,
      temporalAddress: temporal.address,
      archiveDir,
      webhookSecret,
    });
    const config = parseConfig(input, 'simulation config');
    writeFileSync(join(dir, 'callsync.json'), JSON.stringify(input, null, 2), { mode: 0o600 });
    const logFile = join(dir, 'callsync.log');
    const logger: Logger = createFileLogger(logFile, 'info');

    const warehouse = new pg.Pool({ connectionString: database.url, max: 3 });
    closers.push(() => warehouse.end());
    const connection = await connectTemporalClient({ ...config.temporal, address: temporal.address });
    closers.push(() => connection.close());
    const client = new Client({ connection, dataConverter: temporalDataConverter(config.temporal) });

    // A worker "process": its own activity dependencies (pools, limiters, caches) and Temporal workers.
    let worker:
      { group: WorkerGroup; running: Promise<void>; deps: RuntimeDeps; close(): Promise<void> } | undefined;
    const startWorker = async (): Promise<void> => {
      if (worker) return;
      const deps = await createActivityDeps(config, database.url, logger.child({ process: 'worker' }), {
        temporalAddress: temporal.address,
      });
      const { worker: group, connection: nc } = await createWorker({
        address: temporal.address,
        namespace: config.temporal.namespace,
        taskQueue: config.temporal.taskQueue,
        deps,
        workflowBundlePath: shared.bundlePath,
      });
      const running = group
        .run()
        .catch((err: unknown) => log(`worker stopped with an error: ${String(err)}`));
      worker = { group, running, deps, close: () => nc.close() };
    };
    const stopWorker = async (): Promise<void> => {
      const w = worker;
      if (!w) return;
      worker = undefined;
      w.group.shutdown();
      await w.running;
      await w.close();
      await w.deps.close();
    };
    closers.push(stopWorker);

    let server: RunningServer | undefined;
    let port = 0;
    const startReceiver = async (): Promise<void> => {
      if (server) return;
      server = await startServer({
        accounts: config.accounts,
        databaseUrl: database.url,
        port,
        host: '127.0.0.1',
        logger: logger.child({ process: 'server' }),
        temporal: { client, taskQueue: config.temporal.taskQueue },
        relay: config.server.relay,
        requestTimeoutMs: config.server.requestTimeout,
        trustProxy: config.server.trustProxy,
      });
      port = server.port;
    };
    const stopReceiver = async (): Promise<void> => {
      const s = server;
      server = undefined;
      await s?.close();
    };
    closers.push(stopReceiver);

    // The first worker migrates the warehouse; the receiver starts after it.
    await startWorker();
    await startReceiver();
    const crmContacts = seedCrmContacts(emulator, hubspot, settings.seed);
    await applySchedules(client, config);
    const control = emulatorControl(() => emulator.origin);
    await control('POST', '/webhooks', {
      name: 'callsync',
      categories: ['call_state_change', 'sms_received'],
      url: `http://127.0.0.1:${port}/webhooks/${ACCOUNT}/${webhookSecret}`,
    });
    return {
      settings,
      dir,
      emulator,
      control,
      hubspot,
      temporal,
      client,
      config,
      warehouse,
      archiveDir,
      webhookSecret,
      crmContacts,
      logFile,
      startWorker,
      stopWorker,
      startReceiver,
      stopReceiver,
      receiverRunning: () => server !== undefined,
      close,
    };
  } catch (err) {
    await close();
    throw err;
  }
}

/** Numbers of the platform's contacts (E.164, each once), in the order the platform lists them. */
export function platformNumbers(emulator: RunningEmulator): string[] {
  const customer = emulator.admin.customer_id;
  const contacts = emulator.store.tables.contacts;
  const rows = contacts.query(customer, { page: 1, limit: contacts.count(customer) + 1, filter: [] }).data;
  const numbers = new Set<string>();
  for (const r of rows) {
    for (const field of ['tel', 'mobile']) {
      const v = r[field];
      if (typeof v === 'string' && /^\+\d{9,15}$/.test(v)) numbers.add(v);
    }
  }
  return [...numbers];
}

/**
 * The CRM knows most of the platform's contacts (one HubSpot contact per number); about one in
 * seven it does not, so some known callers are unknown to the CRM. Returns number → contact id.
 */
function seedCrmContacts(emulator: RunningEmulator, hubspot: FakeHubSpot, seed: number): Map<string, string> {
  const known = new Map<string, string>();
  platformNumbers(emulator).forEach((phone, i) => {
    if ((i + seed) % 7 === 0) return;
    known.set(phone, hubspot.seedContact({ phone, firstname: 'Caller', lastname: `S${seed}-${i}` }));
  });
  return known;
}
