// `npm run bench:dashboard -- --days 365 --calls-per-day <N>`: fills the warehouse with a year of
// calls (root CDR legs with users, outcomes and numbers), a day of sync runs, relayed webhooks and
// call events, then times the dashboard's pages as the server renders them (every query and the
// HTML): the overview, the call list (newest, by number, user, outcome, one day, ten pages deep), a
// call's page and the quarantine. Each page is rendered 5 times; the median counts. It also checks
// that no query behind them reads the cdrs table whole (EXPLAIN: no Seq Scan on cdrs).
// Progress goes to stderr; the last stdout line is the result as one JSON object.
import { Command } from 'commander';
import { z } from 'zod';
import { createDatabase, migrateToLatest, searchCalls, type WarehouseDatabase } from '../connectors/postgres';
import { silentLogger } from '../lib/logger';
import { callListPage, callPage } from '../server/dashboard/calls-page';
import type { DashboardOptions } from '../server/dashboard/context';
import { overviewPage } from '../server/dashboard/overview-page';
import { quarantinePage } from '../server/dashboard/quarantine-page';
import { STREAMS } from '../sync/streams';
import { benchDatabase, benchScratch } from './bench-database';
import { runBenchmark } from './run';

const ACCOUNT = 'bench';
const optionsSchema = z.object({
  days: z.coerce.number().int().min(1).max(3650),
  callsPerDay: z.coerce.number().int().min(1).max(100_000),
});
const log = (message: string): void => void process.stderr.write(`[bench:dashboard] ${message}\n`);

/** A year of calls up to now, spread evenly, and what the overview reads besides. */
async function fill(pool: import('pg').Pool, days: number, perDay: number): Promise<number> {
  const n = days * perDay;
  await pool.query(
    `INSERT INTO users (account, id, raw, first_name, last_name, email)
     SELECT $1, u, '{}'::jsonb, 'User', 'Number ' || u, 'user' || u || '@example.com' FROM generate_series(1, 50) AS u`,
    [ACCOUNT],
  );
  await pool.query(
    `INSERT INTO cdrs (account, id, live_id, raw, calldate, user_id, type, src, dst, billsec, disposition, is_root)
     SELECT $1, i, 1000000 + i, '{}'::jsonb,
            now() - interval '1 day' * $3::int + (i - 1) * (interval '1 day' * $3::int / $2::int),
            1 + i % 50, CASE i % 2 WHEN 0 THEN 'in' ELSE 'out' END,
            '+4420' || lpad((i % 100000)::text, 7, '0'), '10' || (i % 50),
            CASE WHEN i % 5 = 0 THEN 0 ELSE 30 + i % 600 END,
            CASE i % 10 WHEN 0 THEN 'RINGING' WHEN 1 THEN 'VM' WHEN 2 THEN 'INITIAL' ELSE 'CONNECTED' END, true
     FROM generate_series(1, $2::int) AS i`,
    [ACCOUNT, n, days],
  );
  // A day of incremental runs every 5 minutes for three streams, and a week of older ones.
  await pool.query(
    `INSERT INTO sync_runs (account, stream, kind, started_at, finished_at, status, records, errors, data_lag_seconds)
     SELECT $1, s, 'incremental', t, t + interval '2 seconds', 'succeeded', 50 + (extract(minute from t))::int, 0, 60 + extract(minute from t) * 5
     FROM unnest(array['cdrs','recordings','sms']) AS s,
          generate_series(now() - interval '8 days', now(), interval '5 minutes') AS t`,
    [ACCOUNT],
  );
  await pool.query(
    `INSERT INTO webhook_inbox (account, event_id, event_name, call_id, received_at, body, status, done_at)
     SELECT $1, 'ev-' || i, 'call.hangup', 1000000 + i, t, '{}'::jsonb, 'done', t + (i % 40) * interval '10 ms'
     FROM generate_series(1, $2::int) AS i, LATERAL (SELECT now() - interval '7 days' * i / $2::int AS t) x`,
    [ACCOUNT, perDay * 7],
  );
  await pool.query(
    `INSERT INTO call_events (account, event_id, call_id, name, event_time, state, context, detail)
     SELECT $1, 'e-' || i || '-' || k, 1000000 + i, 'call.' || k, now(), upper(k), 'LOCAL_USER', '{}'::jsonb
     FROM generate_series($2::int - 1000, $2::int) AS i, unnest(array['ringing','answered','hangup']) AS k`,
    [ACCOUNT, n],
  );
  await pool.query(
    `INSERT INTO quarantined_records (account, stream, record_id, reason, raw)
     SELECT $1, 'cdrs', 'q' || i, 'schema: calldate: Invalid date', '{}'::jsonb FROM generate_series(1, 500) AS i`,
    [ACCOUNT],
  );
  for (const t of ['cdrs', 'users', 'sync_runs', 'webhook_inbox', 'call_events', 'quarantined_records'])
    await pool.query(`VACUUM ANALYZE ${t}`);
  return n;
}

