// `npm run bench:webhooks -- --events <N> --concurrency <C>`: posts N realistic webhook events (the
// simulator's generator) to `callsync server` (its own process, relay running against a real
// Temporal dev server) over C concurrent keep-alive connections, with real PostgreSQL. Every answer
// is timed; then the inbox is compared with what was sent (lost, duplicates) and the relay is timed
// until every row is done. In the same run it measures the local limit: the same N rows inserted
// straight into an empty table defined like the inbox, over C connections, one committed INSERT
// each. Progress goes to stderr; the last stdout line is the result as one JSON object.
import { randomBytes } from 'node:crypto';
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { Command } from 'commander';
import pg from 'pg';
import { z } from 'zod';
import { createDatabase, migrateToLatest } from '../connectors/postgres';
import { realisticEvents } from '../emulator/simulator';
import { freePort } from '../lib/free-port';
import { startTemporalDevServer } from '../local/temporal-dev-server';
import { readyLine, stopChild } from '../lib/child-process';
import { benchDatabase, benchScratch } from './bench-database';
import { runBenchmark } from './run';

const ACCOUNT = 'bench';
const RAW_TABLE = 'bench_inbox_raw';
const ROOT = resolve(__dirname, '..');

const optionsSchema = z.object({
  events: z.coerce.number().int().min(1).max(2_000_000),
  concurrency: z.coerce.number().int().min(1).max(1000),
  seed: z.coerce.number().int().min(0),
  drainTimeout: z.coerce.number().int().min(1),
});

const log = (message: string): void => void process.stderr.write(`[bench:webhooks] ${message}\n`);

/** CPU seconds (user + system) a process has used so far. */
function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100; // utime, stime in clock ticks (USER_HZ = 100)
}

function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return NaN;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i] as number;
}

/** POSTs a body over the keep-alive agent; resolves with the status. */
function postOnce(agent: http.Agent, url: URL, body: Buffer): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        agent,
        hostname: url.hostname,
        port: url.port,
        path: url.pathname,
        method: 'POST',
        headers: { 'content-type': 'application/json', 'content-length': body.length },
      },
      (res) => {
        res.resume();
        res.once('end', () => resolve(res.statusCode ?? 0));
        res.once('error', reject);
      },
    );
    req.once('error', reject);
    req.end(body);
  });
}

interface PostResult {
  seconds: number;
  latenciesMs: Float64Array;
  retries: number;
  statuses: Record<string, number>;
  lastAckAt: number;
}

