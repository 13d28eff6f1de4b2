// Creates the Temporal worker that runs every callsync workflow and activity.
import { existsSync, writeFileSync } from 'node:fs';
import { setFlagsFromString } from 'node:v8';
import { bundleWorkflowCode, DefaultLogger, type NativeConnection, Worker } from '@temporalio/worker';
import type { TemporalConfig } from '../config/temporal';
import { createActivities } from '../activities';
import type { ActivityDeps } from '../activities';
import { crmTaskQueue } from '../contracts/task-queues';
import { connectTemporalWorker } from './temporal-connection';
import { FAILURE_CONVERTER_PATH, temporalDataConverter } from './temporal-encryption';
import { CRM_ACTIVITY_SLOTS } from './vendor-limits';

export interface WorkerOptions {
  address: string;
  namespace: string;
  taskQueue: string;
  deps: ActivityDeps;
  /** TLS and API key of the Temporal connection (config.temporal). */
  security?: Pick<TemporalConfig, 'tls' | 'apiKey'>;
  /** Concurrent activities (pages in flight) on this worker. */
  maxConcurrentActivities?: number;
  /** Path of a workflow bundle built ahead (bundleWorkflowCode); spares the worker the bundling at start. */
  workflowBundlePath?: string;
  /** Workflow code bundled ahead in this process (a worker recreated in place bundles once). */
  workflowCode?: string;
  /** Run only the vendor queues' activities (no workflows): a worker added for CRM throughput. */
  vendorQueuesOnly?: boolean;
}

/**
 * The Temporal workers of one callsync worker process, run and stopped together: the workflows'
 * queue (workflows and activities that call no vendor) and the CRM's queue, whose requests every
 * worker paces through rate slots shared in PostgreSQL (runtime/vendor-limits.ts).
 */
export class WorkerGroup {
  constructor(readonly workers: Worker[]) {}

  /** Runs every worker until all have stopped (or one fails). */
  async run(): Promise<void> {
    await Promise.all(this.workers.map((w) => w.run()));
  }

  /** Starts a graceful shutdown of every worker still running. */
  shutdown(): void {
    for (const w of this.workers) if (w.getState() === 'RUNNING') w.shutdown();
  }

  /** The state of the first worker (they start and stop together). */
  getState(): ReturnType<Worker['getState']> {
    return this.workers[0]!.getState();
  }
}

/**
 * Heap growth of a worker process. A backfill allocates ~40 MB per 5000-record page that dies with
 * the page, while the live heap stays near 100 MB; V8's default growing factor (up to 4x the live
 * heap) then lets the heap grow to 300 MB and more between full GCs, and the process RSS past
 * 500 MB. A fixed factor of 1.5 (`--heap-growing-percent=50`) keeps the heap near 150 MB for under
 * 1 us of GC per record (bench/backfill.ts at 1M records: 43 full GCs, 0.8 s in all; peak RSS
 * 325 MB; a factor of 2 still peaked at 445 MB). It only schedules full GCs sooner: unlike
 * `--max-old-space-size` it can never make the process run out of heap on large pages.
 * Left alone when the process was started with a heap flag of its own (node args or NODE_OPTIONS).
 * Also see bin/callsync (MALLOC_ARENA_MAX, tsx's CommonJS hook) and docs/deployment.md "Worker memory".
 */
export const WORKER_HEAP_FLAGS = ['--heap-growing-percent=50'];

/**
 * Flags for starting a worker process (bin/callsync, the Docker image, bench:backfill): the heap
 * growing factor above, and young-generation semi-spaces of at most 8 MB. Node 24's V8 sizes the
 * young generation from the machine's memory, and each isolate (the main thread and the workflow
 * thread) has its own: a backfill worker peaked at 520 MB of RSS instead of Node 20's 340. V8 sizes
 * the young generation when an isolate is created, so this one only works on the command line.
 */
