// A callsync worker in its own process, for benchmarks: the real deps and worker, built from a
// config passed as JSON in CALLSYNC_BENCH_WORKER (so the bench can measure this process alone).
// Prints `{"worker":"ready"}` on stdout once polling; drains and exits on SIGTERM.
import { constants, PerformanceObserver } from 'node:perf_hooks';
import { DefaultLogger, Runtime } from '@temporalio/worker';
import { z } from 'zod';
import { parseConfig } from '../config/load';
import { createLogger } from '../lib/logger';
import { createActivityDeps } from '../runtime/activity-deps';
import { createWorker, tuneWorkerHeap } from '../runtime/worker';

const inputSchema = z.object({
  config: z.unknown(),
  databaseUrl: z.string().min(1),
  maxConcurrentActivities: z.number().int().positive().optional(),
  workflowBundlePath: z.string().optional(),
});

async function main(): Promise<void> {
  // As `callsync worker` does (runtime/worker.ts).
  tuneWorkerHeap();
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
    security: config.temporal,
    ...(input.maxConcurrentActivities ? { maxConcurrentActivities: input.maxConcurrentActivities } : {}),
    ...(input.workflowBundlePath ? { workflowBundlePath: input.workflowBundlePath } : {}),
  });
  process.once('SIGTERM', () => worker.shutdown());
  // BENCH_WORKER_MEMLOG=<ms>: memory of this process on stderr every <ms> (to see where RSS goes).
  const memlogMs = Number(process.env.BENCH_WORKER_MEMLOG ?? 0);
  if (memlogMs > 0) {
    const mb = (n: number) => Math.round(n / 2 ** 20);
    setInterval(() => {
      const m = process.memoryUsage();
      process.stderr.write(
        `[bench-worker] rss ${mb(m.rss)} heapTotal ${mb(m.heapTotal)} heapUsed ${mb(m.heapUsed)} external ${mb(m.external)} arrayBuffers ${mb(m.arrayBuffers)} MiB\n`,
      );
    }, memlogMs).unref();
    // After each full GC: the heap that survived it (the live size), and the GC's duration.
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) {
        const kind = (e as unknown as { detail?: { kind?: number } }).detail?.kind;
        if (kind !== constants.NODE_PERFORMANCE_GC_MAJOR) continue;
        const m = process.memoryUsage();
        process.stderr.write(
          `[bench-worker] major gc ${e.duration.toFixed(1)} ms; heapUsed ${mb(m.heapUsed)} heapTotal ${mb(m.heapTotal)} rss ${mb(m.rss)} MiB\n`,
        );
      }
    }).observe({ entryTypes: ['gc'] });
  }
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
