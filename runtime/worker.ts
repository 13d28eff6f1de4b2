// Creates the Temporal worker that runs every callsync workflow and activity.
import { NativeConnection, Worker } from '@temporalio/worker';
import { createActivities } from '../activities';
import type { ActivityDeps } from '../activities';

export interface WorkerOptions {
  address: string;
  namespace: string;
  taskQueue: string;
  deps: ActivityDeps;
  /** Concurrent activities (pages in flight) on this worker. */
  maxConcurrentActivities?: number;
  /** Path of a workflow bundle built ahead (bundleWorkflowCode); spares the worker the bundling at start. */
  workflowBundlePath?: string;
}

/** A worker connected to Temporal; `run()` it, and `shutdown()` to drain and stop. */
export async function createWorker(
  opts: WorkerOptions,
): Promise<{ worker: Worker; connection: NativeConnection }> {
  const connection = await NativeConnection.connect({ address: opts.address });
  const worker = await Worker.create({
    connection,
    namespace: opts.namespace,
    taskQueue: opts.taskQueue,
    ...(opts.workflowBundlePath
      ? { workflowBundle: { codePath: opts.workflowBundlePath } }
      : { workflowsPath: require.resolve('../workflows') }),
    activities: createActivities(opts.deps),
    maxConcurrentActivityTaskExecutions: opts.maxConcurrentActivities ?? 8,
  });
  return { worker, connection };
}
