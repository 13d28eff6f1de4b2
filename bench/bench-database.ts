// What every benchmark sets up and tears down: a list of cleanup steps run in reverse, and its
// PostgreSQL, either a database of its own on DATABASE_URL's server (dropped afterwards) or an
// embedded server in the benchmark's scratch directory, started with the benchmark's settings.
import { mkdtempSync, rmSync } from 'node:fs';
import { chmod } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { startEmbeddedPostgres } from '../local/embedded-postgres';

/** Cleanup steps, run last-in first-out; a failing step is logged and the rest still run. */
export class Cleanups {
  private readonly steps: Array<() => Promise<void>> = [];

  push(step: () => Promise<void>): void {
    this.steps.push(step);
  }

  async run(log: (message: string) => void): Promise<void> {
    for (const step of this.steps.splice(0).reverse()) {
      await step().catch((e: unknown) => log(`cleanup: ${String(e)}`));
    }
  }
}

/**
 * A benchmark's scratch directory and its cleanup steps; `cleanup()` runs the steps, then removes
 * the directory.
 */
export function benchScratch(
  label: string,
  log: (message: string) => void,
): { temp: string; cleanups: Cleanups; cleanup: () => Promise<void> } {
  const temp = mkdtempSync(join(tmpdir(), `callsync-bench-${label}-`));
  const cleanups = new Cleanups();
  const cleanup = async (): Promise<void> => {
    await cleanups.run(log);
    rmSync(temp, { recursive: true, force: true });
  };
  return { temp, cleanups, cleanup };
}

export interface BenchDatabaseOptions {
  /** Name of the database created on DATABASE_URL's server (the process id is appended). */
  name: string;
  /** The benchmark's scratch directory (the embedded server's data goes under it). */
  scratch: string;
  /** Server settings of the embedded server, e.g. ['shared_buffers=1GB']. */
  settings: string[];
  /** What the settings are for, for the log line. */
  describe: string;
  log: (message: string) => void;
  cleanups: Cleanups;
}

/** The benchmark's PostgreSQL URL; its removal is registered in `cleanups`. */
export async function benchDatabase(opts: BenchDatabaseOptions): Promise<string> {
  const serverUrl = process.env.DATABASE_URL;
  if (serverUrl) {
    const name = `${opts.name}_${process.pid}`;
    const admin = new pg.Client({ connectionString: serverUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE "${name}"`);
    await admin.end();
    opts.cleanups.push(async () => {
      const c = new pg.Client({ connectionString: serverUrl });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await c.end();
    });
    opts.log('using DATABASE_URL (server settings as configured there)');
    const url = new URL(serverUrl);
    url.pathname = `/${name}`;
    return url.toString();
  }
  opts.log(`starting embedded PostgreSQL (${opts.describe})`);
  // The embedded server runs as its own user, which must reach its data directory.
  await chmod(opts.scratch, 0o755);
  const server = await startEmbeddedPostgres({
    dataDir: join(opts.scratch, 'pg'),
    persistent: false,
    serverFlags: opts.settings.flatMap((s) => ['-c', s]),
  });
  opts.cleanups.push(() => server.stop());
  return server.url;
}
