// A callsync worker in its own process, for benchmarks: the real deps and worker, built from a
// config passed as JSON in CALLSYNC_BENCH_WORKER (so the bench can measure this process alone).
// Prints `{"worker":"ready"}` on stdout once polling; drains and exits on SIGTERM.
import { DefaultLogger, Runtime } from '@temporalio/worker';
import { z } from 'zod';
import { parseConfig } from '../config/load';
import { createLogger } from '../lib/logger';
import { createActivityDeps } from '../runtime/activity-deps';
import { createWorker } from '../runtime/worker';

const inputSchema = z.object({
  config: z.unknown(),
  databaseUrl: z.string().min(1),
  maxConcurrentActivities: z.number().int().positive().optional(),
  workflowBundlePath: z.string().optional(),
});

async function main(): Promise<void> {
  const input = inputSchema.parse(JSON.parse(process.env.CALLSYNC_BENCH_WORKER ?? 'null'));
  const config = parseConfig(input.config, 'CALLSYNC_BENCH_WORKER');
  Runtime.install({ logger: new DefaultLogger('WARN') });
  const logger = createLogger({ name: 'bench-worker', level: config.logLevel });
  const deps = await createActivityDeps(config, input.databaseUrl, logger);
  const { worker, connection } = await createWorker({
    address: config.temporal.address ?? '127.0.0.1:7233',
    namespace: config.temporal.namespace,
    taskQueue: config.temporal.taskQueue,
    deps,
    ...(input.maxConcurrentActivities ? { maxConcurrentActivities: input.maxConcurrentActivities } : {}),
    ...(input.workflowBundlePath ? { workflowBundlePath: input.workflowBundlePath } : {}),
  });
  process.once('SIGTERM', () => worker.shutdown());
  const running = worker.run();
  process.stdout.write(`${JSON.stringify({ worker: 'ready', pid: process.pid })}\n`);
  await running;
  await connection.close();
  await deps.close();
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    process.stderr.write(
      `bench worker failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`,
    );
    process.exit(1);
  },
);
