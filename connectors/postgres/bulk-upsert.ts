// Bulk load of one page of a stream into its warehouse table, in one transaction:
//   - a page whose ids are all new (a backfill) is COPYed straight into the table;
//   - otherwise it is COPYed into a session-local staging table and merged with one
//     INSERT … ON CONFLICT (account, id) DO UPDATE, which skips rows whose raw record is unchanged
//     (so their synced_at stays put).
// Rows are deduplicated (last wins) and sorted by id, so concurrent writers lock keys in the same
// order and cannot deadlock; a direct COPY that races another writer hits a unique violation and
// falls back to the merge inside a savepoint. Records a column cannot hold are quarantined in the
// same transaction, and an optional checkpoint moves in it too.
import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { copyColumns, copyEncoder, copySql, quoteIdent, quoteTable, type CopyEncoder } from './copy-text';
import { queryCompiler, runCompiled } from './query-compiler';
import { setCheckpointQuery, type CheckpointKey } from './repositories/checkpoints';
import { addQuarantinedQuery, type QuarantineEntry } from './repositories/quarantine';
import {
  RowMappingError,
  streamTable,
  type Cell,
  type PageRecord,
  type StreamName,
  type StreamTableSpec,
} from './stream-tables';

export interface UpsertPageInput<S extends StreamName> {
  stream: S;
  account: string;
  records: readonly PageRecord<S>[];
  /** A checkpoint to move in the same transaction as the page's rows. */
  checkpoint?: { key: CheckpointKey; cursor: string | null };
}

export interface UpsertPageResult {
  inserted: number;
  updated: number;
  /** Rows already stored with the same raw record. */
  unchanged: number;
  /** Records quarantined because a column could not hold one of their values. */
  quarantined: number;
  /** `copy`: COPY straight into the table; `merge`: staging table and INSERT … ON CONFLICT. */
  path: 'copy' | 'merge' | 'none';
}

export interface UpsertPageOptions {
  /** Try the direct COPY when the page's ids are all new (default true). */
  fastPath?: boolean;
}

const UNIQUE_VIOLATION = '23505';
// Rows per chunk written to the COPY stream: PostgreSQL parses one chunk while the next is encoded.
const CHUNK_ROWS = 500;

interface Statements {
  encode: CopyEncoder;
  stage: string;
  createStage: string;
  copyStage: string;
  copyTarget: string;
  anyInRange: string;
  anyPresent: string;
  merge: string;
}

const statements = new Map<StreamName, Statements>();

function statementsFor(spec: StreamTableSpec): Statements {
  const cached = statements.get(spec.stream);
  if (cached) return cached;
  const table = quoteTable(spec.table);
  const columns = copyColumns(spec.stream);
  const list = columns.map(quoteIdent).join(', ');
  // The staging table's name carries its column list, so a session that outlives a migration
  // gets a fresh staging table instead of a stale one.
  const version = createHash('sha1').update(columns.join(',')).digest('hex').slice(0, 8);
  const stageName = `_stage_${spec.table}_${version}`;
  const stage = `pg_temp.${quoteIdent(stageName)}`;
  const set = columns
    .filter((c) => c !== 'account' && c !== 'id')
    .map((c) => `${quoteIdent(c)} = EXCLUDED.${quoteIdent(c)}`)
    .join(', ');
  // The staging table is filled in id order and read back in that order (a fresh local heap), so
  // the merge, like the direct COPY, takes row locks in ascending id order.
  const built: Statements = {
    encode: copyEncoder(spec.stream),
    stage,
    createStage: `CREATE TEMP TABLE IF NOT EXISTS ${quoteIdent(stageName)} (LIKE ${table} INCLUDING DEFAULTS) ON COMMIT DELETE ROWS`,
    copyStage: copySql(spec.stream, `pg_temp.${stageName}`),
    copyTarget: copySql(spec.stream),
    anyInRange: `SELECT EXISTS (SELECT 1 FROM ${table} WHERE account = $1 AND id BETWEEN $2 AND $3) AS present`,
    anyPresent: `SELECT EXISTS (SELECT 1 FROM ${table} WHERE account = $1 AND id = ANY($2::bigint[])) AS present`,
    merge:
      `WITH written AS (INSERT INTO ${table} AS t (${list}) SELECT ${list} FROM ${stage} ` +
      `ON CONFLICT (account, id) DO UPDATE SET ${set}, synced_at = now() ` +
      `WHERE t.raw IS DISTINCT FROM EXCLUDED.raw RETURNING (xmax = 0) AS inserted) ` +
      `SELECT count(*) FILTER (WHERE inserted)::int AS inserted, ` +
      `count(*) FILTER (WHERE NOT inserted)::int AS updated FROM written`,
  };
  statements.set(spec.stream, built);
  return built;
}

