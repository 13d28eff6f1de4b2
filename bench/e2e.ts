// bench:e2e — simulator → webhooks → receiver → relay → call workflows → CRM (a CRM's test server,
// enforcing its vendor's documented limits: bench/e2e-crms.ts).
// Times run from a call's CDR becoming available on the platform to its CRM call log existing.
// Usage: npm run bench:e2e -- [--calls 3000] [--rate 10] [--crm hubspot|salesforce|…]
//   (rate = calls placed per second). Prints, besides throughput and latency, the CRM requests per
//   call and the vendor's rate-limit refusals (429, Salesforce REQUEST_LIMIT_EXCEEDED).
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Client } from '@temporalio/client';
import { DefaultLogger, Runtime } from '@temporalio/worker';
import { parseConfig } from '../config/load';
import { destinationIdOf } from '../connectors/crm/crm-connector';
import { DEFAULT_NOW, startEmulator } from '../emulator';
import { silentLogger } from '../lib/logger';
import { startEmbeddedPostgres } from '../local/embedded-postgres';
import { startTemporalDevServer } from '../local/temporal-dev-server';
import { createActivityDeps } from '../runtime/activity-deps';
import { connectTemporalClient } from '../runtime/temporal-connection';
import { createWorker } from '../runtime/worker';
import { startServer } from '../server';
import { BENCH_CRMS } from './e2e-crms';
import { historyStats } from './history-stats';
import { runBenchmark } from './run';
import { screenPopTiming, warmContactCache } from './screen-pop-timing';

const SCENARIOS = [
  'inbound_answered',
  'inbound_answered',
  'inbound_queue_answered',
  'outbound_answered',
  'inbound_queue_missed',
  'inbound_missed',
  'inbound_voicemail',
  'outbound_failed',
  'hold_unhold',
  'blind_transfer',
];
const SECRET = 'bench-e2e-webhook-secret-000000';
/** How long the bench waits, after the last call, for logs to keep arriving before it counts the rest missing. */
const QUIET_MS = 120_000;

const say = (m: string) => process.stderr.write(`bench:e2e ${m}\n`);
const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;

