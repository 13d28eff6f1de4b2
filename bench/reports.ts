// `npm run bench:reports -- --cdrs <N>`: fills the warehouse with a month of N charged CDRs (one
// INSERT … SELECT generate_series), then builds the billing report (one row per charged call) as CSV
// and as XLSX through the real path (reportExport workflow → activity → file) with the worker in its
// own process, and measures the local limit: PostgreSQL's own COPY of the same query to a file.
// "The same query" is the statement each format really runs (copyStatements): for CSV the query
// whose cells PostgreSQL formats in the schedule's culture, for XLSX the query of raw values it
// reads as COPY text. Both baselines write CSV into a file through the same client library; the
// COPY of the plain billing query (no formatting) is reported beside them, so the cost of
// formatting in SQL stays visible. A COPY nobody measures runs first, so every measured run finds
// the table in the cache.
// Progress goes to stderr; the last stdout line is the result as one JSON object.
import { randomBytes } from 'node:crypto';
import { createWriteStream, readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { Client } from '@temporalio/client';
import { bundleWorkflowCode } from '@temporalio/worker';
import { FAILURE_CONVERTER_PATH } from '../runtime/temporal-encryption';
import { Command } from 'commander';
import { to as copyTo } from 'pg-copy-streams';
import { z } from 'zod';
import { createDatabase, migrateToLatest } from '../connectors/postgres';
import { reportExportWorkflow, type ReportExportResult } from '../contracts';
import { startTemporalDevServer } from '../local/temporal-dev-server';
import { readyLine, stopChild } from '../lib/child-process';
import { csvCopyStatement } from '../reports/formats/csv-copy';
import { parseConfig } from '../config/load';
import { billingReportQuery, copyStatements, cultureFromCode } from '../reports';
import { requestedPeriod } from '../reports/period';
import { connectTemporalClient } from '../runtime/temporal-connection';
import { benchDatabase, benchScratch } from './bench-database';
import { buildDist, spawnCompiledWorker } from './compiled-worker';
import { runBenchmark } from './run';

const ACCOUNT = 'bench';
const PERIOD = '2026-10';
const TIMEZONE = 'UTC';
/** Report schedules the bench writes: the billing report (catalogue id 7) as CSV (format 1) and XLSX (2). */
const SCHEDULES = { csv: { id: 1, format: '1' }, xlsx: { id: 2, format: '2' } };

const optionsSchema = z.object({ cdrs: z.coerce.number().int().min(1).max(5_000_000) });

const log = (message: string): void => void process.stderr.write(`[bench:reports] ${message}\n`);

/** Peak resident set of a process, in MiB (VmHWM). */
function peakRssMb(pid: number): number {
  const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Math.round(Number(m[1]) / 1024) : NaN;
}

/**
 * A month of N CDRs, every one charged, spread evenly over October 2026 (UTC), for 50 users, and
 * the two report schedules. generate_series keeps the fill itself out of the way (seconds per million).
 */
async function fill(pool: import('pg').Pool, n: number): Promise<void> {
  await pool.query(
    `INSERT INTO users (account, id, raw, first_name, last_name)
     SELECT $1, u, '{}'::jsonb, 'User', 'Number ' || u FROM generate_series(1, 50) AS u`,
    [ACCOUNT],
  );
  await pool.query(
    `INSERT INTO cdrs (account, id, raw, calldate, user_id, type, src, dst, destination, billsec, disposition, rate, charge)
     SELECT $1, i, '{}'::jsonb,
            timestamptz '2026-10-01 00:00:00+00' + (i - 1) * (interval '31 days' / $2::int),
            1 + i % 50, 'out', '4420' || lpad((i % 1000000)::text, 7, '0'), '4930' || lpad((i * 7 % 10000000)::text, 8, '0'),
            CASE i % 4 WHEN 0 THEN 'Germany' WHEN 1 THEN 'United Kingdom' WHEN 2 THEN 'France' ELSE 'Spain' END,
            30 + i % 600, 'ANSWERED', 0.0125, round((30 + i % 600) * 0.0125 / 60, 4) + 0.0001
     FROM generate_series(1, $2::int) AS i`,
    [ACCOUNT, n],
  );
  for (const s of Object.values(SCHEDULES)) {
    await pool.query(
      `INSERT INTO report_schedules (account, id, raw, name, report_id, format, culture, status, timezone, frequency, emails)
       VALUES ($1, $2, '{}'::jsonb, 'Monthly billing', 7, $3, '1', '1', $4, $5::jsonb, '[]'::jsonb)`,
      [
        ACCOUNT,
        s.id,
        s.format,
        TIMEZONE,
        JSON.stringify(
          JSON.stringify({ type: 'monthly', time_of_day: ['06:00'], day_of_week: [], day_of_month: [1] }),
        ),
      ],
    );
  }
  await pool.query('VACUUM ANALYZE cdrs');
  await pool.query('VACUUM ANALYZE users');
}

async function main(): Promise<Record<string, unknown>> {
  const program = new Command()
    .option('--cdrs <n>', 'charged CDRs in the month', '100000')
    .parse(process.argv);
  const N = optionsSchema.parse(program.opts()).cdrs;
  const { temp, cleanups, cleanup } = benchScratch('reports', log);
  try {
    buildDist(log);
    const databaseUrl = await benchDatabase({
      name: 'bench_reports',
      scratch: temp,
      settings: ['shared_buffers=512MB', 'max_wal_size=4GB'],
      describe: 'shared_buffers=512MB, max_wal_size=4GB',
      log,
      cleanups,
    });
    const warehouse = createDatabase(databaseUrl, { max: 2 });
    cleanups.push(() => warehouse.close());
    await migrateToLatest(warehouse.db);
    log(`filling October 2026 with ${N} charged CDRs`);
    const t0 = Date.now();
    await fill(warehouse.pool, N);
    log(`filled in ${((Date.now() - t0) / 1000).toFixed(1)} s`);

    const period = requestedPeriod({ period: PERIOD }, TIMEZONE);
    const copyClient = await warehouse.pool.connect();
    cleanups.push(async () => copyClient.release());
    /** Seconds of `statement` (a COPY … TO STDOUT) written into a file by pg-copy-streams. */
    const copySeconds = async (statement: string, file: string): Promise<number> => {
      const t1 = process.hrtime.bigint();
      await pipeline(copyClient.query(copyTo(statement)), createWriteStream(join(temp, file)));
      return Number(process.hrtime.bigint() - t1) / 1e9;
    };
    const rawSql = billingReportQuery(warehouse.db, { account: ACCOUNT, period }).copySql;
    const rawStatement = `COPY (${rawSql}) TO STDOUT (FORMAT csv, HEADER)`;
    log(`warm-up COPY took ${(await copySeconds(rawStatement, 'warm-up.csv')).toFixed(1)} s`);

    log('starting Temporal dev server');
    const temporal = await startTemporalDevServer();
    cleanups.push(() => temporal.stop());
    const bundle = await bundleWorkflowCode({
      workflowsPath: require.resolve('../workflows'),
      failureConverterPath: FAILURE_CONVERTER_PATH,
    });
    const workflowBundlePath = join(temp, 'workflow-bundle.js');
    await writeFile(workflowBundlePath, bundle.code);
    const taskQueue = `bench-reports-${process.pid}`;
    const reportsDir = join(temp, 'reports');
    const workerConfig = {
      // The platform is never called: the report reads the warehouse only.
      allowInlineSecrets: true, // a local bench: the emulator's key and fresh secrets are inline
      accounts: [
        {
          name: ACCOUNT,
          platform: {
            baseUrl: 'http://127.0.0.1:9/v1.1/voipstudio',
            credentials: { type: 'apiKey', userId: 1, apiKey: 'unused' },
          },
        },
      ],
      temporal: {
        address: temporal.address,
        taskQueue,
        encryption: {
          keys: [{ id: 'bench', key: randomBytes(32).toString('base64') }],
          activeKeyId: 'bench',
        },
      },
      reports: { directory: reportsDir },
      logLevel: 'warn',
    };
    const worker = spawnCompiledWorker({
      CALLSYNC_BENCH_WORKER: JSON.stringify({
        config: workerConfig,
        databaseUrl,
        workflowBundlePath,
      }),
    });
    cleanups.push(() => stopChild(worker));
    await readyLine(worker, 'worker');
    const workerPid = worker.pid as number;
    const idleRss = peakRssMb(workerPid);
    log(`worker ready (pid ${workerPid}, rss peak ${idleRss} MiB)`);

    const connection = await connectTemporalClient({ address: temporal.address, namespace: 'default' });
    cleanups.push(() => connection.close());
    const client = new Client({ connection });
    const run = async (format: 'csv' | 'xlsx'): Promise<{ seconds: number; result: ReportExportResult }> => {
      const started = process.hrtime.bigint();
      const result = await client.workflow.execute(reportExportWorkflow, {
        taskQueue,
        workflowId: `bench-report-${format}-${process.pid}`,
        args: [{ account: ACCOUNT, scheduleId: SCHEDULES[format].id, period: { period: PERIOD } }],
      });
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      log(
        `${format}: ${result.rows} rows, ${result.bytes} bytes in ${seconds.toFixed(1)} s (worker rss peak ${peakRssMb(workerPid)} MiB)`,
      );
      if (result.outcome !== 'built' || result.rows !== N)
        throw new Error(`${format} run: ${JSON.stringify(result)}`);
      return { seconds, result };
    };
    const csv = await run('csv');
    const xlsx = await run('xlsx');
    const workerPeak = peakRssMb(workerPid);
    await stopChild(worker);

    // The statements the worker ran, compiled from its config (culture code '1' of the schedules).
    const { reports } = parseConfig(workerConfig, 'bench worker config');
    const request = (format: 'csv' | 'xlsx') => ({
      account: ACCOUNT,
      reportId: 7,
      period,
      format,
      culture: cultureFromCode('1', reports),
    });
    const csvCopy = copyStatements(warehouse.db, request('csv'), reports.catalogue).csv;
    const rowsCopy = copyStatements(warehouse.db, request('xlsx'), reports.catalogue).rows;
    if (!csvCopy || rowsCopy === undefined) throw new Error('the billing report has no COPY statements');
    log('baselines: COPY of the statements the CSV and XLSX runs used, and of the plain query, into files');
    const copyCsvSeconds = await copySeconds(
      csvCopyStatement(csvCopy.sql, csvCopy.delimiter),
      'baseline.csv',
    );
    const copyRowsSeconds = await copySeconds(
      `COPY (${rowsCopy}) TO STDOUT (FORMAT csv)`,
      'baseline-rows.csv',
    );
    const copyRawSeconds = await copySeconds(rawStatement, 'baseline-raw.csv');
    log(
      `baseline COPY: csv ${copyCsvSeconds.toFixed(2)} s, xlsx rows ${copyRowsSeconds.toFixed(2)} s, plain ${copyRawSeconds.toFixed(2)} s`,
    );

    const result = {
      bench: 'reports',
      rows: N,
      csv_ratio_to_copy: Number((copyCsvSeconds / csv.seconds).toFixed(3)),
      xlsx_rows_per_s: Math.round(N / xlsx.seconds),
      xlsx_ratio_to_copy: Number((copyRowsSeconds / xlsx.seconds).toFixed(3)),
      peak_rss_mb: workerPeak,
      idle_rss_mb: idleRss,
      csv_seconds: Number(csv.seconds.toFixed(2)),
      xlsx_seconds: Number(xlsx.seconds.toFixed(2)),
      copy_csv_seconds: Number(copyCsvSeconds.toFixed(2)),
      copy_rows_seconds: Number(copyRowsSeconds.toFixed(2)),
      copy_plain_seconds: Number(copyRawSeconds.toFixed(2)),
    };
    await cleanup();
    return result;
  } catch (err) {
    await cleanup();
    throw err;
  }
}

runBenchmark('bench:reports', main);