export interface PreparedPage {
  ids: number[];
  rows: Cell[][];
  failures: QuarantineEntry[];
}

/** Maps a page's records; the last record of each id wins; rows come out sorted by id. */
export function preparePage<S extends StreamName>(
  spec: StreamTableSpec<S>,
  account: string,
  records: readonly PageRecord<S>[],
): PreparedPage {
  const latest = new Map<number, PageRecord<S>>();
  for (const r of records) latest.set(r.record.id, r);
  const ids = [...latest.keys()].sort((a, b) => a - b);
  const page: PreparedPage = { ids: [], rows: [], failures: [] };
  for (const id of ids) {
    const r = latest.get(id) as PageRecord<S>;
    try {
      page.rows.push(spec.mapRow(r.record, r.raw));
      page.ids.push(id);
    } catch (err) {
      if (!(err instanceof RowMappingError)) throw err;
      page.failures.push({
        account,
        stream: spec.stream,
        recordId: String(id),
        reason: `not storable: ${err.message}`,
        raw: r.raw,
      });
    }
  }
  return page;
}

/** The COPY text of prepared rows, in chunks of CHUNK_ROWS rows (exported for bench/page-cpu.ts). */
export function* encodePageChunks(
  encode: CopyEncoder,
  account: string,
  rows: readonly Cell[][],
): Generator<Buffer> {
  for (let i = 0; i < rows.length; i += CHUNK_ROWS) {
    yield encode.bytes(account, rows, i, Math.min(i + CHUNK_ROWS, rows.length));
  }
}

async function copyInto(
  client: pg.PoolClient,
  sqlText: string,
  encode: CopyEncoder,
  account: string,
  rows: readonly Cell[][],
): Promise<void> {
  // Two chunks ahead at most: the next chunk is encoded while PostgreSQL reads this one, and a page
  // never holds all of its COPY text at once (Readable.from would buffer 16 chunks).
  const chunks = Readable.from(encodePageChunks(encode, account, rows), { highWaterMark: 2 });
  await pipeline(chunks, client.query(copyFrom(sqlText)));
}

function isUniqueViolation(err: unknown): boolean {
  return typeof err === 'object' && err !== null && (err as { code?: unknown }).code === UNIQUE_VIOLATION;
}

// Staging tables known to exist on a connection (recorded after the creating transaction commits).
const stagedOn = new WeakMap<pg.PoolClient, Set<string>>();

async function mergeViaStage(
  client: pg.PoolClient,
  st: Statements,
  account: string,
  rows: readonly Cell[][],
  created: string[],
): Promise<{ inserted: number; updated: number }> {
  if (!stagedOn.get(client)?.has(st.stage)) {
    await client.query(st.createStage);
    created.push(st.stage);
  }
  await copyInto(client, st.copyStage, st.encode, account, rows);
  const { rows: counts } = await client.query<{ inserted: number; updated: number }>(st.merge);
  return counts[0] ?? { inserted: 0, updated: 0 };
}

