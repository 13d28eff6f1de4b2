// `callsync worker`: runs the Temporal worker (every workflow and activity) until SIGINT/SIGTERM,
// then drains in-flight tasks and exits.
import { DefaultLogger, Runtime } from '@temporalio/worker';
import type { Command } from 'commander';
import type { Logger } from '../../lib/logger';
import { payloadCodecFromConfig } from '../../lib/encryption-keys';
import { tuneWorkerHeap } from '../../runtime/worker';
import { startReloadingWorker } from '../../runtime/reloading-worker';
import { startMetricsServer } from '../../runtime/metrics-server';
import { startHealthServer, workerReadiness, type WorkerParts } from '../../runtime/worker-health';
import { tokenSetting } from '../../runtime/server-observability';
import { metrics } from '../../lib/metrics';
import {
  cliLogger,
  globalOptions,
  loadCliConfig,
  resolveDatabase,
  temporalAddress,
  type GlobalOptions,
} from '../context';

/** Routes the Temporal runtime's own logs (warnings and worse) into our logger. */
export function installTemporalRuntime(logger: Logger, sdkMetricsBindAddress?: string): void {
  Runtime.install({
    logger: new DefaultLogger('WARN', (entry) => {
      logger.warn({ temporal: entry.meta }, entry.message);
    }),
    // The SDK's own metrics (temporal_*: task slots, latencies, polls), served by its core at /metrics.
    ...(sdkMetricsBindAddress
      ? { telemetryOptions: { metrics: { prometheus: { bindAddress: sdkMetricsBindAddress } } } }
      : {}),
  });
}

/** Runs a worker until SIGINT/SIGTERM; resolves after it shut down. */
export async function runWorker(
  opts: GlobalOptions & {
    /** Only the vendor queues' activities (no workflows): more CRM throughput, same shared limit. */
    vendorQueuesOnly?: boolean;
  },
): Promise<void> {
  tuneWorkerHeap();
  const config = loadCliConfig(opts);
  // Before anything starts: no keys (and no explicit encryption "off") refuses, naming the setting.
  payloadCodecFromConfig(config.temporal);
  const logger = cliLogger(config, 'worker');
  const address = temporalAddress(config);
  installTemporalRuntime(logger, config.metrics.temporalSdkBindAddress);
  const metricsServer =
    config.metrics.workerPort !== undefined
      ? await startMetricsServer(metrics().registry, config.metrics.workerPort, config.metrics.host, {
          token: tokenSetting(config.metrics, 'metrics'),
        })
      : undefined;
  if (metricsServer) logger.info({ url: metricsServer.url }, 'worker metrics served');
  // Listening before anything connects: /healthz answers while /readyz says what is still starting.
  const parts: WorkerParts = {};
  const readyzLog = logger.child({ module: 'readyz' });
  const health = await startHealthServer(
    config.worker.healthPort,
    config.worker.healthHost,
    workerReadiness(parts, (check, err) => readyzLog.warn({ err, check }, 'not ready')),
  ).catch((err: unknown) => {
    throw new Error(
      `worker.healthPort ${config.worker.healthPort} on ${config.worker.healthHost}: ${(err as Error).message} ` +
        '(another worker on this machine? give each its own port, or 0 for a free one)',
      { cause: err },
    );
  });
  logger.info({ url: health.url, healthPort: health.port }, 'worker health served (/healthz, /readyz)');
  const database = await resolveDatabase(config, logger);
  // Stored accounts (`callsync accounts add`) are merged in, and the workers rebuilt in place when
  // they change: a company onboarded while this runs is served without a restart.
  const workers = await startReloadingWorker({
    fileConfig: config,
    databaseUrl: database.url,
    address,
    logger,
    ...(opts.vendorQueuesOnly ? { vendorQueuesOnly: true } : {}),
    onGeneration: (g) => {
      parts.pool = g.deps.warehouse.pool;
      parts.worker = g.worker;
      parts.connection = g.connection;
    },
  }).catch(async (err: unknown) => {
    await database.stop();
    await metricsServer?.close();
    await health.close();
    throw err;
  });
  const stop = (signal: string): void => {
    logger.info({ signal }, 'worker shutting down');
    workers.shutdown();
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  logger.info({ address, taskQueue: config.temporal.taskQueue }, 'worker running');
  try {
    await workers.done;
  } finally {
    await database.stop();
    await metricsServer?.close();
    await health.close();
    logger.info('worker stopped');
  }
}

/** Registers `worker` on the CLI program. */
export function registerWorkerCommand(program: Command): void {
  program
    .command('worker')
    .description('Run the Temporal worker (all sync workflows and activities) until Ctrl-C')
    .option('--vendor-queues-only', "run only the vendor queues' activities (no workflows)")
    .action(async (raw: { vendorQueuesOnly?: boolean }, cmd: Command) => {
      await runWorker({ ...globalOptions(cmd), vendorQueuesOnly: raw.vendorQueuesOnly === true });
    });
}