async function main(): Promise<Record<string, unknown>> {
  const { values } = parseArgs({
    options: {
      calls: { type: 'string', default: '3000' },
      rate: { type: 'string', default: '10' },
      crm: { type: 'string', default: 'hubspot' },
      // Sums every workflow's history after the run, to stderr: where Temporal's work went.
      'history-stats': { type: 'boolean', default: false },
    },
  });
  const calls = Number(values.calls);
  const rate = Number(values.rate);
  const vendor = values.crm;
  const startCrm = BENCH_CRMS[vendor];
  if (!startCrm) throw new Error(`--crm must be one of ${Object.keys(BENCH_CRMS).join(', ')}, not ${vendor}`);
  Runtime.install({ logger: new DefaultLogger('ERROR') });

  const scratch = mkdtempSync(join(tmpdir(), 'callsync-bench-e2e-'));
  const pg = process.env.DATABASE_URL
    ? undefined
    : await startEmbeddedPostgres({ dataDir: join(scratch, 'pg'), persistent: false });
  const databaseUrl = process.env.DATABASE_URL ?? pg!.url;
  const temporal = await startTemporalDevServer();
  const emulator = await startEmulator({ port: 0, seed: 3, cdrs: 1000, now: DEFAULT_NOW });
  const crm = await startCrm();
  say(`services up (crm ${vendor})`);

  const config = parseConfig({
    allowInlineSecrets: true, // a local bench: the emulator's key and fresh secrets are inline
    accounts: [
      {
        name: 'acme',
        webhookSecret: SECRET,
        platform: {
          baseUrl: emulator.baseUrl,
          credentials: { type: 'apiKey', userId: emulator.admin.user_id, apiKey: emulator.admin.api_key },
          requestsPerSecond: 200,
        },
      },
    ],
    temporal: {
      address: temporal.address,
      taskQueue: 'bench-e2e',
      encryption: { keys: [{ id: 'bench', key: randomBytes(32).toString('base64') }], activeKeyId: 'bench' },
    },
    crm: { destination: crm.destination },
    archive: { dir: join(scratch, 'archive') },
    logLevel: 'silent',
  });
  // createActivityDeps prepares the portal (callsync_key), as `callsync worker` does.
  const deps = await createActivityDeps(config, databaseUrl, silentLogger);
  const { worker, connection: workerConnection } = await createWorker({
    address: temporal.address,
    namespace: 'default',
    taskQueue: 'bench-e2e',
    deps,
    maxConcurrentActivities: 64,
  });
  const running = worker.run();
  const client = new Client({
    connection: await connectTemporalClient({ address: temporal.address, namespace: 'default' }),
  });
  const screenPops = screenPopTiming(emulator.store);
  const server = await startServer({
    observeFastPath: screenPops.observe,
    accounts: config.accounts,
    databaseUrl,
    port: 0,
    host: '127.0.0.1',
    logger: silentLogger,
    temporal: { client, taskQueue: 'bench-e2e' },
  });
  const control = async (path: string, body: unknown) => {
    const res = await fetch(`${emulator.origin}/_emulator${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (res.status >= 300) throw new Error(`${path}: ${res.status} ${await res.text()}`);
    return (await res.json()) as { call_id: number };
  };
  await control('/webhooks', {
    name: 'callsync',
    categories: ['call_state_change'],
    url: server.webhookUrl('acme', SECRET),
  });
  await fetch(`${emulator.origin}/_emulator/simulator`, {
    method: 'PATCH',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ speed: 60, advance_clock: false }),
  });

  // When each call's CDR appears on the platform, and when its CRM log first exists.
  const cdrAt = new Map<number, number>();
  emulator.store.onChange((e) => {
    if (
      e.table === 'cdrs' &&
      e.op === 'insert' &&
      typeof e.row.live_id === 'number' &&
      !cdrAt.has(e.row.live_id)
    ) {
      cdrAt.set(e.row.live_id, Date.now());
    }
  });
  const logAt = new Map<number, number>();
  const logsPerCall = new Map<number, number>();
  const watch = setInterval(() => {
    logsPerCall.clear();
    for (const key of crm.callLogKeys()) {
      const id = Number((typeof key === 'string' ? key : '').split(':')[1]);
      if (!Number.isFinite(id)) continue;
      logsPerCall.set(id, (logsPerCall.get(id) ?? 0) + 1);
      if (!logAt.has(id)) logAt.set(id, Date.now());
    }
  }, 25);

  const customer = emulator.admin.customer_id;
  const numbers = emulator.store.tables.contacts
    .query(customer, { page: 1, limit: 500, filter: [] })
    .data.map((c) => c.tel)
    .filter((t): t is string => typeof t === 'string' && /^\+\d{9,}$/.test(t));
  // The CRM knows the callers (each log is matched to, and associated with, its contact), and the
  // contact cache knows them as the contact sync leaves it (screen-pop reads the cache).
  const cache = { account: 'acme', destination: destinationIdOf(deps.crm('acme')) };
  await warmContactCache(deps.warehouse.db, cache, numbers, (phone, i) => crm.seedContact(phone, i));
  const started = Date.now();
  const requestsBefore = crm.counters.requests;
  const limitedBefore = crm.counters.limited;
  const placed: number[] = [];
  for (let i = 0; i < calls; i++) {
    const scenario = SCENARIOS[i % SCENARIOS.length]!;
    const p = await control('/simulator/calls', {
      scenario,
      caller: numbers[i % numbers.length],
      recorded: false,
    });
    placed.push(p.call_id);
    const due = started + ((i + 1) * 1000) / rate;
    if (due > Date.now()) await new Promise((r) => setTimeout(r, due - Date.now()));
  }
  say(`placed ${calls} calls`);
  // Waits while logs keep coming: a vendor whose limit carries fewer calls a second than the bench
  // offers (Pipedrive's API-token burst) works off its backlog; a log still missing after two quiet
  // minutes is missing.
  let logged = logAt.size;
  let progressAt = Date.now();
  while (placed.some((id) => !logAt.has(id)) && Date.now() - progressAt < QUIET_MS) {
    await new Promise((r) => setTimeout(r, 100));
    if (logAt.size > logged) [logged, progressAt] = [logAt.size, Date.now()];
  }
  const finished = Math.max(...placed.map((id) => logAt.get(id) ?? Date.now()));
  clearInterval(watch);
  // The callback tasks of the last missed calls are written just after their logs.
  await new Promise((r) => setTimeout(r, 3000));
  const requests = crm.counters.requests - requestsBefore;
  // Which endpoints the requests went to, to see where a run's requests went.
  const byEndpoint = new Map<string, number>();
  for (const r of crm.requests) {
    const k = `${r.method} ${r.path.split('?')[0]!.replace(/\/\d{3,}[A-Z0-9]*$/, '/:id')} ${r.status}`;
    byEndpoint.set(k, (byEndpoint.get(k) ?? 0) + 1);
  }
  say(`requests by endpoint: ${JSON.stringify(Object.fromEntries(byEndpoint))}`);

  const latencies = placed
    .filter((id) => logAt.has(id) && cdrAt.has(id))
    .map((id) => logAt.get(id)! - cdrAt.get(id)!)
    .sort((a, b) => a - b);
  const result = {
    bench: 'e2e',
    calls,
    calls_per_s: Math.round((calls / ((finished - started) / 1000)) * 100) / 100,
    p50_ms: percentile(latencies, 50),
    p95_ms: percentile(latencies, 95),
    missing_logs: placed.filter((id) => !logAt.has(id)).length,
    duplicate_logs: placed.reduce((n, id) => n + Math.max(0, (logsPerCall.get(id) ?? 0) - 1), 0),
    crm: vendor,
    crm_requests_per_call: Math.round((requests / calls) * 1000) / 1000,
    http_429: crm.counters.limited - limitedBefore,
    screenpop_p95_ms: percentile(screenPops.latencies(), 95),
    screenpops_missing: screenPops.missing(),
  };

  if (values['history-stats']) say(`history: ${JSON.stringify(await historyStats(client))}`);
  worker.shutdown();
  await running;
  await workerConnection.close();
  await server.close();
  await client.connection.close();
  await deps.close();
  await crm.close();
  await emulator.close();
  await temporal.stop();
  await pg?.stop();
  return result;
}

runBenchmark('bench:e2e', main);
