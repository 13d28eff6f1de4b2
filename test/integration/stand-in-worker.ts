// A worker that serves the stand-in `callLifecycle` (receiver-workflow.ts: it records its signals
// and ends at a hangup event), for tests of what signals and starts call workflows.
import { NativeConnection, Worker } from '@temporalio/worker';

/** Runs `run` while a worker serves the stand-in lifecycle on `taskQueue`. */
export async function withStandInWorker<T>(
  address: string,
  taskQueue: string,
  run: () => Promise<T>,
): Promise<T> {
  const nc = await NativeConnection.connect({ address });
  try {
    const worker = await Worker.create({
      connection: nc,
      taskQueue,
      workflowsPath: require.resolve('./receiver-workflow'),
    });
    return await worker.runUntil(run());
  } finally {
    await nc.close();
  }
}
