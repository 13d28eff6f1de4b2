// bench:e2e — simulator → webhooks → receiver → relay → call workflows → CRM (the HubSpot test server).
// Times run from a call's CDR becoming available on the platform to its CRM call log existing.
// Usage: npm run bench:e2e -- [--calls 200] [--rate 10]   (rate = calls placed per second)
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Client } from '@temporalio/client';
import { DefaultLogger, Runtime } from '@temporalio/worker';
import { parseConfig } from '../config/load';
import { DEFAULT_NOW, startEmulator } from '../emulator';
import { silentLogger } from '../lib/logger';
import { startEmbeddedPostgres } from '../local/embedded-postgres';
import { startTemporalDevServer } from '../local/temporal-dev-server';
import { createActivityDeps } from '../runtime/activity-deps';
import { connectTemporalClient } from '../runtime/temporal-connection';
import { createWorker } from '../runtime/worker';
import { startServer } from '../server';
import { startFakeHubSpot } from '../test/fakes/hubspot-server';
import { runBenchmark } from './run';

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

const say = (m: string) => process.stderr.write(`bench:e2e ${m}\n`);
const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;

async function main(): Promise<Record<string, unknown>> {
  const { values } = parseArgs({
    options: { calls: { type: 'string', default: '200' }, rate: { type: 'string', default: '10' } },
  });
  const calls = Number(values.calls);
  const rate = Number(values.rate);
  Runtime.install({ logger: new DefaultLogger('ERROR') });

  const scratch = mkdtempSync(join(tmpdir(), 'callsync-bench-e2e-'));
  const pg = process.env.DATABASE_URL
    ? undefined
    : await startEmbeddedPostgres({ dataDir: join(scratch, 'pg'), persistent: false });
  const databaseUrl = process.env.DATABASE_URL ?? pg!.url;
  const temporal = await startTemporalDevServer();
  const emulator = await startEmulator({ port: 0, seed: 3, cdrs: 1000, now: DEFAULT_NOW });
  const hubspot = await startFakeHubSpot();
  say('services up');

  const config = parseConfig({
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
    temporal: { address: temporal.address, taskQueue: 'bench-e2e' },
    crm: {
      destination: {
        type: 'hubspot',
        accessToken: hubspot.token,
        basePath: hubspot.url,
        requestsPer10Seconds: 1000,
      },
    },
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
  const server = await startServer({
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
    for (const o of hubspot.objects('calls')) {
      const id = Number(String(o.properties.callsync_key ?? '').split(':')[1]);
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
  const started = Date.now();
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
  const deadline = Date.now() + 120_000;
  while (placed.some((id) => !logAt.has(id)) && Date.now() < deadline)
    await new Promise((r) => setTimeout(r, 100));
  const finished = Math.max(...placed.map((id) => logAt.get(id) ?? Date.now()));
  clearInterval(watch);

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
  };

  worker.shutdown();
  await running;
  await workerConnection.close();
  await server.close();
  await client.connection.close();
  await deps.close();
  await hubspot.close();
  await emulator.close();
  await temporal.stop();
  await pg?.stop();
  return result;
}

runBenchmark('bench:e2e', main);
