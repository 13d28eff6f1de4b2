// Everything a sync test needs, all real: the emulator, a Temporal dev server, a fresh PostgreSQL
// database, and a callsync worker running the real workflows and activities in this process.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, Connection } from '@temporalio/client';
import type { WorkerGroup } from '../../runtime/worker';
import { parseTestConfig } from '../support/test-config';
import type { CallsyncConfig } from '../../config/schema';
import { DEFAULT_NOW, startEmulator } from '../../emulator';
import { silentLogger } from '../../lib/logger';
import { startTemporalDevServer, type RunningTemporal } from '../../local/temporal-dev-server';
import { createActivityDeps, type RuntimeDeps } from '../../runtime/activity-deps';
import { temporalDataConverter } from '../../runtime/temporal-encryption';
import { createWorker } from '../../runtime/worker';
import { quietTemporalRuntime } from '../support/temporal-runtime';
import { createTestDatabase, type TestDatabase } from './warehouse-db';

export interface SyncHarness {
  emulator: Awaited<ReturnType<typeof startEmulator>>;
  temporal: RunningTemporal;
  client: Client;
  config: CallsyncConfig;
  deps: RuntimeDeps;
  database: TestDatabase;
  taskQueue: string;
  /** A JSON config file with the same settings (and the database URL), for worker processes. */
  configFile: string;
  /** Starts a worker (again, after a stop). */
  startWorker(): Promise<void>;
  stopWorker(): Promise<void>;
  close(): Promise<void>;
}

export interface SyncHarnessOptions {
  label: string;
  cdrs: number;
  seed?: number;
  /** Log in with e-mail and password (tokens can expire) instead of the API key. */
  passwordLogin?: boolean;
  /** Run a worker in this process (default true). */
  inProcessWorker?: boolean;
  /** Extra top-level config sections (e.g. callbacks). */
  config?: Record<string, unknown>;
  /** Extra settings of the temporal block (e.g. encryption). */
  temporal?: Record<string, unknown>;
  /** Extra settings of the account's platform block (e.g. requestsPerSecond). */
  platform?: Record<string, unknown>;
  /**
   * Several accounts (name, crm, overrides, …) instead of the one `acme`, all on this emulator's
   * platform account: their callers' numbers are the same, their CRMs their own.
   */
  accounts?:
    Record<string, unknown>[] | ((admin: { user_id: number; email: string }) => Record<string, unknown>[]);
}

/** A fresh payload key and workflow-id key, inline (the config file written for worker processes is 0600). */
export function harnessEncryption(): {
  keys: { id: string; key: string }[];
  activeKeyId: string;
  idKey: string;
} {
  return {
    keys: [{ id: 'harness', key: randomBytes(32).toString('base64') }],
    activeKeyId: 'harness',
    idKey: randomBytes(32).toString('base64'),
  };
}

export async function startSyncHarness(opts: SyncHarnessOptions): Promise<SyncHarness> {
  quietTemporalRuntime();
  const emulator = await startEmulator({ port: 0, seed: opts.seed ?? 5, cdrs: opts.cdrs, now: DEFAULT_NOW });
  const temporal = await startTemporalDevServer();
  const database = await createTestDatabase(opts.label);
  const taskQueue = `sync-${opts.label}`;
  const credentials = opts.passwordLogin
    ? { type: 'password' as const, email: emulator.admin.email, password: emulator.admin.password }
    : { type: 'apiKey' as const, userId: emulator.admin.user_id, apiKey: emulator.admin.api_key };
  const scratch = mkdtempSync(join(tmpdir(), 'callsync-sync-'));
  const reports = (opts.config?.reports ?? {}) as { delivery?: Record<string, unknown> };
  const platform = {
    baseUrl: emulator.baseUrl,
    credentials,
    requestsPerSecond: 500,
    maxRetries: 1,
    ...opts.platform,
  };
  const input = {
    // Its processes (`callsync --config <configFile> …`) read the emulator's key inline, as npm start does.
    allowInlineSecrets: true,
    accounts: (typeof opts.accounts === 'function'
      ? opts.accounts(emulator.admin)
      : (opts.accounts ?? [{ name: 'acme' }])
    ).map((a) => ({ ...a, platform })),
    database: { url: database.url },
    // Encrypted like production (encryption is required): fresh keys per harness, unless the test
    // gives its own (or "off").
    temporal: { address: temporal.address, taskQueue, encryption: harnessEncryption(), ...opts.temporal },
    sync: { pageSize: 2000, backfillWindow: '30d', backfillParallelism: 2 },
    // The audio of the emulator's last ten days (its clock stands at DEFAULT_NOW): archiving all
    // 183 days is thousands of full-length recordings, minutes of disk writes no test needs.
    archive: { dir: join(scratch, 'audio'), maxAge: Date.now() - DEFAULT_NOW.getTime() + 10 * 86_400_000 },
    logLevel: (process.env.HARNESS_LOG ?? 'silent') as 'silent',
    ...opts.config,
    // Report e-mails go to this run's scratch outbox, not the project's .data/outbox.
    reports: { ...reports, delivery: { email: { outboxDir: join(scratch, 'outbox') }, ...reports.delivery } },
  };
  const config = parseTestConfig(input);
  const configFile = join(scratch, 'callsync.json');
  writeFileSync(configFile, JSON.stringify(input), { mode: 0o600 });
  const deps = await createActivityDeps(config, database.url, silentLogger);
  const connection = await Connection.connect({ address: temporal.address });
  const client = new Client({ connection, dataConverter: temporalDataConverter(config.temporal) });

  let current: { worker: WorkerGroup; running: Promise<void>; close(): Promise<void> } | undefined;
  const harness: SyncHarness = {
    emulator,
    temporal,
    client,
    config,
    deps,
    database,
    taskQueue,
    configFile,
    async startWorker() {
      // A second worker would replace the first here and never be shut down: it would poll the
      // stopped Temporal server for the rest of the test run, as fast as its retries allow.
      if (current) throw new Error('a worker is already running: stopWorker() first');
      const bundle = process.env.CALLSYNC_TEST_WORKFLOW_BUNDLE;
      const { worker, connection: nc } = await createWorker({
        address: temporal.address,
        namespace: 'default',
        taskQueue,
        deps,
        // The workflows bundled once per test run (test/support/global-setup.ts).
        ...(bundle ? { workflowBundlePath: bundle } : {}),
      });
      current = { worker, running: worker.run(), close: () => nc.close() };
    },
    async stopWorker() {
      if (!current) return;
      current.worker.shutdown();
      await current.running;
      await current.close();
      current = undefined;
    },
    async close() {
      await harness.stopWorker();
      await connection.close();
      await deps.close();
      await database.drop();
      await temporal.stop();
      await emulator.close();
    },
  };
  if (opts.inProcessWorker !== false) await harness.startWorker();
  return harness;
}
