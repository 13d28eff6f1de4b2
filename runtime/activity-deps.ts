// Builds the activities' dependencies from the configuration: one platform client per account, the
// CRM destination (prepared: its properties and field access checked once, at start),
// the warehouse (migrated), and the audio archive.
import { resolve } from 'node:path';
import { Client } from '@temporalio/client';
import type { ActivityDeps } from '../activities';
import type { CallsyncConfig } from '../config/schema';
import { createBigQueryWarehouses } from '../connectors/bigquery';
import { createGcsObjectStore, createLocalObjectStore } from '../connectors/object-store';
import { createS3ObjectStore } from '../connectors/object-store/s3';
import { createPlatformClient, type PlatformClient, type RequestEvent } from '../connectors/platform';
import {
  createDatabase,
  explainPostgresTlsError,
  migrateToLatest,
  postgresSsl,
} from '../connectors/postgres';
import { claimCrmDestinations, createCrmConnectors, prepareCrmDestinations } from './crm';
import { sharedPlatformLimiter } from './vendor-limits';
import { lazyTemporalClient } from './temporal-connection';
import { temporalDataConverter } from './temporal-encryption';
import { metrics, recordApiRequest } from '../lib/metrics';
import type { Logger } from '../lib/logger';
import { createGoogleDriveObjectStore } from '../connectors/object-store/google-drive';
import type { ObjectStore } from '../connectors/object-store';

export interface RuntimeDeps extends ActivityDeps {
  close(): Promise<void>;
}

/** Connects everything activities need; `databaseUrl` is the resolved warehouse URL. */
export async function createActivityDeps(
  config: CallsyncConfig,
  databaseUrl: string,
  logger: Logger,
  hooks: {
    onPlatformRequest?: (account: string, e: RequestEvent) => void;
    /** Temporal frontend for activities that start or signal workflows (default: config.temporal.address). */
    temporalAddress?: string;
  } = {},
): Promise<RuntimeDeps> {
  const ssl = postgresSsl(config.database.sslmode, config.database.sslCa);
  const warehouse = createDatabase(databaseUrl, {
    ...(ssl !== undefined ? { ssl } : {}),
    onIdleError: (err) => logger.warn({ err }, 'PostgreSQL connection failed outside a query'),
  });
  const clients = new Map<string, PlatformClient>();
  for (const account of config.accounts) {
    // Counters of failures start at 0, so the first one is an increase Prometheus sees (alerts).
    metrics().callFailures.inc({ account: account.name }, 0);
    if (account.platform.credentials.type === 'password')
      metrics().tokenRefreshFailures.inc({ vendor: 'platform' }, 0);
    clients.set(
      account.name,
      createPlatformClient({
        ...account.platform,
        logger,
        // The account's requestsPerSecond holds for every worker together, not per process.
        limiter: sharedPlatformLimiter(warehouse.db, account.name, {
          requestsPerSecond: account.platform.requestsPerSecond,
          burst: account.platform.burst,
        }),
        onRequest: (e) => {
          recordApiRequest('platform', e.status);
          hooks.onPlatformRequest?.(account.name, e);
        },
        onLoginFailed: () => metrics().tokenRefreshFailures.inc({ vendor: 'platform' }),
      }),
    );
  }
  const address = hooks.temporalAddress ?? config.temporal.address;
  // Lazy: nothing connects until an activity first starts or signals a workflow.
  const temporalConnection = address ? lazyTemporalClient({ ...config.temporal, address }) : undefined;
  // The first query: a refused TLS connection is explained here, naming the setting.
  await migrateToLatest(warehouse.db).catch((err: unknown) => {
    throw explainPostgresTlsError(err);
  });
  const crm = createCrmConnectors(config, warehouse.db);
  let bigquery: Awaited<ReturnType<typeof createBigQueryWarehouses>> | undefined;
  let gcs: ObjectStore | undefined;
  let driveArchive: ObjectStore | undefined;
  try {
    for (const [account, rows] of await claimCrmDestinations(config, crm, warehouse.db))
      logger.info(
        { account, rows },
        'CRM state of the configured destination claimed (crm_destination_claims)',
      );
    await prepareCrmDestinations(config, crm, undefined, (message, delayMs) =>
      logger.warn({ retryInMs: delayMs }, message),
    );
    // BigQuery credentials are read here, once; a bad key fails the start, not every page.
    if (config.warehouse.bigquery) {
      bigquery = await createBigQueryWarehouses(
        config.warehouse.bigquery,
        config.accounts.map((a) => a.name),
      );
    }
    if (config.archive.gcs) gcs = await createGcsObjectStore(config.archive.gcs);
    // Drive credentials are read here, once, like BigQuery's.
    if (config.archive.googleDrive)
      driveArchive = await createGoogleDriveObjectStore(config.archive.googleDrive);
  } catch (err) {
    await temporalConnection?.close();
    await warehouse.close();
    await Promise.allSettled([...clients.values()].map((c) => c.close()));
    throw err;
  }
  const s3 = config.archive.s3 ? createS3ObjectStore(config.archive.s3) : undefined;
  return {
    config,
    logger,
    warehouse,
    ...(bigquery ? { bigquery } : {}),
    archive: driveArchive ?? gcs ?? s3 ?? createLocalObjectStore(resolve(config.archive.dir)),
    crm,
    ...(temporalConnection
      ? {
          temporal: new Client({
            connection: temporalConnection,
            namespace: config.temporal.namespace,
            dataConverter: temporalDataConverter(config.temporal),
          }),
        }
      : {}),
    platform(account) {
      const client = clients.get(account);
      if (!client)
        // Retryable: an account just stored (`callsync accounts add`) reaches running workers within seconds.
        throw new Error(
          `account "${account}" is not configured (yet: stored accounts reach running workers within seconds)`,
        );
      return client;
    },
    async close() {
      await Promise.allSettled([...clients.values()].map((c) => c.close()));
      await temporalConnection?.close();
      await warehouse.close();
      s3?.client.destroy();
    },
  };
}
