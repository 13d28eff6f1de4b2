// The local stack behind `npm start`: whatever the configuration does not name is started here —
// the platform emulator (with new calls arriving over time), embedded PostgreSQL, the Temporal dev
// server with its UI — then the worker and the sync schedules. stop() takes it all down in order.
import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Client } from '@temporalio/client';
import { mirrorReportSchedules } from '../activities/report-schedule-mirror';
import { screenPopLinks } from '../config/account-settings';
import { accountFromEnv, loadConfig } from '../config/load';
import type { CallsyncConfig, CallsyncConfigInput } from '../config/schema';
import { startEmulator, type RunningEmulator } from '../emulator';
import { describeError } from '../lib/describe-error';
import { startOnFreePort } from '../lib/free-port';
import type { Logger } from '../lib/logger';
import { Shutdown, type ShutdownReport } from '../lib/shutdown';
import { applyContactSyncSchedules } from '../runtime/contact-sync-schedule';
import { applyRetentionSchedule } from '../runtime/retention-schedule';
import { applyTranscriptionSchedules } from '../runtime/transcription-schedule';
import { applyConversationsSchedules } from '../runtime/conversations-schedule';
import { applyCrmOutcomesSchedules } from '../runtime/outcomes-schedule';
import { applySchedules, type ApplySchedulesResult } from '../runtime/schedules';
import { connectTemporalClient } from '../runtime/temporal-connection';
import { temporalDataConverter } from '../runtime/temporal-encryption';
import { erasureHashKey } from '../lib/encryption-keys';
import { serverObservability } from '../runtime/server-observability';
import { dashboardSettings } from '../runtime/dashboard-settings';
import { callLogPages } from '../runtime/crm';
import { startReloadingWorker, type WorkerGeneration } from '../runtime/reloading-worker';
import { watchStoredAccounts } from '../runtime/account-watch';
import { withStoredAccounts } from '../runtime/stored-accounts';
import { storedAccountsFingerprint } from '../connectors/postgres';
import { startServer, type RunningServer } from '../server';
import { startEmbeddedPostgres, stopLeftoverPostgres } from './embedded-postgres';
import { localDefaults, readJson, withLocalSecrets } from './local-config';
import {
  EMULATOR_ACCOUNT,
  emulatorAccounts,
  registerEmulatorWebhook,
  startEmulatorTraffic,
} from './local-emulator';
import { stackBanner } from './stack-banner';
import { claimDataDir, removeStackFile, writeStackFile } from './stack-file';
import { readStackState, saveStackState } from './stack-state';
import { startTemporalDevServer } from './temporal-dev-server';

type Env = Record<string, string | undefined>;

/** The worker gives up on in-flight activities after its shutdownForceTime (15 s); this bounds the rest. */
const WORKER_STOP_TIMEOUT_MS = 25_000;

export interface LocalStackOptions {
  /** Local state: postgres/, temporal.db, archive/, local-stack.json. */
  dataDir: string;
  /** Config file (else CALLSYNC_CONFIG). */
  configFile?: string | undefined;
  env?: Env;
  /** Creates the logger once the configured level is known. */
  createLogger: (level: string) => Logger;
  /** Preferred emulator port (a free one when taken). */
  emulatorPort?: number;
  /** Preferred Temporal gRPC port (a free one when taken). */
  temporalPort?: number;
  /** How often the emulator's clock moves and new calls arrive. */
  tickMs?: number;
  /** CDRs seeded in the emulator. */
  emulatorCdrs?: number;
  /** Preferred port of callsync's HTTP server (else server.port from the config; a free one when taken). */
  serverPort?: number;
}

export interface LocalStack {
  config: CallsyncConfig;
  logger: Logger;
  emulator: RunningEmulator | undefined;
  databaseUrl: string;
  temporalAddress: string;
  temporalUiUrl: string | undefined;
  schedules: ApplySchedulesResult;
  /** callsync's HTTP server (webhook receiver + relay into Temporal). */
  server: RunningServer;
  /** The lines printed on start. */
  banner(): string;
  /**
   * Stops everything this stack started, newest first, each step bounded in time (Temporal's
   * schedules stay: they live in Temporal). The report names what did not stop cleanly.
   */
  stop(): Promise<ShutdownReport>;
}

