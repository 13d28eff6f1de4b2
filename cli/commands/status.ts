// `callsync status [--json]`: per account × stream, the last successful sync, lag, records in the
// warehouse, open quarantined records and running backfills.
import type { Client } from '@temporalio/client';
import type { Command } from 'commander';
import { sql } from 'kysely';
import type { CallsyncConfig } from '../../config/schema';
import { backfillWorkflow } from '../../contracts';
import {
  createDatabase,
  migrateToLatest,
  recentCallFailures,
  STREAM_TABLES,
  type StreamName,
  type WarehouseDatabase,
} from '../../connectors/postgres';
import { decodeCursor } from '../../sync/cursor';
import { formatCallFailures } from './status-call-failures';
import { STREAMS } from '../../sync/streams';
import { cliLogger, connectTemporal, globalOptions, loadCliConfig, resolveDatabase } from '../context';

/** One row of the status table. */
export interface StreamStatus {
  account: string;
  stream: string;
  /** End of the last successful run (ISO), or null. */
  lastSuccess: string | null;
  /** Seconds since lastSuccess. */
  lagSeconds: number | null;
  /** Largest cursor value committed by the incremental sync (`YYYY-MM-DD HH:MM:SS`). */
  cursorMax: string | null;
  records: number;
  quarantined: number;
  /** Workflow ids of running backfills of this stream. */
  backfills: string[];
}

/** Collects the status of every configured stream; `temporal` adds running backfills. */
export async function collectStatus(
  config: CallsyncConfig,
  warehouse: WarehouseDatabase,
  temporal?: Client,
  now = Date.now(),
): Promise<StreamStatus[]> {
  const db = warehouse.db;
  const streams = (config.sync.streams ?? Object.keys(STREAMS)) as StreamName[];
  const successes = await db
    .selectFrom('sync_runs')
    .select(['account', 'stream', sql<Date>`max(finished_at)`.as('finished')])
    .where('status', '=', 'succeeded')
    .where('kind', '=', 'incremental')
    .groupBy(['account', 'stream'])
    .execute();
  const quarantined = await db
    .selectFrom('quarantined_records')
    .select(['account', 'stream', sql<number>`count(*)::int`.as('n')])
    .where('resolved_at', 'is', null)
    .groupBy(['account', 'stream'])
    .execute();
  const checkpoints = await db.selectFrom('sync_checkpoints').selectAll().where('scope', '=', '').execute();
  const running: string[] = [];
  if (temporal) {
    for await (const wf of temporal.workflow.list({
      query: `WorkflowType='${backfillWorkflow.name}' AND ExecutionStatus='Running'`,
    })) {
      running.push(wf.workflowId);
    }
  }
  const key = (a: string, s: string) => `${a}\u0000${s}`;
  const lastByKey = new Map(successes.map((r) => [key(r.account, r.stream), r.finished]));
  const quarantinedByKey = new Map(quarantined.map((r) => [key(r.account, r.stream), r.n]));
  const cursorByKey = new Map(checkpoints.map((r) => [key(r.account, r.stream), r.cursor]));

  const rows: StreamStatus[] = [];
  for (const account of config.accounts.map((a) => a.name)) {
    for (const stream of streams) {
      const table = STREAM_TABLES[stream].table;
      const count = await db
        .selectFrom(table)
        .select(sql<number>`count(*)::int`.as('n'))
        .where('account', '=', account)
        .executeTakeFirstOrThrow();
      const last = lastByKey.get(key(account, stream));
      const lastDate = last ? new Date(last) : null;
      const cursor = cursorByKey.get(key(account, stream));
      rows.push({
        account,
        stream,
        lastSuccess: lastDate ? lastDate.toISOString() : null,
        lagSeconds: lastDate ? Math.max(0, Math.round((now - lastDate.getTime()) / 1000)) : null,
        cursorMax: cursor ? safeMax(cursor) : null,
        records: count.n,
        quarantined: quarantinedByKey.get(key(account, stream)) ?? 0,
        backfills: running.filter((id) => id.startsWith(`backfill-${account}-${stream}-`)),
      });
    }
  }
  return rows;
}

function safeMax(cursor: string): string | null {
  try {
    return decodeCursor(cursor).max;
  } catch {
    return null;
  }
}

function formatLag(seconds: number | null): string {
  if (seconds === null) return '-';
  if (seconds < 120) return `${seconds}s`;
  if (seconds < 7200) return `${Math.round(seconds / 60)}m`;
  return `${Math.round(seconds / 3600)}h`;
}

/** The status rows as a padded text table. */
export function formatStatusTable(rows: StreamStatus[]): string {
  const header = [
    'ACCOUNT',
    'STREAM',
    'LAST SUCCESS',
    'LAG',
    'CURSOR',
    'RECORDS',
    'QUARANTINED',
    'BACKFILLS',
  ];
  const cells = rows.map((r) => [
    r.account,
    r.stream,
    r.lastSuccess ?? 'never',
    formatLag(r.lagSeconds),
    r.cursorMax ?? '-',
    String(r.records),
    String(r.quarantined),
    r.backfills.length ? r.backfills.join(', ') : '-',
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i]!.length)));
  return [header, ...cells]
    .map((line) =>
      line
        .map((c, i) => c.padEnd(widths[i]!))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

/** Registers `status` on the CLI program. */
export function registerStatusCommand(program: Command): void {
  program
    .command('status')
    .description('Show, per stream: last success, lag, records, quarantined, running backfills')
    .option('--json', 'print JSON (one array of rows) instead of a table')
    .action(async (raw: { json?: boolean }, cmd: Command) => {
      const config = loadCliConfig(globalOptions(cmd));
      const logger = cliLogger(config, 'status');
      const database = await resolveDatabase(config, logger);
      const warehouse = createDatabase(database.url);
      let temporal: Awaited<ReturnType<typeof connectTemporal>> | undefined;
      try {
        await migrateToLatest(warehouse.db);
        if (config.temporal.address) temporal = await connectTemporal(config);
        else logger.warn('no Temporal address: running backfills are not shown');
        const rows = await collectStatus(config, warehouse, temporal?.client);
        process.stdout.write(raw.json ? `${JSON.stringify(rows)}\n` : `${formatStatusTable(rows)}\n`);
        // Separate section: call follow-ups that gave up (text output only; JSON keeps its row array).
        const failures = raw.json ? '' : formatCallFailures(await recentCallFailures(warehouse.db));
        if (failures) process.stdout.write(`${failures}\n`);
      } finally {
        await temporal?.close();
        await warehouse.close();
        await database.stop();
      }
    });
}
