// The warehouse connection: one pg Pool and a kysely instance over it.
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import Cursor from 'pg-cursor';
import type { Database } from './tables';
import type { PgSsl } from './tls';

const INT8_OID = 20;
const NUMERIC_OID = 1700;

// bigint and numeric columns read back as numbers: every value in them came from a JSON number
// (safe integers, numeric(12,4) money), so nothing is lost and callers get one type.
const parseNumber = (value: string): number => Number(value);
type Parse = (value: string) => unknown;
const types: pg.CustomTypesConfig = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary'): Parse =>
    oid === INT8_OID || oid === NUMERIC_OID
      ? parseNumber
      : (pg.types.getTypeParser(oid, format) as Parse)) as typeof pg.types.getTypeParser,
};

export interface DatabaseOptions {
  /** Most connections the pool opens (default 10). */
  max?: number;
  /** application_name shown in pg_stat_activity (default "callsync"). */
  applicationName?: string;
  /** Milliseconds an idle connection is kept (default 10 000). */
  idleTimeoutMillis?: number;
  /** Called when a connection fails outside a query (e.g. the server restarted); the pool replaces it. */
  onIdleError?: (err: Error) => void;
  /** TLS towards the server (connectors/postgres/tls.ts); the URL's own sslmode when absent. */
  ssl?: PgSsl;
}

export interface WarehouseDatabase {
  db: Kysely<Database>;
  /** The pool under `db`, for COPY (bulk load). */
  pool: pg.Pool;
  /** Ends every connection. */
  close(): Promise<void>;
}

/**
 * For each warehouse, a second pool for transactions that hold their connection around outside work:
 * a key lock held while the CRM creates an object (connectors/crm/mapping.ts). That work draws on the
 * main pool itself (the built-in CRM writes its tables, a shared rate slot is reserved, a mapping is
 * read), so with the locks on the main pool, ten concurrent creates held all ten connections while
 * each waited for an eleventh: a deadlock that only load brought out.
 */
const lockDatabases = new WeakMap<Kysely<Database>, () => Kysely<Database>>();

/** Where to open a transaction that holds a connection around outside work (`db` itself inside one). */
export function lockingDatabase(db: Kysely<Database>): Kysely<Database> {
  if (db.isTransaction) return db;
  return lockDatabases.get(db)?.() ?? db;
}

function newPool(url: string, opts: DatabaseOptions, max: number, applicationName: string): pg.Pool {
  const pool = new pg.Pool({
    connectionString: url,
    max,
    idleTimeoutMillis: opts.idleTimeoutMillis ?? 10_000,
    application_name: applicationName,
    options: '-c timezone=UTC',
    types,
    ...(opts.ssl !== undefined ? { ssl: opts.ssl } : {}),
  });
  // PostgreSQL ending a connection (a restart, a failover) emits 'error' on its client, idle in the
  // pool or checked out between two queries (held around a CRM call by a key lock, or by a COPY).
  // Without a listener that would crash the process; the holder's next query fails on that
  // connection instead, and activity retries take over. pg-pool re-emits an idle client's error on
  // the pool, so the pool has a listener too (the client's own has reported it already).
  pool.on('connect', (client) => client.on('error', (err) => opts.onIdleError?.(err)));
  pool.on('error', () => undefined);
  return pool;
}

/** Connects to the warehouse at `url`; every connection works in UTC. */
export function createDatabase(url: string, opts: DatabaseOptions = {}): WarehouseDatabase {
  const max = opts.max ?? 10;
  const name = opts.applicationName ?? 'callsync';
  const pool = newPool(url, opts, max, name);
  // The cursor lets `.stream()` read big results (report exports) in chunks instead of all at once.
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool, cursor: Cursor }) });
  // The lock pool opens on first use: most processes (receivers, the CLI) never take a key lock.
  let locks: Kysely<Database> | undefined;
  lockDatabases.set(db, () => {
    locks ??= new Kysely<Database>({
      dialect: new PostgresDialect({ pool: newPool(url, opts, max, `${name}-locks`) }),
    });
    return locks;
  });
  return {
    db,
    pool,
    close: async () => {
      await db.destroy();
      await locks?.destroy();
    },
  };
}