export const WORKER_NODE_FLAGS = [...WORKER_HEAP_FLAGS, '--max-semi-space-size=8'];

export function tuneWorkerHeap(): void {
  const given = [...process.execArgv, ...(process.env.NODE_OPTIONS ?? '').split(/\s+/)];
  if (given.some((a) => /^--(heap-growing-percent|max-old-space-size|max-semi-space-size)/.test(a))) return;
  for (const flag of WORKER_HEAP_FLAGS) setFlagsFromString(flag);
}

/** The product's workflows bundled once (as Worker.create would), for workers created again and again. */
export async function bundleWorkflows(): Promise<string> {
  const bundle = await bundleWorkflowCode({
    workflowsPath: require.resolve('../workflows'),
    failureConverterPath: FAILURE_CONVERTER_PATH,
    logger: new DefaultLogger('WARN'),
  });
  return bundle.code;
}

/**
 * Names a workflow bundle built ahead of time: `npm run build` writes `dist/workflow-bundle.js` from
 * the same sources as `dist/`, and the image points this at it, so a worker starts without bundling
 * (seconds of CPU per start, on every restart of every worker).
 */
export const WORKFLOW_BUNDLE_ENV = 'CALLSYNC_WORKFLOW_BUNDLE';

/** The bundle `WORKFLOW_BUNDLE_ENV` names (undefined when unset); throws when it names no file. */
export function prebuiltWorkflowBundle(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const path = env[WORKFLOW_BUNDLE_ENV];
  if (path === undefined || path === '') return undefined;
  if (!existsSync(path))
    throw new Error(
      `${WORKFLOW_BUNDLE_ENV}: no workflow bundle at ${path} (npm run build writes dist/workflow-bundle.js)`,
    );
  return path;
}

/** Bundles the workflows into the file `out` (`npm run build`'s last step). */
export async function writeWorkflowBundle(out: string): Promise<void> {
  writeFileSync(out, await bundleWorkflows());
}

/** The workers of a process connected to Temporal; `run()` them, and `shutdown()` to drain and stop. */
export async function createWorker(
  opts: WorkerOptions,
): Promise<{ worker: WorkerGroup; connection: NativeConnection }> {
  const connection = await connectTemporalWorker({
    address: opts.address,
    namespace: opts.namespace,
    ...opts.security,
  });
  const activities = createActivities(opts.deps);
  const common = {
    connection,
    namespace: opts.namespace,
    activities,
    // Payloads encrypted with temporal.encryption (the codec runs outside the workflow sandbox).
    dataConverter: temporalDataConverter(opts.deps.config.temporal),
    // On shutdown, in-flight activities are cancelled at once (their pages are committed or not, and
    // a retry resumes from the checkpoint); a worker that still has not stopped 15 s later gives up.
    shutdownGraceTime: '2 seconds',
    shutdownForceTime: '15 seconds',
  } as const;
  const workers: Worker[] = [];
  try {
    if (!opts.vendorQueuesOnly) {
      workers.push(
        await Worker.create({
          ...common,
          taskQueue: opts.taskQueue,
          ...(opts.workflowCode !== undefined
            ? { workflowBundle: { code: opts.workflowCode } }
            : opts.workflowBundlePath
              ? { workflowBundle: { codePath: opts.workflowBundlePath } }
              : { workflowsPath: require.resolve('../workflows') }),
          maxConcurrentActivityTaskExecutions: opts.maxConcurrentActivities ?? 8,
        }),
      );
    }
    workers.push(
      await Worker.create({
        ...common,
        taskQueue: crmTaskQueue(opts.taskQueue),
        maxConcurrentActivityTaskExecutions: Math.max(opts.maxConcurrentActivities ?? 8, CRM_ACTIVITY_SLOTS),
      }),
    );
  } catch (err) {
    await connection.close();
    throw err;
  }
  return { worker: new WorkerGroup(workers), connection };
}