/** Sends every body once (retrying 5xx and connection errors, as the platform would) over C workers. */
async function postAll(url: URL, bodies: Buffer[], concurrency: number): Promise<PostResult> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency, maxFreeSockets: concurrency });
  const latencies = new Float64Array(bodies.length);
  const statuses: Record<string, number> = {};
  let next = 0;
  let retries = 0;
  let lastAckAt = 0;
  const started = performance.now();
  const worker = async (): Promise<void> => {
    for (;;) {
      const i = next++;
      if (i >= bodies.length) return;
      const body = bodies[i] as Buffer;
      for (let attempt = 0; ; attempt++) {
        const t0 = performance.now();
        let status: number;
        try {
          status = await postOnce(agent, url, body);
        } catch {
          status = 0;
        }
        const t1 = performance.now();
        statuses[String(status)] = (statuses[String(status)] ?? 0) + 1;
        if (status >= 200 && status < 300) {
          latencies[i] = t1 - t0;
          lastAckAt = Math.max(lastAckAt, t1);
          break;
        }
        if ((status !== 0 && status < 500) || attempt >= 20) {
          throw new Error(`event ${i} answered ${status} after ${attempt + 1} attempts`);
        }
        retries++;
        await new Promise((r) => setTimeout(r, 50 * (attempt + 1)));
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  const seconds = (performance.now() - started) / 1000;
  agent.destroy();
  return { seconds, latenciesMs: latencies.sort(), retries, statuses, lastAckAt };
}

/** N single-row committed INSERTs into a table like the inbox, over C connections. */
async function rawInserts(
  url: string,
  rows: Array<[string, string, string, number | null, string]>,
  concurrency: number,
): Promise<{ seconds: number; latenciesMs: Float64Array }> {
  const pool = new pg.Pool({ connectionString: url, max: concurrency, application_name: 'bench-raw' });
  try {
    // Open every connection first: the measurement is of inserts, not of connecting.
    const clients = await Promise.all(Array.from({ length: concurrency }, () => pool.connect()));
    const latencies = new Float64Array(rows.length);
    let next = 0;
    const started = performance.now();
    await Promise.all(
      clients.map(async (client) => {
        for (;;) {
          const i = next++;
          if (i >= rows.length) return;
          const t0 = performance.now();
          await client.query({
            name: 'bench_raw_insert',
            text: `INSERT INTO ${RAW_TABLE} (account, event_id, event_name, call_id, body) VALUES ($1, $2, $3, $4, $5::jsonb)`,
            values: rows[i]!,
          });
          latencies[i] = performance.now() - t0;
        }
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    for (const c of clients) c.release();
    return { seconds, latenciesMs: latencies.sort() };
  } finally {
    await pool.end();
  }
}

async function main(): Promise<Record<string, unknown>> {
  const program = new Command()
    .option('--events <n>', 'webhook events to post', '50000')
    .option('--concurrency <n>', 'concurrent connections (and baseline connections)', '64')
    .option('--seed <n>', 'event generator seed', '1')
    .option('--drain-timeout <s>', 'longest wait for the relay to drain, in seconds', '1800')
    .parse(process.argv);
  const opts = optionsSchema.parse(program.opts());
  const N = opts.events;
  const C = opts.concurrency;
  const { temp, cleanups, cleanup } = benchScratch('webhooks', log);
  try {
    const databaseUrl = await benchDatabase({
      name: 'bench_webhooks',
      scratch: temp,
      settings: [`max_connections=${C + 50}`, 'shared_buffers=256MB'],
      describe: 'default durability: fsync and synchronous_commit on',
      log,
      cleanups,
    });
    const warehouse = createDatabase(databaseUrl, { max: 4 });
    cleanups.push(() => warehouse.close());
    await migrateToLatest(warehouse.db);

    log('starting Temporal dev server');
    const temporal = await startTemporalDevServer();
    cleanups.push(() => temporal.stop());

    const secret = randomBytes(24).toString('hex');
    const configFile = join(temp, 'callsync.json');
    writeFileSync(
      configFile,
      JSON.stringify({
        allowInlineSecrets: true, // a local bench: the emulator's key and fresh secrets are inline
        accounts: [
          {
            name: ACCOUNT,
            // The server never calls the platform; the account only needs to be well-formed.
            platform: {
              baseUrl: 'http://127.0.0.1:9/v1.1/voipstudio',
              credentials: { type: 'apiKey', userId: 1, apiKey: 'unused-by-the-receiver' },
            },
            webhookSecret: secret,
          },
        ],
        database: { url: databaseUrl },
        temporal: {
          address: temporal.address,
          taskQueue: `bench-webhooks-${process.pid}`,
          // Required since payloads to Temporal are encrypted; the relay's signals pay for it, as in production.
          encryption: {
            keys: [{ id: 'bench', key: randomBytes(32).toString('base64') }],
            activeKeyId: 'bench',
          },
        },
        logLevel: 'warn',
      }),
      { mode: 0o600 },
    );
    const port = await freePort();
    const server = spawn(
      process.execPath,
      [
        // e.g. BENCH_SERVER_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof" to profile the server.
        ...(process.env.BENCH_SERVER_NODE_ARGS ?? '').split(' ').filter(Boolean),
        '--import',
        'tsx',
        'cli/main.ts',
        '--config',
        configFile,
        'server',
        '--port',
        String(port),
        ...(process.env.BENCH_NO_RELAY ? ['--no-relay'] : []),
      ],
      { cwd: ROOT, env: { ...process.env, DATABASE_URL: '' }, stdio: ['ignore', 'pipe', 'inherit'] },
    );
    cleanups.push(() => stopChild(server));
    const ready = (await readyLine(server, 'server')) as { url: string };
    const url = new URL(`${ready.url}/webhooks/${ACCOUNT}/${secret}`);
    log(`server ready at ${ready.url} (pid ${server.pid})`);

    log(`generating ${N} events (seed ${opts.seed})`);
    const events = realisticEvents(N, opts.seed);
    const bodies = events.map((e) => Buffer.from(JSON.stringify(e)));
    const sentIds = new Set(events.map((e) => e.id));
    if (sentIds.size !== N) throw new Error(`the generator repeated ids: ${N - sentIds.size}`);

    // Warm-up (JIT, connections) with test events, which the receiver acknowledges without storing.
    const warm = Array.from({ length: Math.min(2000, N) }, (_, i) =>
      Buffer.from(
        JSON.stringify({ id: `warm-${i}`, event_name: 'webhook.test', event_time: '2026-11-30 10:00:00' }),
      ),
    );
    await postAll(url, warm, C);

    await warehouse.pool.query('CHECKPOINT');
    log(`posting ${N} events over ${C} connections`);
    const load0 = loadavg()[0] as number;
    const serverCpu0 = cpuSeconds(server.pid as number);
    const ownCpu0 = process.cpuUsage();
    const posted = await postAll(url, bodies, C);
    const serverCpuUs = ((cpuSeconds(server.pid as number) - serverCpu0) * 1e6) / N;
    const own = process.cpuUsage(ownCpu0);
    log(
      `CPU per event: server ${serverCpuUs.toFixed(0)} µs, bench client ${((own.user + own.system) / N).toFixed(0)} µs`,
    );
    const acceptedPerS = N / posted.seconds;
    const { rows: relayedRows } = await warehouse.pool.query<{ n: string }>(
      "SELECT count(*) AS n FROM webhook_inbox WHERE account = $1 AND status = 'done'",
      [ACCOUNT],
    );
    log(`relayed while posting: ${relayedRows[0]!.n} of ${N}`);
    log(
      `accepted ${N} in ${posted.seconds.toFixed(2)} s (${Math.round(acceptedPerS)}/s), p50 ${percentile(posted.latenciesMs, 50).toFixed(1)} ms, p99 ${percentile(posted.latenciesMs, 99).toFixed(1)} ms, retries ${posted.retries}, statuses ${JSON.stringify(posted.statuses)}`,
    );

    log('waiting for the relay to drain the inbox into Temporal');
    let drainedAt = 0;
    const deadline = Date.now() + opts.drainTimeout * 1000;
    let lastReport = 0;
    for (;;) {
      if (process.env.BENCH_NO_RELAY) break;
      const { rows } = await warehouse.pool.query<{ n: string }>(
        "SELECT count(*) AS n FROM webhook_inbox WHERE account = $1 AND status <> 'done'",
        [ACCOUNT],
      );
      const open = Number(rows[0]!.n);
      if (open === 0) {
        drainedAt = performance.now();
        break;
      }
      if (Date.now() > deadline)
        throw new Error(`relay did not drain within ${opts.drainTimeout} s (${open} rows open)`);
      if (Date.now() - lastReport > 5000) {
        log(`  ${open} rows still pending`);
        lastReport = Date.now();
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    const relayDrainedS = Math.max(0, (drainedAt - posted.lastAckAt) / 1000);
    log(`relay drained ${relayDrainedS.toFixed(1)} s after the last acknowledgement`);
    const load1 = loadavg()[0] as number;

    const { rows: stored } = await warehouse.pool.query<{ event_id: string; n: string }>(
      'SELECT event_id, count(*) AS n FROM webhook_inbox WHERE account = $1 GROUP BY event_id',
      [ACCOUNT],
    );
    let duplicates = 0;
    const storedIds = new Set<string>();
    for (const r of stored) {
      storedIds.add(r.event_id);
      duplicates += Number(r.n) - 1;
      if (!sentIds.has(r.event_id)) duplicates++; // a row nobody sent
    }
    let lost = 0;
    for (const id of sentIds) if (!storedIds.has(id)) lost++;
    await stopChild(server);

    log(
      `baseline: ${N} single-row committed INSERTs into an empty table like webhook_inbox, ${C} connections`,
    );
    await warehouse.pool.query(`CREATE TABLE ${RAW_TABLE} (LIKE webhook_inbox INCLUDING ALL)`);
    await warehouse.pool.query('CHECKPOINT');
    const rows = events.map((e, i): [string, string, string, number | null, string] => [
      ACCOUNT,
      e.id,
      e.event_name,
      typeof e.call_id === 'number' ? e.call_id : null,
      (bodies[i] as Buffer).toString('utf8'),
    ]);
    const raw = await rawInserts(databaseUrl, rows, C);
    const rawPerS = N / raw.seconds;
    log(
      `baseline took ${raw.seconds.toFixed(2)} s (${Math.round(rawPerS)}/s), p50 ${percentile(raw.latenciesMs, 50).toFixed(1)} ms, p99 ${percentile(raw.latenciesMs, 99).toFixed(1)} ms`,
    );
    log(
      `load average (1 min): ${load0.toFixed(2)} before posting, ${load1.toFixed(2)} after draining, ${(loadavg()[0] as number).toFixed(2)} now`,
    );

    const result = {
      bench: 'webhooks',
      events: N,
      accepted_per_s: Math.round(acceptedPerS),
      raw_insert_per_s: Math.round(rawPerS),
      ratio_to_raw: Number((acceptedPerS / rawPerS).toFixed(3)),
      p50_ms: Number(percentile(posted.latenciesMs, 50).toFixed(2)),
      p99_ms: Number(percentile(posted.latenciesMs, 99).toFixed(2)),
      lost,
      duplicates,
      relay_drained_s: Number(relayDrainedS.toFixed(2)),
    };
    await cleanup();
    return result;
  } catch (err) {
    await cleanup();
    throw err;
  }
}

runBenchmark('bench:webhooks', main);
