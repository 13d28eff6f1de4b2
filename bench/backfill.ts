// `npm run bench:backfill -- --cdrs <N>`: backfills N emulator CDRs through the real path (emulator
// HTTP, platform client, zod, Temporal activities, COPY/upsert into PostgreSQL) with the worker in
// its own process, then measures the local limit: a raw COPY of the same rows, from COPY text
// prepared beforehand, into an empty table defined exactly like the warehouse's cdrs table.
// Progress goes to stderr; the last stdout line is the result as one JSON object.
import { randomBytes } from 'node:crypto';
import { spawn, type ChildProcess } from 'node:child_process';
import { createReadStream, createWriteStream, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { writeFile } from 'node:fs/promises';
import { Client } from '@temporalio/client';
import { bundleWorkflowCode } from '@temporalio/worker';
import { FAILURE_CONVERTER_PATH } from '../runtime/temporal-encryption';
import { Command } from 'commander';
import { from as copyFrom } from 'pg-copy-streams';
import { z } from 'zod';
import { createPlatformClient, type PlatformClient } from '../connectors/platform';
import { backfillWorkflow, progressQuery } from '../contracts';
import {
  copyEncoder,
  copySql,
  createDatabase,
  createTableLike,
  migrateToLatest,
  streamTable,
} from '../connectors/postgres';
import { DEFAULT_NOW } from '../emulator/store/clock';
import { startTemporalDevServer } from '../local/temporal-dev-server';
import { connectTemporalClient } from '../runtime/temporal-connection';
import { formatPlatformTime, parsePlatformTime } from '../sync/time';
import { readyLine, stopChild } from '../lib/child-process';
import { benchDatabase, Cleanups } from './bench-database';
import { buildDist, spawnCompiledWorker } from './compiled-worker';
import { runBenchmark } from './run';

const ACCOUNT = 'bench';
const BASELINE_TABLE = 'bench_copy_baseline';
const ROOT = resolve(__dirname, '..');

/**
 * Server settings for a bulk load that a user would set too, used for the backfill and the
 * baseline alike. None gives up durability of committed data (fsync, full_page_writes and
 * synchronous_commit stay on): more shared memory, and fewer checkpoints during the load (each
 * checkpoint makes the next change of every page write a full-page image to the WAL).
 */
const BULK_LOAD_SETTINGS = [
  'shared_buffers=1GB',
  'max_wal_size=8GB',
  'checkpoint_timeout=30min',
  'wal_buffers=64MB',
];

const optionsSchema = z.object({
  cdrs: z.coerce.number().int().min(1).max(5_000_000),
  seed: z.coerce.number().int().min(0),
  windows: z.coerce.number().int().min(1).max(50),
  parallelism: z.coerce.number().int().min(1).max(32),
  activities: z.coerce.number().int().min(1).max(64),
  pageSize: z.coerce.number().int().min(1).max(5000),
});

/**
 * The emulator stands in for the platform's servers, which in production run elsewhere: it may use
 * the machine's memory so that its own garbage collection takes as little of the shared CPU as it
 * can. Its seeded history is millions of long-lived objects (2.8 GB of heap at 5M CDRs): near V8's
 * default heap limit (4.5 GB here) V8 runs a full GC, marking every one of them, every few pages;
 * and a larger young generation lets the garbage of serving a page die young. Its GC runs on its
 * own thread only: with both cores busy (the worker, PostgreSQL), V8's parallel GC helpers wait
 * for each other and more than doubled the emulator's CPU time for the same pages (measured with
 * two CPU burners: 355 → 144 ticks for 500,000 CDRs served). The worker keeps parallel GC, which
 * its concurrent marking needs to stay under its memory bound (single-threaded: 437 MB at 1M).
 */
const EMULATOR_NODE_ARGS = [
  '--import',
  'tsx',
  '--max-old-space-size=12288',
  '--max-semi-space-size=64',
  '--single-threaded-gc',
];

const log = (message: string): void => void process.stderr.write(`[bench:backfill] ${message}\n`);

/**
 * Spawns a node process running a TypeScript entry (node --import tsx, so the pid is the program's).
 * `nodeArgs` replace the loader flags when they name one (`--require tsx/cjs`).
 */
function spawnTs(
  entry: string,
  args: string[],
  env: NodeJS.ProcessEnv = {},
  nodeArgs: string[] = [],
): ChildProcess {
  const loader = nodeArgs.some((a) => a === '--require' || a === '--import') ? [] : ['--import', 'tsx'];
  const child = spawn(process.execPath, [...nodeArgs, ...loader, entry, ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return child;
}

/** Peak resident set of a process, in MiB (VmHWM). */
function peakRssMb(pid: number): number {
  const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Math.round(Number(m[1]) / 1024) : NaN;
}

interface Prepared {
  ids: Float64Array;
  min: string;
  max: string;
  file: string;
}

/** Reads every CDR through the client once (outside the timing) and writes its COPY text to a file. */
async function prepareCopyText(client: PlatformClient, file: string, expected: number): Promise<Prepared> {
  const spec = streamTable('cdrs');
  const encode = copyEncoder('cdrs');
  const out = createWriteStream(file);
  const ids = new Float64Array(expected);
  let n = 0;
  let min: string | null = null;
  let max: string | null = null;
  for await (const page of client.history.cdrs.list({ limit: 5000 }).pages()) {
    if (page.invalid.length > 0) throw new Error(`${page.invalid.length} CDRs failed their schema`);
    const rows = page.data.map((record, i) => {
      if (n >= ids.length) throw new Error(`emulator holds more than ${expected} CDRs`);
      ids[n++] = record.id;
      const t = record.calldate;
      if (typeof t === 'string') {
        if (min === null || t < min) min = t;
        if (max === null || t > max) max = t;
      }
      return spec.mapRow(record, page.raw[i]);
    });
    if (!out.write(encode(ACCOUNT, rows))) await new Promise<void>((r) => out.once('drain', () => r()));
  }
  await new Promise<void>((r, j) => out.end((err?: Error | null) => (err ? j(err) : r())));
  if (n !== expected || min === null || max === null)
    throw new Error(`emulator served ${n} CDRs, expected ${expected}`);
  return { ids: ids.subarray(0, n).sort(), min, max, file };
}

/** Missing: emulator ids not in the warehouse; duplicates: warehouse rows beyond one per emulator id. */
function compareIds(source: Float64Array, stored: Float64Array): { missing: number; duplicates: number } {
  let missing = 0;
  let duplicates = 0;
  let j = 0;
  for (let i = 0; i < source.length; i++) {
    const id = source[i] as number;
    // Stored ids the emulator does not hold count as extra rows too.
    while (j < stored.length && (stored[j] as number) < id) {
      duplicates++;
      j++;
    }
    if (j < stored.length && stored[j] === id) {
      j++;
      while (j < stored.length && stored[j] === id) {
        duplicates++;
        j++;
      }
    } else missing++;
  }
  return { missing, duplicates: duplicates + (stored.length - j) };
}

async function main(): Promise<Record<string, unknown>> {
  const program = new Command()
    .option('--cdrs <n>', 'CDRs to seed and backfill', '100000')
    .option('--seed <n>', 'emulator seed', '1')
    .option('--windows <n>', 'backfill windows (each adds at most one short page of requests)', '8')
    .option('--parallelism <n>', 'windows run at once', '4')
    .option('--activities <n>', "worker's concurrent activities", '8')
    .option('--page-size <n>', 'records per API page', '5000')
    .parse(process.argv);
  const opts = optionsSchema.parse(program.opts());
  const N = opts.cdrs;
  const temp = mkdtempSync(join(tmpdir(), 'callsync-bench-'));
  const cleanups = new Cleanups();
  const cleanup = async (): Promise<void> => {
    await cleanups.run(log);
    rmSync(temp, { recursive: true, force: true });
  };
  try {
    // The worker runs compiled, as bin/callsync and the image run it (bench/compiled-worker.ts).
    buildDist(log);
    log(`starting emulator with ${N} CDRs`);
    const emulator = spawnTs(
      'cli/main.ts',
      [
        'emulator',
        '--port',
        '0',
        '--seed',
        String(opts.seed),
        '--cdrs',
        String(N),
        '--log-level',
        'warn',
        '--now',
        DEFAULT_NOW.toISOString(),
      ],
      {},
      [...EMULATOR_NODE_ARGS, ...(process.env.BENCH_EMULATOR_NODE_ARGS ?? '').split(' ').filter(Boolean)],
    );
    cleanups.push(() => stopChild(emulator));
    const ready = (await readyLine(emulator, 'emulator')) as {
      base_url: string;
      admin: { user_id: number; api_key: string };
    };
    const origin = new URL(ready.base_url).origin;

    const databaseUrl = await benchDatabase({
      name: 'bench_backfill',
      scratch: temp,
      settings: BULK_LOAD_SETTINGS,
      describe: BULK_LOAD_SETTINGS.join(', '),
      log,
      cleanups,
    });
    const warehouse = createDatabase(databaseUrl, { max: 4 });
    cleanups.push(() => warehouse.close());
    await migrateToLatest(warehouse.db);

    log('starting Temporal dev server');
    const temporal = await startTemporalDevServer();
    cleanups.push(() => temporal.stop());

    const platform = {
      baseUrl: ready.base_url,
      credentials: { type: 'apiKey' as const, userId: ready.admin.user_id, apiKey: ready.admin.api_key },
      requestsPerSecond: 1000,
      burst: 32,
      timeoutMs: 120_000,
    };
    log('reading every CDR once to prepare the baseline COPY text');
    const reader = createPlatformClient({ ...platform, pageSize: 5000 });
    const prepared = await prepareCopyText(reader, join(temp, 'cdrs.copy'), N);
    await reader.close();
    log(`prepared ${N} rows; calldate ${prepared.min} .. ${prepared.max}`);

    // Workflows are bundled ahead, as a production deployment does, so the worker does not webpack at start.
    const bundle = await bundleWorkflowCode({
      workflowsPath: require.resolve('../workflows'),
      failureConverterPath: FAILURE_CONVERTER_PATH,
    });
    const workflowBundlePath = join(temp, 'workflow-bundle.js');
    await writeFile(workflowBundlePath, bundle.code);

    const taskQueue = `bench-backfill-${process.pid}`;
    const workerInput = {
      config: {
        allowInlineSecrets: true, // a local bench: the emulator's key and fresh secrets are inline
        accounts: [{ name: ACCOUNT, platform }],
        temporal: {
          address: temporal.address,
          taskQueue,
          encryption: {
            keys: [{ id: 'bench', key: randomBytes(32).toString('base64') }],
            activeKeyId: 'bench',
          },
        },
        sync: { pageSize: opts.pageSize },
        archive: { dir: join(temp, 'archive') },
        logLevel: 'warn',
      },
      databaseUrl,
      maxConcurrentActivities: opts.activities,
      workflowBundlePath,
    };
    const worker = spawnCompiledWorker({ CALLSYNC_BENCH_WORKER: JSON.stringify(workerInput) });
    cleanups.push(() => stopChild(worker));
    await readyLine(worker, 'worker');
    const workerPid = worker.pid as number;
    log(`worker ready (pid ${workerPid}, peak rss so far ${peakRssMb(workerPid)} MiB)`);

    const connection = await connectTemporalClient({ address: temporal.address, namespace: 'default' });
    cleanups.push(() => connection.close());
    const client = new Client({ connection });

    // Windows of equal length over the data's range; each adds at most one short page of requests.
    const from = formatPlatformTime(parsePlatformTime(prepared.min) - 1000);
    const to = formatPlatformTime(parsePlatformTime(prepared.max) + 1000);
    const windowMs = Math.ceil((parsePlatformTime(to) - parsePlatformTime(from)) / opts.windows);

    await warehouse.pool.query('CHECKPOINT');
    await fetch(`${origin}/_emulator/stats/reset`, { method: 'POST' });
    log(`backfill: ${opts.windows} windows, ${opts.parallelism} at once, pages of ${opts.pageSize}`);
    const started = process.hrtime.bigint();
    const handle = await client.workflow.start(backfillWorkflow, {
      taskQueue,
      workflowId: `bench-backfill-${process.pid}`,
      args: [{ account: ACCOUNT, stream: 'cdrs', from, to, windowMs, parallelism: opts.parallelism }],
    });
    const ticker = setInterval(() => {
      handle
        .query(progressQuery)
        .then((p) =>
          log(
            `  ${p.records} records, ${p.windowsDone} windows done, ${p.recordsPerSecond}/s, worker rss peak ${peakRssMb(workerPid)} MiB`,
          ),
        )
        .catch(() => undefined);
    }, 5000);
    try {
      await handle.result();
    } finally {
      clearInterval(ticker);
    }
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    const stats = (await (await fetch(`${origin}/_emulator/stats`)).json()) as {
      requests: number;
      by_route: unknown;
    };
    const workerPeak = peakRssMb(workerPid);
    log(
      `backfill took ${seconds.toFixed(1)} s; ${stats.requests} API requests ${JSON.stringify(stats.by_route)}`,
    );
    await stopChild(worker);

    const { rows: stored } = await warehouse.pool.query<{ id: number }>(
      'SELECT id FROM cdrs WHERE account = $1 ORDER BY id',
      [ACCOUNT],
    );
    const { missing, duplicates } = compareIds(
      prepared.ids,
      Float64Array.from(stored, (r) => r.id),
    );

    log('baseline: raw COPY of the same rows into an empty table like cdrs');
    await createTableLike(warehouse.pool, 'cdrs', BASELINE_TABLE);
    await warehouse.pool.query('CHECKPOINT');
    const copyClient = await warehouse.pool.connect();
    let copySeconds: number;
    try {
      const t0 = process.hrtime.bigint();
      await pipeline(
        createReadStream(prepared.file, { highWaterMark: 1 << 20 }),
        copyClient.query(copyFrom(copySql('cdrs', BASELINE_TABLE))),
      );
      copySeconds = Number(process.hrtime.bigint() - t0) / 1e9;
    } finally {
      copyClient.release();
    }
    log(`baseline COPY took ${copySeconds.toFixed(1)} s`);

    const recordsPerS = N / seconds;
    const copyPerS = N / copySeconds;
    const result = {
      bench: 'backfill',
      records: N,
      seconds: Number(seconds.toFixed(2)),
      records_per_s: Math.round(recordsPerS),
      copy_records_per_s: Math.round(copyPerS),
      ratio_to_copy: Number((recordsPerS / copyPerS).toFixed(3)),
      missing,
      duplicates,
      api_requests: stats.requests,
      worker_peak_rss_mb: workerPeak,
    };
    await cleanup();
    return result;
  } catch (err) {
    await cleanup();
    throw err;
  }
}

runBenchmark('bench:backfill', main);
