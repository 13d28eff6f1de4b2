// A worker process's Temporal workers, rebuilt in place when the stored accounts change: the new
// accounts' platform clients, CRM destinations and settings need new activity dependencies, so a new
// generation (deps + workers) is built while the old one still runs, then the old one is shut down
// gracefully (in-flight activities end or are retried from their checkpoints). If the new
// generation cannot be built (a stored account's CRM refuses), the old one keeps running.
import type { NativeConnection } from '@temporalio/worker';
import type { CallsyncConfig } from '../config/schema';
import {
  createDatabase,
  migrateToLatest,
  postgresSsl,
  storedAccountsFingerprint,
} from '../connectors/postgres';
import { describeError } from '../lib/describe-error';
import type { Logger } from '../lib/logger';
import { createActivityDeps, type RuntimeDeps } from './activity-deps';
import { watchStoredAccounts } from './account-watch';
import { withStoredAccounts } from './stored-accounts';
import { bundleWorkflows, createWorker, prebuiltWorkflowBundle, type WorkerGroup } from './worker';

/** One set of activity dependencies and the workers that run on them. */
export interface WorkerGeneration {
  config: CallsyncConfig;
  deps: RuntimeDeps;
  worker: WorkerGroup;
  connection: NativeConnection;
}

export interface ReloadingWorkerOptions {
  /** The config file's configuration (stored accounts are merged in by each generation). */
  fileConfig: CallsyncConfig;
  databaseUrl: string;
  address: string;
  logger: Logger;
  /** How often the stored accounts are looked at (default runtime/account-watch.ts's). */
  pollMs?: number;
  /** A workflow bundle built ahead (default: the one CALLSYNC_WORKFLOW_BUNDLE names); else the
   *  workflows are bundled once, here. */
  workflowBundlePath?: string;
  vendorQueuesOnly?: boolean;
  /** Told of each generation once it runs (health checks follow the current one). */
  onGeneration?: (g: WorkerGeneration) => void;
}

export interface ReloadingWorker {
  /** Resolves once shut down and closed (rejects if a worker failed). */
  done: Promise<void>;
  /** Starts a graceful shutdown of the current generation, with no new one after it. */
  shutdown(): void;
  /** Generations built so far (1 at start, +1 per reload). */
  generations(): number;
}

/** Builds the first generation (its failure rejects), runs it, and rebuilds on account changes. */
export async function startReloadingWorker(opts: ReloadingWorkerOptions): Promise<ReloadingWorker> {
  const { fileConfig, logger } = opts;
  const ssl = postgresSsl(fileConfig.database.sslmode, fileConfig.database.sslCa);
  const watchDb = createDatabase(opts.databaseUrl, { ...(ssl !== undefined ? { ssl } : {}), max: 1 });
  await migrateToLatest(watchDb.db);
  const workflowBundlePath = opts.workflowBundlePath ?? prebuiltWorkflowBundle();
  const workflowCode = opts.vendorQueuesOnly || workflowBundlePath ? undefined : await bundleWorkflows();
  let built = 0;

  const build = async (): Promise<WorkerGeneration> => {
    const config = await withStoredAccounts(fileConfig, watchDb.db, (name) =>
      logger.warn({ account: name }, 'stored account ignored: the config file has an account of that name'),
    );
    const deps = await createActivityDeps(config, opts.databaseUrl, logger, {
      temporalAddress: opts.address,
    });
    try {
      const { worker, connection } = await createWorker({
        address: opts.address,
        namespace: config.temporal.namespace,
        taskQueue: config.temporal.taskQueue,
        deps,
        security: config.temporal,
        ...(workflowCode !== undefined ? { workflowCode } : {}),
        ...(workflowBundlePath ? { workflowBundlePath } : {}),
        ...(opts.vendorQueuesOnly ? { vendorQueuesOnly: true } : {}),
      });
      built++;
      return { config, deps, worker, connection };
    } catch (err) {
      await deps.close();
      throw err;
    }
  };
  const close = async (g: WorkerGeneration): Promise<void> => {
    await g.connection.close();
    await g.deps.close();
  };

  let initial: string;
  let current: WorkerGeneration;
  try {
    initial = await storedAccountsFingerprint(watchDb.db);
    current = await build();
  } catch (err) {
    await watchDb.close();
    throw err;
  }
  let stopping = false;
  let running = current.worker.run();
  opts.onGeneration?.(current);

  const watch = watchStoredAccounts(watchDb.db, {
    initial,
    ...(opts.pollMs !== undefined ? { intervalMs: opts.pollMs } : {}),
    onError: (err) => logger.warn({ err: describeError(err) }, 'stored accounts not read; trying again'),
    onChange: async () => {
      if (stopping) return;
      let next: WorkerGeneration;
      try {
        next = await build();
      } catch (err) {
        logger.error(
          { err: describeError(err) },
          'stored accounts changed, but a worker with them could not start; the current one keeps running',
        );
        return;
      }
      if (stopping) {
        await close(next);
        return;
      }
      const old = current;
      const oldRunning = running;
      current = next;
      running = next.worker.run();
      opts.onGeneration?.(next);
      logger.info(
        { accounts: next.config.accounts.map((a) => a.name) },
        'stored accounts changed: worker restarted in place with them',
      );
      old.worker.shutdown();
      await oldRunning.catch((err: unknown) =>
        logger.warn({ err: describeError(err) }, 'the previous worker stopped with an error'),
      );
      await close(old);
    },
  });

  // Ends when the current generation ends without being replaced (shutdown, or a failure).
  const done = (async () => {
    try {
      for (;;) {
        const watched = running;
        try {
          await watched;
        } catch (err) {
          // A replaced generation's failure is logged by the reload; only the current one's ends this.
          if (watched === running) throw err;
        }
        if (watched === running) break;
      }
    } finally {
      stopping = true;
      watch.stop();
      await close(current);
      await watchDb.close();
    }
  })();

  return {
    done,
    shutdown() {
      stopping = true;
      watch.stop();
      current.worker.shutdown();
    },
    generations: () => built,
  };
}
