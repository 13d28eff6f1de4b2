// Onboarding without a restart, all real (PostgreSQL, the Temporal dev server, the emulator): a
// running worker (the product's reloading worker runtime, what `callsync worker` runs) takes in an
// account stored after it started, and that account's schedule syncs rows for it. Re-adding the same
// content changes nothing; the stored row holds no credential in clear.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { buildProgram } from '../../cli/main';
import { parseTestConfig } from '../support/test-config';
import { createDatabase, getStoredAccount, type WarehouseDatabase } from '../../connectors/postgres';
import { DEFAULT_NOW, startEmulator } from '../../emulator';
import { silentLogger } from '../../lib/logger';
import { startTemporalDevServer, type RunningTemporal } from '../../local/temporal-dev-server';
import { onboardAccount } from '../../runtime/onboarding';
import { startReloadingWorker, type ReloadingWorker } from '../../runtime/reloading-worker';
import { temporalDataConverter } from '../../runtime/temporal-encryption';
import { eventually } from '../support/eventually';
import { quietTemporalRuntime } from '../support/temporal-runtime';
import { harnessEncryption } from './sync-harness';
import { createTestDatabase, type TestDatabase } from './warehouse-db';

jest.setTimeout(120_000);

describe('an account added while the worker runs', () => {
  let emulator: Awaited<ReturnType<typeof startEmulator>>;
  let temporal: RunningTemporal;
  let database: TestDatabase;
  let warehouse: WarehouseDatabase;
  let connection: Connection;
  let worker: ReloadingWorker | undefined;

  beforeAll(async () => {
    quietTemporalRuntime();
    [emulator, temporal, database] = await Promise.all([
      startEmulator({ port: 0, seed: 5, cdrs: 5, now: DEFAULT_NOW }),
      startTemporalDevServer(),
      createTestDatabase('onboarding'),
    ]);
    warehouse = createDatabase(database.url);
    connection = await Connection.connect({ address: temporal.address });
  }, 90_000);

  afterAll(async () => {
    worker?.shutdown();
    await worker?.done;
    await connection?.close();
    await warehouse?.close();
    await database?.drop();
    await temporal?.stop();
    await emulator?.close();
  });

  it('is synced by the running worker, without a restart', async () => {
    const platform = {
      baseUrl: emulator.baseUrl,
      credentials: { type: 'apiKey', userId: emulator.admin.user_id, apiKey: emulator.admin.api_key },
      requestsPerSecond: 500,
    };
    const fileInput = {
      accounts: [{ name: 'acme', platform }],
      database: { url: database.url },
      temporal: { address: temporal.address, taskQueue: 'onboarding-test', encryption: harnessEncryption() },
      sync: { streams: ['users'] },
      logLevel: 'silent',
    };
    const fileConfig = parseTestConfig(fileInput);
    const bundle = process.env.CALLSYNC_TEST_WORKFLOW_BUNDLE;
    worker = await startReloadingWorker({
      fileConfig,
      databaseUrl: database.url,
      address: temporal.address,
      logger: silentLogger,
      pollMs: 200,
      ...(bundle ? { workflowBundlePath: bundle } : {}),
    });
    expect(worker.generations()).toBe(1);
    const client = new Client({ connection, dataConverter: temporalDataConverter(fileConfig.temporal) });

    // `callsync accounts add`, as a user runs it (in this process, so its output can be read).
    const scratch = mkdtempSync(join(tmpdir(), 'callsync-onboarding-'));
    const configFile = join(scratch, 'callsync.json');
    // A test setup: its secrets inline, as only a local setup may write them.
    writeFileSync(configFile, JSON.stringify({ allowInlineSecrets: true, ...fileInput }), { mode: 0o600 });
    const accountFile = join(scratch, 'globex.json');
    writeFileSync(accountFile, JSON.stringify({ platform }), { mode: 0o600 });
    const badFile = join(scratch, 'bad.json');
    writeFileSync(badFile, JSON.stringify({ platform: { ...platform, credentials: { type: 'apiKey' } } }));
    const cli = async (...args: string[]): Promise<string> => {
      const out: string[] = [];
      const write = jest.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
        out.push(String(chunk));
        return true;
      });
      // The environment's DATABASE_URL (the test server's) would override the file's database.
      const serverUrl = process.env.DATABASE_URL;
      process.env.DATABASE_URL = database.url;
      try {
        await buildProgram().parseAsync(['node', 'callsync', '--config', configFile, ...args]);
      } finally {
        process.env.DATABASE_URL = serverUrl;
        write.mockRestore();
      }
      return out.join('');
    };
    await expect(cli('accounts', 'add', '--name', 'globex', '--file', badFile)).rejects.toThrow(
      /platform\.credentials\.userId/,
    );
    expect(await cli('accounts', 'add', '--name', 'globex', '--file', accountFile)).toMatch(
      /^account globex added; sync loops: 2 started, 0 updated, 0 deleted, 0 unchanged/,
    );
    await expect(cli('accounts', 'add', '--name', 'acme', '--file', accountFile)).rejects.toThrow(
      /"acme" is an account of the config file/,
    );

    // The new account's first scheduled sync runs on the worker that was already running.
    const rows = await eventually(
      async () => {
        const r = await warehouse.db
          .selectFrom('users')
          .select((eb) => eb.fn.countAll<string>().as('n'))
          .where('account', '=', 'globex')
          .executeTakeFirstOrThrow();
        return Number(r.n) > 0 ? Number(r.n) : undefined;
      },
      "globex's users in the warehouse",
      60_000,
    );
    expect(rows).toBeGreaterThan(0);
    expect(worker.generations()).toBe(2);

    expect(await cli('accounts', 'list')).toMatch(/^acme\tconfig file\nglobex\tstored\tupdated /);
    const stored = await getStoredAccount(warehouse.db, 'globex');
    expect(stored?.sealed_config).not.toContain(emulator.admin.api_key);
    const again = await onboardAccount({
      db: warehouse.db,
      client,
      fileConfig,
      name: 'globex',
      input: { platform },
    });
    expect(again.outcome).toBe('unchanged');
    expect(again.schedules.created).toEqual([]);
    expect((await getStoredAccount(warehouse.db, 'globex'))?.version).toBe(stored?.version);
  });
});