/** Starts the local stack; on failure, stops what was already started and rethrows. */
export async function startLocalStack(opts: LocalStackOptions): Promise<LocalStack> {
  const env = opts.env ?? process.env;
  const configFile = opts.configFile ?? env.CALLSYNC_CONFIG;
  const stops = new Shutdown();
  const stopAll = (logger?: Logger): Promise<ShutdownReport> => stops.run(logger);
  let logger: Logger | undefined;
  // Port switches and leftovers found before the logger exists are told once it does.
  const early: string[] = [];
  const notice = (message: string): void => {
    if (logger) logger.warn(message);
    else early.push(message);
  };
  const taken = (what: string) => (wanted: number, chosen: number) =>
    notice(`port ${wanted} (${what}) is taken; using ${chosen}`);
  try {
    mkdirSync(opts.dataDir, { recursive: true });
    const release = claimDataDir(opts.dataDir);
    stops.add('the data directory claim', release);
    const state = readStackState(opts.dataDir);
    const hasAccount = (readJson(configFile).accounts?.length ?? 0) > 0 || accountFromEnv(env) !== undefined;

    let emulator: RunningEmulator | undefined;
    // The local account's webhook secret: new on every start, as the emulator's webhook is registered anew.
    const webhookSecret = randomBytes(24).toString('base64url');
    const defaults = localDefaults(opts.dataDir);
    if (!hasAccount) {
      emulator = await startOnFreePort(
        opts.emulatorPort ?? 8787,
        (port) => startEmulator({ port, seed: 1, cdrs: opts.emulatorCdrs ?? 50_000 }),
        taken('emulator'),
      );
      const running = emulator;
      stops.add('the platform emulator', () => running.close());
      defaults.accounts = emulatorAccounts(emulator, webhookSecret);
    }
    let config = loadConfig({ file: configFile, env, defaults });
    const local = withLocalSecrets(config, opts.dataDir);
    config = local.config;
    const generatedEncryption = local.generatedEncryption;
    const { dashboard } = dashboardSettings(config);
    logger = opts.createLogger(config.logLevel);
    const log = logger;
    for (const message of early.splice(0)) log.warn(message);
    if (emulator) log.info({ baseUrl: emulator.baseUrl }, 'emulator started');

    let databaseUrl = config.database.url;
    if (!databaseUrl) {
      const dir = resolve(config.database.embeddedDir);
      // A killed run's server still holds the directory and, likely, the port we want back.
      const leftover = await stopLeftoverPostgres(dir);
      if (leftover) notice(`stopped PostgreSQL (pid ${leftover}) an earlier run left running on ${dir}`);
      // The same port as last time, so a saved connection string keeps working.
      const pg = await startOnFreePort(
        state.ports.postgres,
        (port) =>
          startEmbeddedPostgres({
            dataDir: dir,
            port,
            persistent: true,
            callerStopsOnSignals: true,
            onLog: (line) => log.debug({ postgres: line.trim() }),
          }),
        taken('PostgreSQL'),
      );
      stops.add('embedded PostgreSQL', () => pg.stop(), { timeoutMs: 30_000, external: true });
      databaseUrl = pg.url;
      state.ports.postgres = pg.port;
      log.info({ dir, port: pg.port }, 'embedded PostgreSQL started');
    }

    let temporalAddress = config.temporal.address;
    let temporalUiUrl: string | undefined;
    if (!temporalAddress) {
      const temporal = await startTemporalDevServer({
        port: opts.temporalPort ?? state.ports.temporal ?? 7233,
        uiPort: config.temporal.uiPort,
        dbFile: join(opts.dataDir, 'temporal.db'),
        pidFile: join(opts.dataDir, 'temporal.pid'),
        ownProcessGroup: true,
        ownerToken: state.ownerToken,
        namespace: config.temporal.namespace,
        onLog: (line) => log.debug({ temporal: line.trim() }),
        onNotice: notice,
      });
      // stopChild kills it 10 s after SIGTERM.
      stops.add('the Temporal dev server', () => temporal.stop(), { timeoutMs: 15_000, external: true });
      temporalAddress = temporal.address;
      state.ports.temporal = temporal.port;
      temporalUiUrl = temporal.uiUrl;
      log.info({ address: temporalAddress }, 'Temporal dev server started');
    }
    config = Object.freeze({ ...config, temporal: { ...config.temporal, address: temporalAddress } });

    // The workers run the config file's accounts and those stored with `callsync accounts add`, and
    // are rebuilt in place when the stored ones change (runtime/reloading-worker.ts).
    const fileConfig = config;
    let generation: WorkerGeneration | undefined;
    const workers = await startReloadingWorker({
      fileConfig,
      databaseUrl,
      address: temporalAddress,
      logger: log,
      onGeneration: (g) => (generation = g),
    });
    stops.add(
      'the worker',
      async () => {
        workers.shutdown();
        await workers.done;
      },
      { timeoutMs: WORKER_STOP_TIMEOUT_MS },
    );
    config = generation!.config;
    const deps = generation!.deps;

    const connection = await connectTemporalClient({ ...config.temporal, address: temporalAddress });
    stops.add('the Temporal client', () => connection.close());
    const client = new Client({
      connection,
      namespace: config.temporal.namespace,
      dataConverter: temporalDataConverter(config.temporal),
    });
    const schedules = await applySchedules(client, config, { triggerImmediately: true });
    await applyRetentionSchedule(client, config);
    await applyTranscriptionSchedules(client, config);
    await applyContactSyncSchedules(client, config);
    await applyConversationsSchedules(client, config);
    await applyCrmOutcomesSchedules(client, config);
    log.info(
      {
        created: schedules.created.length,
        updated: schedules.updated.length,
        deleted: schedules.deleted.length,
      },
      'schedules applied',
    );
    // Report schedules already in the warehouse become Temporal Schedules now; new ones follow the
    // report_schedules sync that the schedules above just started.
    const reportSchedules = { mirrored: 0, quarantined: 0 };
    for (const account of config.accounts) {
      try {
        const r = await mirrorReportSchedules(client, deps.warehouse.db, config, account.name);
        reportSchedules.mirrored += r.created.length + r.updated.length + r.unchanged.length;
        reportSchedules.quarantined += r.quarantined.length;
      } catch (err) {
        log.warn(
          { account: account.name, err: describeError(err) },
          'report schedules not mirrored at start',
        );
      }
    }

    const observability = serverObservability(config);
    if (observability.codecOff) log.info(`codec endpoint off: ${observability.codecOff}`);
    const server = await startOnFreePort(
      opts.serverPort ?? config.server.port,
      (port) =>
        startServer({
          accounts: config.accounts,
          databaseUrl,
          port,
          host: config.server.host,
          logger: log,
          temporal: { client, taskQueue: config.temporal.taskQueue },
          relay: config.server.relay,
          requestTimeoutMs: config.server.requestTimeout,
          trustProxy: config.server.trustProxy,
          codec: observability.codec,
          metrics: observability.metrics,
          metricsEndpoint: observability.metricsEndpoint,
          erasure: { key: erasureHashKey(config), defaultCountry: config.crm.defaultCountry },
          archiveMaxAgeMs: config.archive.maxAge,
          screenPops: (account) => screenPopLinks(config, account),
          dashboard: dashboard && { ...dashboard, callLogPage: callLogPages(deps.crm) },
        }),
      taken('webhook receiver'),
    );
    stops.add('the webhook receiver', () => server.close());
    // Webhooks of accounts stored (or removed) while this runs are routed without a restart.
    const watch = watchStoredAccounts(server.warehouse.db, {
      initial: await storedAccountsFingerprint(server.warehouse.db),
      onError: (err) => log.warn({ err: describeError(err) }, 'stored accounts not read; trying again'),
      onChange: async () =>
        server.setAccounts((await withStoredAccounts(fileConfig, server.warehouse.db)).accounts),
    });
    stops.add('the stored accounts watch', async () => watch.stop());
    log.info({ url: server.url }, 'webhook receiver and relay started');
    if (emulator)
      await registerEmulatorWebhook(emulator, server.webhookUrl(EMULATOR_ACCOUNT, webhookSecret), log);

    if (emulator) await startEmulatorTraffic(emulator, stops, log, opts.tickMs ?? 10_000);

    saveStackState(opts.dataDir, state);
    // Lets `callsync status` and friends in another shell find this stack.
    const described: Partial<CallsyncConfigInput> = {
      // The emulator's key, webhook secret and the embedded server's URL are inline, as they were here.
      allowInlineSecrets: true,
      ...(emulator ? { accounts: defaults.accounts } : {}),
      ...(config.database.url ? {} : { database: { url: databaseUrl } }),
      archive: {
        dir: config.archive.dir,
        ...(config.archive.maxAge !== undefined ? { maxAge: config.archive.maxAge } : {}),
      },
      temporal: {
        address: temporalAddress,
        namespace: config.temporal.namespace,
        taskQueue: config.temporal.taskQueue,
        // Key file paths only (never keys), so commands in another shell read the same histories.
        ...(generatedEncryption ? { encryption: generatedEncryption } : {}),
      },
    };
    writeStackFile(opts.dataDir, described);
    stops.add('the stack file', () => removeStackFile(opts.dataDir));

    const stack: LocalStack = {
      config,
      logger: log,
      emulator,
      databaseUrl,
      temporalAddress,
      temporalUiUrl,
      schedules,
      server,
      banner: () =>
        stackBanner({
          config,
          emulator,
          databaseUrl,
          temporalAddress,
          temporalUiUrl,
          server,
          dashboard,
          observability,
          schedules,
          reportSchedules,
        }),
      stop: () => stopAll(log),
    };
    return stack;
  } catch (err) {
    await stopAll(logger);
    throw err;
  }
}
