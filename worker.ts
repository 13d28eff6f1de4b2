// The worker entry point (`tsx worker.ts`): the same as `callsync worker`, configured by
// CALLSYNC_CONFIG and the environment.
import { runWorker } from './cli/commands/worker';

runWorker({}).catch((err: unknown) => {
  process.stderr.write(`worker: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
