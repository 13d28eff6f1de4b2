// `callsync status [--json]`: per account × stream, the last successful sync, lag, records in the
// warehouse, open quarantined records, audio archive progress and running backfills.
import type { Client } from '@temporalio/client';
import type { Command } from 'commander';
import { archiveWindow } from '../../activities/audio-activities';
import type { CallsyncConfig } from '../../config/schema';
import { backfillWorkflow } from '../../contracts';
import {
  audioArchiveProgress,
  createDatabase,
  migrateToLatest,
  recentCallFailures,
  recentErasures,
  latestReportRuns,
  listQuarantined,
  recentReportRunFailures,
  streamAggregates,
  type AudioArchiveProgress,
  type StreamName,
  type WarehouseDatabase,
} from '../../connectors/postgres';
import { postgresSsl } from '../../connectors/postgres/tls';
import { decodeCursor } from '../../sync/cursor';
import { formatCallFailures } from './status-call-failures';
import { formatErasures } from './erase';
import { formatReportStatus } from './report-views';
import { collectTranscriptionUsage, formatTranscriptionUsage } from './status-transcription';
import { collectOutcomeStatus, formatOutcomeStatus } from './status-outcomes';
import { collectContactSyncStatus, formatContactSyncStatus } from './status-contact-sync';
import { STREAMS } from '../../sync/streams';
import { platformTimeOrUndefined } from '../../sync/time';
import { connectTemporal, globalOptions, loadConfigWithAccounts, requireRunningStack } from '../context';

/** One row of the status table. */
export interface StreamStatus {
  account: string;
  stream: string;
  /** End of the last successful run (ISO), or null. */
  lastSuccess: string | null;
  /** Seconds since lastSuccess. */
  lagSeconds: number | null;
  /** How far the data is behind: seconds from the newest synced record (cursorMax) to now (history streams). */
  dataLagSeconds: number | null;
  /** Largest cursor value committed by the incremental sync (`YYYY-MM-DD HH:MM:SS`). */
  cursorMax: string | null;
  records: number;
  quarantined: number;
  /** Recordings and voicemail: audio archived, and still to archive within archive.maxAge. */
  audio?: AudioArchiveProgress;
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
  const streams = (config.sync.streams ?? Object.keys(STREAMS)) as StreamName[];
  const accounts = config.accounts.map((a) => a.name);
  const aggregates = await streamAggregates(warehouse.db, accounts, streams);
  const running: string[] = [];
  if (temporal) {
    for await (const wf of temporal.workflow.list({
      query: `WorkflowType='${backfillWorkflow.name}' AND ExecutionStatus='Running'`,
    })) {
      running.push(wf.workflowId);
    }
  }
  const { since } = archiveWindow(config.archive.maxAge, now);
  const secondsSince = (ms: number | null) =>
    ms === null ? null : Math.max(0, Math.round((now - ms) / 1000));
  const rows: StreamStatus[] = [];
  for (const a of aggregates) {
    const cursorMax = a.cursor ? safeMax(a.cursor) : null;
    rows.push({
      account: a.account,
      stream: a.stream,
      lastSuccess: a.lastSuccess ? a.lastSuccess.toISOString() : null,
      lagSeconds: secondsSince(a.lastSuccess?.getTime() ?? null),
      // Only history streams' cursors say how recent the data is (a user's cursor is when it was created).
      dataLagSeconds:
        STREAMS[a.stream].kind === 'history' && cursorMax
          ? secondsSince(platformTimeOrUndefined(cursorMax) ?? null)
          : null,
      cursorMax,
      records: a.records,
      quarantined: a.quarantined,
      ...(a.stream === 'recordings' || a.stream === 'voicemessages'
        ? { audio: await audioArchiveProgress(warehouse.db, a.stream, a.account, since) }
        : {}),
      backfills: running.filter((id) => id.startsWith(`backfill-${a.account}-${a.stream}-`)),
    });
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

function formatDuration(seconds: number): string {
  if (seconds < 120) return `${seconds}s`;
  if (seconds < 7200) return `${Math.round(seconds / 60)}m`;
  if (seconds < 172_800) return `${Math.round(seconds / 3600)}h`;
  return `${Math.round(seconds / 86_400)}d`;
}

/** LAG: how far the data is behind (newest record to now) and how long ago the last good run ended. */
export function formatLag(row: Pick<StreamStatus, 'lagSeconds' | 'dataLagSeconds'>): string {
  const parts: string[] = [];
  if (row.dataLagSeconds !== null) parts.push(`data ${formatDuration(row.dataLagSeconds)} behind`);
  if (row.lagSeconds !== null) parts.push(`ran ${formatDuration(row.lagSeconds)} ago`);
  return parts.length ? parts.join(', ') : '-';
}

function formatBytes(n: number): string {
  if (n < 1024 * 1024) return `${Math.round(n / 1024)} kB`;
  if (n < 1024 ** 3) return `${(n / 1024 / 1024).toFixed(1)} MB`;
  return `${(n / 1024 ** 3).toFixed(2)} GB`;
}

/** AUDIO: archived of archived + pending, the bytes so far, and the files the platform lost. */
export function formatAudio(audio: AudioArchiveProgress | undefined): string {
  if (!audio) return '-';
  const lost = audio.lost > 0 ? `, ${audio.lost} lost` : '';
  return `${audio.archived}/${audio.archived + audio.pending} (${formatBytes(audio.bytes)}${lost})`;
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
    'AUDIO',
    'BACKFILLS',
  ];
  const cells = rows.map((r) => [
    r.account,
    r.stream,
    r.lastSuccess ?? 'never',
    formatLag(r),
    r.cursorMax ?? '-',
    String(r.records),
    String(r.quarantined),
    formatAudio(r.audio),
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
    .description(
      'Show, per stream: last success, lag (data behind, last run), records, quarantined, audio archived, running backfills',
    )
    .option('--json', 'print JSON (one array of rows) instead of a table')
    .action(async (raw: { json?: boolean }, cmd: Command) => {
      requireRunningStack(globalOptions(cmd), 'status');
      // The stored accounts (`callsync accounts add`) are shown with the config file's.
      const { config, logger, database } = await loadConfigWithAccounts(globalOptions(cmd), 'status');
      const ssl = postgresSsl(config.database.sslmode, config.database.sslCa);
      const warehouse = createDatabase(database.url, ssl !== undefined ? { ssl } : {});
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
        if (!raw.json) {
          const accounts = config.accounts.map((a) => a.name);
          const reports = formatReportStatus(
            await latestReportRuns(warehouse.db, accounts),
            await recentReportRunFailures(warehouse.db, 10),
            await listQuarantined(warehouse.db, { stream: 'reportschedules' }),
          );
          if (reports) process.stdout.write(`${reports}\n`);
        }
        const usage = raw.json
          ? ''
          : formatTranscriptionUsage(await collectTranscriptionUsage(warehouse.db, config));
        if (usage) process.stdout.write(`${usage}\n`);
        const erasures = raw.json ? '' : formatErasures(await recentErasures(warehouse.db, 10));
        if (erasures) process.stdout.write(`${erasures}\n`);
        const contacts = raw.json
          ? ''
          : formatContactSyncStatus(await collectContactSyncStatus(warehouse.db));
        if (contacts) process.stdout.write(`${contacts}\n`);
        const outcomes = raw.json ? '' : formatOutcomeStatus(await collectOutcomeStatus(warehouse.db));
        if (outcomes) process.stdout.write(`${outcomes}\n`);
      } finally {
        await temporal?.close();
        await warehouse.close();
        await database.stop();
      }
    });
}