/** Median of `runs` timings of `f`, in ms. */
async function time(f: () => Promise<unknown>, runs = 5): Promise<number> {
  const ms: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = process.hrtime.bigint();
    await f();
    ms.push(Number(process.hrtime.bigint() - t) / 1e6);
  }
  return Number(ms.sort((a, b) => a - b)[Math.floor(runs / 2)]!.toFixed(1));
}

/** True when a plan of the call search reads cdrs sequentially. */
async function seqScansCdrs(
  warehouse: WarehouseDatabase,
  q: Parameters<typeof searchCalls>[1],
): Promise<boolean> {
  // The shape of the query searchCalls builds (newest first, optionally by number), explained.
  const { rows } = await warehouse.pool.query<{ 'QUERY PLAN': string }>(
    `EXPLAIN SELECT c.id FROM cdrs c WHERE c.account = $1 AND coalesce(c.is_root, true)
     ${q.number ? `AND (c.src = ANY($2) OR c.dst = ANY($2))` : ''} ORDER BY c.calldate DESC, c.id DESC LIMIT 51`,
    q.number ? [ACCOUNT, [q.number]] : [ACCOUNT],
  );
  return rows.some((r) => /Seq Scan on cdrs/.test(r['QUERY PLAN']));
}

async function main(): Promise<Record<string, unknown>> {
  const program = new Command()
    .option('--days <n>', 'days of calls', '365')
    .option('--calls-per-day <n>', 'calls a day', '2000')
    .parse(process.argv);
  const opts = optionsSchema.parse(program.opts());
  const { temp, cleanups, cleanup } = benchScratch('dashboard', log);
  try {
    const databaseUrl = await benchDatabase({
      name: 'bench_dashboard',
      scratch: temp,
      settings: ['shared_buffers=256MB', 'max_wal_size=4GB'],
      describe: 'shared_buffers=256MB, max_wal_size=4GB',
      log,
      cleanups,
    });
    const warehouse = createDatabase(databaseUrl, { max: 10 });
    cleanups.push(() => warehouse.close());
    await migrateToLatest(warehouse.db);
    log(`filling ${opts.days} days × ${opts.callsPerDay} calls`);
    const t0 = Date.now();
    const calls = await fill(warehouse.pool, opts.days, opts.callsPerDay);
    log(`filled ${calls} calls in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
    const dash: DashboardOptions = {
      password: 'unused-in-the-bench',
      sessionHours: 1,
      db: warehouse.db,
      accounts: [ACCOUNT],
      streams: Object.keys(STREAMS),
      archiveDir: temp,
      destinations: { [ACCOUNT]: 'builtin' },
      logger: silentLogger,
    };
    const mid = new Date(Date.now() - (opts.days / 2) * 86_400_000).toISOString().slice(0, 10);
    // Ten pages deep: follow the keyset cursor as the "Older calls" link does.
    let before: string | undefined;
    for (let i = 0; i < 10; i++) {
      const page = await searchCalls(warehouse.db, {
        accounts: [ACCOUNT],
        limit: 50,
        before: before
          ? { calldate: new Date(before.split('_')[0]!), id: Number(before.split('_')[1]) }
          : undefined,
      });
      before = page.next ? `${page.next.calldate.toISOString()}_${page.next.id}` : undefined;
    }
    const ms = {
      overview_ms: await time(() => overviewPage(dash)),
      calls_newest_ms: await time(() => callListPage(dash, {})),
      calls_by_number_ms: await time(() => callListPage(dash, { number: '+44 20 0012345' })),
      calls_by_user_ms: await time(() => callListPage(dash, { user: `${ACCOUNT}:7` })),
      calls_by_outcome_ms: await time(() => callListPage(dash, { outcome: 'VM' })),
      calls_one_day_ms: await time(() => callListPage(dash, { from: mid, to: mid })),
      calls_page_10_ms: await time(() => callListPage(dash, { before })),
      call_page_ms: await time(() => callPage(dash, ACCOUNT, calls - 10)),
      quarantine_ms: await time(() => quarantinePage(dash, {})),
    };
    const seqScan =
      (await seqScansCdrs(warehouse, { accounts: [ACCOUNT], limit: 50 })) ||
      (await seqScansCdrs(warehouse, { accounts: [ACCOUNT], limit: 50, number: '+44200012345' }));
    const result = { bench: 'dashboard', calls, days: opts.days, ...ms, seq_scan_on_cdrs: seqScan };
    await cleanup();
    return result;
  } catch (err) {
    await cleanup();
    throw err;
  }
}

runBenchmark('bench:dashboard', main);
