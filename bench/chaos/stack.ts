// The stack of a chaos run: one embedded PostgreSQL and one Temporal dev server (both restartable
// on the same data and port), the emulator and the HubSpot test server in this process, and the
// callsync processes: two workers and two receivers (each relaying), behind a load balancer.
import { randomBytes } from 'node:crypto';
import { chmodSync, createWriteStream, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@temporalio/client';
import { parseConfig } from '../../config/load';
import type { CallsyncConfig } from '../../config/schema';
import { createDatabase, type WarehouseDatabase } from '../../connectors/postgres';
import { DEFAULT_NOW, startEmulator } from '../../emulator';
import { freePort } from '../../lib/free-port';
import { startEmbeddedPostgres, type RunningPostgres } from '../../local/embedded-postgres';
import { startTemporalDevServer, type RunningTemporal } from '../../local/temporal-dev-server';
import { connectTemporalClient } from '../../runtime/temporal-connection';
import { temporalDataConverter } from '../../runtime/temporal-encryption';
import { startFakeHubSpot, type FakeHubSpot } from '../../test/fakes/hubspot-server';
import { startBalancer, type Balancer } from './balancer';
import { killHard, spawnCallsync, stopGracefully, type CallsyncProcess } from './processes';

export const ACCOUNT = 'acme';
export const TASK_QUEUE = 'chaos';
export type Slot = 'a' | 'b';

export interface StackOptions {
  cdrs: number;
  seed: number;
  /** The run's scratch directory (PostgreSQL, Temporal's database, logs, config). */
  scratch: string;
  log: (message: string) => void;
}

export interface ChaosStack {
  emulator: Awaited<ReturnType<typeof startEmulator>>;
  hubspot: FakeHubSpot;
  balancer: Balancer;
  config: CallsyncConfig;
  /** The harness's own Temporal client (encrypting like callsync's). */
  client: Client;
  /** The harness's own pool on the warehouse (for the checks). */
  warehouse: WarehouseDatabase;
  webhookSecret: string;
  /** Every process each slot has run, oldest first. */
  workers: Record<Slot, CallsyncProcess[]>;
  receivers: Record<Slot, CallsyncProcess[]>;
  /** Pids of each PostgreSQL and Temporal server this run started (a restart adds one). */
  postgresPids: number[];
  temporalPids: number[];
  /** Everything the run knows that must stay secret. */
  secrets(): string[];
  /** Every log file of every process (callsync's, PostgreSQL's, Temporal's). */
  logFiles(): string[];
  /** Files that must hold no secret besides logs (Temporal's database: every history). */
  otherFiles(): string[];
  /** The processes' config file: it holds the secrets (the secret search must find them there). */
  configFile: string;
  killWorker(slot: Slot): Promise<NodeJS.Signals | null>;
  startWorker(slot: Slot): Promise<void>;
  restartReceiver(slot: Slot): Promise<void>;
  restartPostgres(): Promise<void>;
  restartTemporal(): Promise<void>;
  close(): Promise<void>;
}

/** A log file a callback appends to (for the servers started in this process). */
function appender(file: string): { write: (line: string) => void; close: () => void } {
  const out = createWriteStream(file, { flags: 'a' });
  return {
    write: (line) => void out.write(line.endsWith('\n') ? line : `${line}\n`),
    close: () => out.end(),
  };
}

function pidOf(file: string): number {
  return Number(readFileSync(file, 'utf8').split('\n')[0]);
}

export async function startChaosStack(opts: StackOptions): Promise<ChaosStack> {
  const { scratch, log } = opts;
  const logDir = join(scratch, 'logs');
  mkdirSync(logDir, { recursive: true });
  chmodSync(scratch, 0o755);
  const closers: Array<() => Promise<void>> = [];
  let closed = false;
  const close = async (): Promise<void> => {
    closed = true;
    for (const c of closers.splice(0).reverse())
      await c().catch((e: unknown) => log(`cleanup: ${String(e)}`));
  };
  try {
    log(`emulator: seeding ${opts.cdrs} CDRs`);
    const emulator = await startEmulator({ port: 0, seed: opts.seed, cdrs: opts.cdrs, now: DEFAULT_NOW });
    closers.push(() => emulator.close());
    const hubspot = await startFakeHubSpot({ token: `pat-chaos-${randomBytes(12).toString('hex')}` });
    closers.push(() => hubspot.close());

    const pgDir = join(scratch, 'pg');
    const pgPort = await freePort();
    const pgLog = appender(join(logDir, 'postgres.log'));
    closers.push(async () => pgLog.close());
    const startPostgres = () =>
      startEmbeddedPostgres({
        dataDir: pgDir,
        port: pgPort,
        persistent: true,
        serverFlags: ['-c', 'max_connections=200'],
        onLog: pgLog.write,
      });
    let postgres: RunningPostgres = await startPostgres();
    closers.push(() => postgres.stop());
    const postgresPids = [pidOf(join(pgDir, 'postmaster.pid'))];

    const temporalDb = join(scratch, 'temporal.db');
    const temporalPort = await freePort();
    const ownerToken = randomBytes(8).toString('hex');
    const temporalLog = appender(join(logDir, 'temporal.log'));
    closers.push(async () => temporalLog.close());
    const pidFile = join(scratch, 'temporal.pid');
    const startTemporal = async (): Promise<RunningTemporal> => {
      const t = await startTemporalDevServer({
        port: temporalPort,
        dbFile: temporalDb,
        pidFile,
        ownerToken,
        onLog: temporalLog.write,
      });
      if (t.port !== temporalPort) {
        await t.stop();
        throw new Error(`Temporal came back on port ${t.port}, not ${temporalPort} (the port was taken)`);
      }
      return t;
    };
    let temporal = await startTemporal();
    closers.push(() => temporal.stop());
    const temporalPids = [pidOf(pidFile)];

    const webhookSecret = `chaos-webhook-${randomBytes(12).toString('hex')}`;
    const encryptionKey = randomBytes(32).toString('base64');
    const idKey = randomBytes(24).toString('base64');
    const admin = emulator.admin;
    const input = {
      allowInlineSecrets: true, // a local bench: the emulator's key and fresh secrets are inline
      accounts: [
        {
          name: ACCOUNT,
          webhookSecret,
          platform: {
            baseUrl: emulator.baseUrl,
            // Password login, so that expired tokens force real re-logins.
            credentials: { type: 'password', email: admin.email, password: admin.password },
            requestsPerSecond: 400,
          },
        },
      ],
      database: { url: postgres.url },
      temporal: {
        address: `127.0.0.1:${temporalPort}`,
        taskQueue: TASK_QUEUE,
        encryption: { keys: [{ id: 'chaos', key: encryptionKey }], activeKeyId: 'chaos', idKey },
      },
      sync: { pageSize: 2000, backfillWindow: '30d', backfillParallelism: 2 },
      crm: {
        destination: {
          type: 'hubspot',
          accessToken: hubspot.token,
          basePath: hubspot.url,
          requestsPer10Seconds: 1000,
        },
      },
      calls: { reconcileWindow: '30m' },
      archive: { dir: join(scratch, 'archive'), maxAge: '1d' },
      logLevel: 'info',
    };
    const config = parseConfig(input, 'chaos config');
    const configFile = join(scratch, 'callsync.json');
    writeFileSync(configFile, JSON.stringify(input), { mode: 0o600 });

    const warehouse = createDatabase(postgres.url, { max: 4 });
    closers.push(() => warehouse.close());
    const connection = await connectTemporalClient({ ...config.temporal, address: temporal.address });
    closers.push(() => connection.close());
    const client = new Client({ connection, dataConverter: temporalDataConverter(config.temporal) });

    const workers: Record<Slot, CallsyncProcess[]> = { a: [], b: [] };
    const receivers: Record<Slot, CallsyncProcess[]> = { a: [], b: [] };
    const spawnOpts = { configFile, dataDir: join(scratch, 'data'), logDir, timeoutMs: 180_000 };
    // A process started while the stack closes (a run past its deadline) is stopped at once.
    const unlessClosed = async (p: CallsyncProcess): Promise<CallsyncProcess> => {
      if (closed) await stopGracefully(p, 5_000);
      return p;
    };
    const startWorker = async (slot: Slot): Promise<void> => {
      const n = workers[slot].length + 1;
      workers[slot].push(
        await unlessClosed(
          await spawnCallsync({
            ...spawnOpts,
            name: `worker-${slot}-${n}`,
            args: ['worker'],
            readyText: 'worker running',
          }),
        ),
      );
    };
    const receiverPorts: Record<Slot, number> = { a: await freePort(), b: await freePort() };
    const startReceiver = async (slot: Slot): Promise<void> => {
      const n = receivers[slot].length + 1;
      receivers[slot].push(
        await unlessClosed(
          await spawnCallsync({
            ...spawnOpts,
            name: `receiver-${slot}-${n}`,
            args: ['server', '--port', String(receiverPorts[slot])],
            readyText: '"server":"ready"',
          }),
        ),
      );
    };
    closers.push(async () => {
      for (const p of [...workers.a, ...workers.b, ...receivers.a, ...receivers.b])
        await stopGracefully(p, 20_000);
    });
    log('starting two workers and two receivers (callsync worker / callsync server)');
    // The first worker migrates the warehouse; the others start after it.
    await startWorker('a');
    await Promise.all([startWorker('b'), startReceiver('a'), startReceiver('b')]);
    const balancer = await startBalancer(
      (['a', 'b'] as const).map((s) => `http://127.0.0.1:${receiverPorts[s]}`),
    );
    closers.push(() => balancer.close());

    return {
      emulator,
      hubspot,
      balancer,
      config,
      client,
      warehouse,
      webhookSecret,
      workers,
      receivers,
      postgresPids,
      temporalPids,
      secrets: () => [
        admin.password,
        admin.api_key,
        hubspot.token,
        webhookSecret,
        encryptionKey,
        idKey,
        new URL(postgres.url).password,
        ...emulator.issuedTokens(),
      ],
      logFiles: () => [
        join(logDir, 'postgres.log'),
        join(logDir, 'temporal.log'),
        ...[...workers.a, ...workers.b, ...receivers.a, ...receivers.b].map((p) => p.logFile),
      ],
      otherFiles: () => [temporalDb],
      configFile,
      async killWorker(slot) {
        const current = workers[slot].at(-1)!;
        return killHard(current);
      },
      startWorker,
      async restartReceiver(slot) {
        const code = await stopGracefully(receivers[slot].at(-1)!);
        if (code !== 0) throw new Error(`receiver ${slot} exited with ${code} when stopped`);
        await startReceiver(slot);
      },
      async restartPostgres() {
        await postgres.stop();
        postgres = await startPostgres();
        postgresPids.push(pidOf(join(pgDir, 'postmaster.pid')));
      },
      async restartTemporal() {
        await temporal.stop();
        temporal = await startTemporal();
        temporalPids.push(pidOf(pidFile));
      },
      close,
    };
  } catch (err) {
    await close();
    throw err;
  }
}
