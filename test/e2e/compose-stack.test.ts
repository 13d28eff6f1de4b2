// The deployment as shipped: docker-compose.yml and callsync.example.json, with only what docs/deployment.md
// "Deploying with docker-compose" tells a user to fill in (the account's URL and user id in
// callsync.json, the .env its commands write with the account's API key put in), run the way compose runs them (test/support/compose-services.ts): the `keys` and
// `schedules` one-offs to completion, then `server` and two `worker`s, each in its own process.
// The images compose pulls have stand-ins here: the test PostgreSQL (with the user, password and
// database the postgres service's variables make), the Temporal dev server, moto as the S3 server
// (with the bucket Garage makes) and the emulator as the platform. Calls placed on the platform
// reach `server` as webhooks and are logged once each, although one worker is killed mid-call.
import { randomBytes } from 'node:crypto';
import { readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { Client } from 'pg';
import { startEmulator } from '../../emulator';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { freePort } from '../../lib/free-port';
import { stopChild } from '../../lib/child-process';
import { startTemporalDevServer, type RunningTemporal } from '../../local/temporal-dev-server';
import { emulatorControl } from '../support/emulator-control';
import { eventually } from '../support/eventually';
import { startMoto, type RunningMoto } from '../support/moto-server';
import {
  buildImage,
  composeConfig,
  deploymentGuideEnv,
  root,
  runService,
  type Container,
  type Image,
  type StackOptions,
} from '../support/compose-services';

jest.setTimeout(600_000);

interface ExampleConfig {
  accounts: {
    name: string;
    platform: { baseUrl: string; credentials: { userId: number } };
  }[];
  server: { port: number };
  metrics: { serverPort: number; workerPort: number; temporalSdkBindAddress: string };
}

/** One container's copy of callsync.json: its own listening ports moved to the free ones it got. */
function containerPorts(target: string, text: string, ports: Map<number, number>): string {
  if (!target.endsWith('.json')) return text;
  const config = JSON.parse(text) as ExampleConfig;
  const moved = (port: number) => ports.get(port) ?? port;
  config.server.port = moved(config.server.port);
  config.metrics.serverPort = moved(config.metrics.serverPort);
  config.metrics.workerPort = moved(config.metrics.workerPort);
  const [host, sdkPort] = config.metrics.temporalSdkBindAddress.split(':') as [string, string];
  config.metrics.temporalSdkBindAddress = `${host}:${moved(Number(sdkPort))}`;
  return JSON.stringify(config);
}

const freePorts = async (...ports: number[]) =>
  new Map(await Promise.all(ports.map(async (p) => [p, await freePort()] as [number, number])));

describe('the compose stack as shipped', () => {
  let emulator: Awaited<ReturnType<typeof startEmulator>>;
  let temporal: RunningTemporal;
  let moto: RunningMoto;
  let image: Image;
  let stack: StackOptions;
  let database: { url: string; user: string; name: string };
  let secret: string;
  let server: Container;
  const workers: Container[] = [];
  const control = emulatorControl(() => emulator.origin);
  const admin = async <T>(run: (c: Client) => Promise<T>): Promise<T> => {
    const c = new Client({ connectionString: process.env.DATABASE_URL });
    await c.connect();
    try {
      return await run(c);
    } finally {
      await c.end();
    }
  };

  beforeAll(async () => {
    // The platform's clock at the real time: recordings are then within the example's archive.maxAge.
    emulator = await startEmulator({ port: 0, seed: 27, cdrs: 200, now: new Date() });
    // The emulator's key where the guide's .env says to put the platform user's API key.
    const vars: Record<string, string> = {
      ...deploymentGuideEnv(),
      ACME_PLATFORM_API_KEY: emulator.admin.api_key,
    };
    const compose = composeConfig(vars);
    temporal = await startTemporalDevServer();
    moto = await startMoto();
    // What the postgres image makes of its variables: a user with that password, owning a database.
    // Under names of this run's own (mapped below), so a shared test server's users and databases
    // (the embedded one's user is callsync too) are never touched.
    const pg = compose.services.postgres!.environment! as Record<string, string>;
    const own = `compose_${randomBytes(4).toString('hex')}`;
    database = { url: '', user: own, name: own };
    await admin(async (c) => {
      await c.query(`CREATE ROLE "${own}" LOGIN PASSWORD '${pg.POSTGRES_PASSWORD!}'`);
      await c.query(`CREATE DATABASE "${own}" OWNER "${own}"`);
    });
    // What Garage makes on first start: the bucket (moto takes any key).
    const garage = compose.services.garage!.environment! as Record<string, string>;
    await moto.createBucket(garage.GARAGE_DEFAULT_BUCKET!);

    // callsync.json: the example with the account filled in, as the guide says.
    const config = JSON.parse(readFileSync(join(root, 'callsync.example.json'), 'utf8')) as ExampleConfig;
    // The webhook secret is the one the guide's .env commands generated (the config names it).
    secret = vars.ACME_WEBHOOK_SECRET!;
    config.accounts[0]!.platform.baseUrl = emulator.baseUrl;
    config.accounts[0]!.platform.credentials.userId = emulator.admin.user_id;
    image = buildImage();
    const userConfig = join(image.scratch, 'callsync.json');
    writeFileSync(userConfig, JSON.stringify(config, null, 2));

    const pgUrl = new URL(process.env.DATABASE_URL!);
    const s3 = new URL(moto.endpoint);
    stack = {
      compose,
      image,
      hosts: {
        [`${pg.POSTGRES_USER!}:${pg.POSTGRES_PASSWORD!}@postgres:5432/${pg.POSTGRES_DB!}`]: `${own}:${pg.POSTGRES_PASSWORD!}@${pgUrl.host}/${own}`,
        'temporal:7233': temporal.address,
        'garage:3900': s3.host,
      },
      binds: { [join(root, 'callsync.json')]: userConfig },
      rewrite: containerPorts,
    };
    database.url = `postgres://${own}:${pg.POSTGRES_PASSWORD!}@${pgUrl.host}/${own}`;
  }, 600_000);

  afterAll(async () => {
    for (const c of [server, ...workers]) if (c) await stopChild(c.child, 10_000);
    await moto?.stop();
    await temporal?.stop();
    await emulator?.close();
    await admin(async (c) => {
      await c.query(`DROP DATABASE IF EXISTS "${database.name}" WITH (FORCE)`);
      await c.query(`DROP ROLE IF EXISTS "${database.user}"`);
    }).catch(() => undefined);
    if (image) rmSync(image.scratch, { recursive: true, force: true });
  });

  it('the keys one-off generates the three key files, and keeps them on a second run', async () => {
    const keys = runService(stack, 'keys');
    expect(await keys.exited).toBe(0);
    const files = ['temporal-payload.key', 'workflow-id.key', 'codec-token'].map((f) =>
      join(image.app, 'keys', f),
    );
    for (const f of files) expect(statSync(f).mode & 0o777).toBe(0o600);
    const before = files.map((f) => readFileSync(f, 'utf8'));
    expect(await runService(stack, 'keys').exited).toBe(0);
    expect(files.map((f) => readFileSync(f, 'utf8'))).toEqual(before);
  });

  it('the schedules one-off applies the schedules', async () => {
    const schedules = runService(stack, 'schedules');
    const code = await schedules.exited;
    expect({ code, output: code === 0 ? '' : schedules.output() }).toEqual({ code: 0, output: '' });
  });

  it('server refuses 0.0.0.0 without the dashboard password compose gives it', async () => {
    const refused = runService(stack, 'server', await freePorts(8788, 9466), ['CALLSYNC_DASHBOARD_PASSWORD']);
    expect(await refused.exited).not.toBe(0);
    expect(refused.output()).toContain('server.dashboard.password (or passwordFile) is not set');
  });

  it('server starts on 0.0.0.0 with the dashboard password from the environment, and passes its health check', async () => {
    server = runService(stack, 'server', await freePorts(8788, 9466));
    await server.waitFor('server listening');
    const port = server.ports.get(8788)!;
    const check = stack.compose.services.server!.healthcheck!.test.map((a) =>
      a.replace('127.0.0.1:8788', `127.0.0.1:${port}`),
    );
    expect(check[0]).toBe('CMD');
    expect(spawnSync(process.execPath, check.slice(2), { timeout: 30_000 }).status).toBe(0);
    // The dashboard is on (a password was given), not refused or off.
    const login = await fetch(`http://127.0.0.1:${port}/dashboard/login`);
    expect(login.status).toBe(200);
  });

  it('two workers log every call of the webhooks once, although one is killed mid-call', async () => {
    for (let i = 0; i < 2; i++) workers.push(runService(stack, 'worker', await freePorts(9465, 9464, 8789)));
    for (const w of workers) await w.waitFor('worker running', 300_000);
    await control('POST', '/webhooks', {
      name: 'callsync',
      categories: ['call_state_change'],
      url: `http://127.0.0.1:${server.ports.get(8788)!}/webhooks/acme/${secret}`,
    });
    const contacts = emulator.store.tables.contacts.query(emulator.admin.customer_id, {
      page: 1,
      limit: 50,
      filter: [],
    }).data;
    const callers = contacts.filter((c) => typeof c.tel === 'string' && /^\+\d{9,}$/.test(c.tel)).slice(0, 4);
    const placed: { call_id: number; ends_in_ms: number }[] = [];
    for (const [i, c] of callers.entries())
      placed.push(
        (await control('POST', '/simulator/calls', {
          scenario: 'inbound_answered',
          caller: c.tel,
          recorded: i === 0,
          talk_s: 480,
        })) as unknown as { call_id: number; ends_in_ms: number },
      );
    // Mid-call: the calls have started (their workflows run on either worker), none has ended.
    await new Promise((r) => setTimeout(r, 3000));
    workers[0]!.child.kill('SIGKILL');
    await workers[0]!.exited;
    await new Promise((r) => setTimeout(r, Math.max(...placed.map((p) => p.ends_in_ms)) + 1500));
    await control('POST', '/webhooks/deliveries/wait', { timeout_ms: 30_000 });

    const pg = new Client({ connectionString: database.url });
    await pg.connect();
    try {
      for (const p of placed) {
        const rows = await eventually(
          async () => {
            const r = await pg.query('SELECT key FROM builtin_call_logs WHERE key = $1', [
              `acme:${p.call_id}`,
            ]);
            return r.rows.length > 0 ? r.rows : undefined;
          },
          `the call log of call ${p.call_id}`,
          180_000,
        );
        expect(rows).toHaveLength(1);
      }
      // They came as webhooks: every delivery to server was acknowledged, and its relay handed each
      // call's events to Temporal.
      const deliveries = (await control('GET', '/webhooks/deliveries')) as {
        data: { call_id: number; ok: boolean }[];
      };
      for (const p of placed) {
        const mine = deliveries.data.filter((d) => d.call_id === p.call_id);
        expect(mine.length).toBeGreaterThan(0);
        expect(mine.every((d) => d.ok)).toBe(true);
        const inbox = await pg.query<{ status: string }>(
          "SELECT status FROM webhook_inbox WHERE account = 'acme' AND call_id = $1",
          [p.call_id],
        );
        expect(inbox.rows.length).toBeGreaterThan(0);
        expect(new Set(inbox.rows.map((r) => r.status))).toEqual(new Set(['done']));
      }
    } finally {
      await pg.end();
    }
    expect(workers[1]!.child.exitCode).toBeNull();

    // The recorded call's audio went to the S3 server under the example's prefix, signed with the
    // key from the environment (moto stands in for Garage at garage:3900).
    const s3 = new S3Client({
      endpoint: moto.endpoint,
      region: 'garage',
      forcePathStyle: true,
      credentials: { accessKeyId: 'any', secretAccessKey: 'any' },
    });
    const bucket = (stack.compose.services.garage!.environment! as Record<string, string>)
      .GARAGE_DEFAULT_BUCKET!;
    const objects = await eventually(
      async () => {
        const listed = await s3.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: 'callsync/' }));
        return (listed.Contents ?? []).length > 0 ? listed.Contents : undefined;
      },
      'an archived recording in the S3 bucket',
      120_000,
    );
    expect(objects.length).toBeGreaterThan(0);
    s3.destroy();
  });
});