/**
 * Writes one page of a stream's records for one account, idempotently, in one transaction
 * (with the checkpoint, if given). Safe to run concurrently with itself and with other pages.
 */
export async function upsertPage<S extends StreamName>(
  pool: pg.Pool,
  input: UpsertPageInput<S>,
  options: UpsertPageOptions = {},
): Promise<UpsertPageResult> {
  const spec = streamTable(input.stream);
  const st = statementsFor(spec);
  const page = preparePage(spec, input.account, input.records);
  const result: UpsertPageResult = {
    inserted: 0,
    updated: 0,
    unchanged: 0,
    quarantined: page.failures.length,
    path: 'none',
  };
  const client = await pool.connect();
  const created: string[] = [];
  let broken: Error | undefined;
  try {
    await client.query('BEGIN');
    if (page.failures.length > 0) {
      await runCompiled(client, addQuarantinedQuery(queryCompiler, page.failures).compile());
    }
    if (page.rows.length > 0) {
      let copied = false;
      if (options.fastPath ?? true) {
        if (await nonePresent(client, st, input.account, page.ids))
          copied = await tryDirectCopy(client, st, input.account, page.rows);
      }
      if (copied) {
        result.path = 'copy';
        result.inserted = page.rows.length;
      } else {
        result.path = 'merge';
        const counts = await mergeViaStage(client, st, input.account, page.rows, created);
        result.inserted = counts.inserted;
        result.updated = counts.updated;
        result.unchanged = page.rows.length - counts.inserted - counts.updated;
      }
    }
    if (input.checkpoint) {
      const { key, cursor } = input.checkpoint;
      await runCompiled(client, setCheckpointQuery(queryCompiler, key, cursor).compile());
    }
    await client.query('COMMIT');
    if (created.length > 0) {
      const known = stagedOn.get(client) ?? new Set<string>();
      for (const name of created) known.add(name);
      stagedOn.set(client, known);
    }
    return result;
  } catch (err) {
    try {
      await client.query('ROLLBACK');
    } catch (rollbackErr) {
      broken = rollbackErr as Error; // the connection is unusable: drop it from the pool
    }
    throw err;
  } finally {
    client.release(broken);
  }
}

/**
 * Whether none of the (sorted) ids is stored yet. One index probe for the range of the ids answers
 * most pages (a backfill window's pages are ranges of ids no one has written); only when the range
 * holds rows are the ids looked up one by one.
 */
async function nonePresent(
  client: pg.PoolClient,
  st: Statements,
  account: string,
  ids: readonly number[],
): Promise<boolean> {
  const inRange = await client.query<{ present: boolean }>(st.anyInRange, [
    account,
    ids[0],
    ids[ids.length - 1],
  ]);
  if (inRange.rows[0]?.present === false) return true;
  const { rows } = await client.query<{ present: boolean }>(st.anyPresent, [account, ids]);
  return rows[0]?.present === false;
}

/** COPY straight into the table; false when a concurrent writer already stored one of the ids. */
async function tryDirectCopy(
  client: pg.PoolClient,
  st: Statements,
  account: string,
  rows: readonly Cell[][],
): Promise<boolean> {
  await client.query('SAVEPOINT direct_copy');
  try {
    await copyInto(client, st.copyTarget, st.encode, account, rows);
  } catch (err) {
    if (!isUniqueViolation(err)) throw err;
    await client.query('ROLLBACK TO SAVEPOINT direct_copy');
    return false;
  }
  await client.query('RELEASE SAVEPOINT direct_copy');
  return true;
}

/**
 * Creates an empty table with exactly the definition of a stream's table (columns, defaults,
 * primary key, indexes), e.g. as the baseline of a raw-COPY benchmark.
 */
export async function createTableLike(pool: pg.Pool, stream: StreamName, newName: string): Promise<void> {
  const spec = streamTable(stream);
  await pool.query(`CREATE TABLE ${quoteTable(newName)} (LIKE ${quoteTable(spec.table)} INCLUDING ALL)`);
}
