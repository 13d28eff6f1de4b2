// /healthz and /readyz of a real `callsync server` and a real `callsync worker`, each started by the
// CLI as in production, on a PostgreSQL reached through a TCP proxy the test cuts: ready (200) once
// each has started, not ready (503, naming postgres and nothing secret) while the database is gone,
// ready again once it is back. /healthz stays 200 throughout: the processes are alive.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cliEnv, startCli, stopCli, type StartedCli } from './cli-process';
import { startSyncHarness, type SyncHarness } from './sync-harness';
import { eventually } from '../support/eventually';
import { startTcpProxy, type TcpProxy } from '../support/tcp-proxy';

const SECRET = 'health-webhook-secret-0001';

interface Answer {
  status: number;
  body: { status: string; failing?: string[]; checks: Record<string, string> };
  text: string;
}

async function get(url: string): Promise<Answer | undefined> {
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(5_000) });
    const text = await res.text();
    return { status: res.status, body: JSON.parse(text) as Answer['body'], text };
  } catch {
    return undefined; // not listening yet
  }
}

/** Polls `url` until it answers `status`; the timeout error shows the last answer. */
async function answers(url: string, status: number, what: string): Promise<Answer> {
  let last: Answer | undefined;
  return eventually(
    async () => {
      last = await get(url);
      return last?.status === status ? last : undefined;
    },
    `${what}: ${url} answering ${status}`,
    90_000,
    async () => `last answer: ${last ? `${last.status} ${last.text}` : 'none'}`,
  );
}

describe('health endpoints of the server and the worker', () => {
  let h: SyncHarness;
  let proxy: TcpProxy;
  let server: StartedCli;
  let worker: StartedCli;
  let serverUrl: string;
  let workerUrl: string;
  let databaseUrl: URL;

  beforeAll(async () => {
    h = await startSyncHarness({
      label: 'health',
      cdrs: 20,
      inProcessWorker: false,
      accounts: [{ name: 'acme', webhookSecret: SECRET }],
    });
    const real = new URL(h.database.url);
    proxy = await startTcpProxy(real.hostname, Number(real.port || 5432));
    databaseUrl = new URL(h.database.url);
    databaseUrl.hostname = '127.0.0.1';
    databaseUrl.port = String(proxy.port);
    const input = JSON.parse(readFileSync(h.configFile, 'utf8')) as Record<string, unknown>;
    // Port 0: two workers on one machine never collide; the worker logs the port it got.
    const file = join(h.configFile, '..', 'callsync-health.json');
    writeFileSync(
      file,
      JSON.stringify({ ...input, database: { url: databaseUrl.toString() }, worker: { healthPort: 0 } }),
      { mode: 0o600 },
    );
    const env = cliEnv({ CALLSYNC_CONFIG: file, CALLSYNC_LOG_LEVEL: 'info' });
    server = startCli(['server', '--port', '0'], env);
    worker = startCli(['worker'], env);
    const ready = await eventually(
      async () => /^\{"server":"ready".*$/m.exec(server.stdout())?.[0],
      'the server ready line',
      120_000,
      async () => server.stderr().slice(-3000),
    );
    serverUrl = (JSON.parse(ready) as { url: string }).url;
    const healthLine = await eventually(
      async () =>
        worker
          .stderr()
          .split('\n')
          .find((l) => l.includes('worker health served')),
      'the worker health line',
      120_000,
      async () => worker.stderr().slice(-3000),
    );
    workerUrl = (JSON.parse(healthLine) as { url: string }).url;
  }, 300_000);

  afterAll(async () => {
    await proxy?.restore();
    await Promise.all([server, worker].filter(Boolean).map((p) => stopCli(p, 'SIGTERM').catch(() => null)));
    await proxy?.close();
    await h?.close();
  }, 120_000);

  it('is ready with PostgreSQL, not ready (503, naming it) without, and ready again when it is back', async () => {
    const serverReady = await answers(`${serverUrl}/readyz`, 200, 'server ready');
    expect(serverReady.body).toEqual({
      status: 'ready',
      checks: { postgres: 'ok', inbox: 'ok', relay: 'ok' },
    });
    const workerReady = await answers(`${workerUrl}/readyz`, 200, 'worker ready');
    expect(workerReady.body).toEqual({
      status: 'ready',
      checks: { temporal: 'ok', worker: 'ok', postgres: 'ok' },
    });

    await proxy.cut();
    const serverDown = await answers(`${serverUrl}/readyz`, 503, 'server not ready');
    expect(serverDown.body.status).toBe('not ready');
    expect(serverDown.body.failing).toEqual(expect.arrayContaining(['postgres']));
    expect(serverDown.body.checks.relay).toBe('ok');
    const workerDown = await answers(`${workerUrl}/readyz`, 503, 'worker not ready');
    expect(workerDown.body.failing).toEqual(['postgres']);
    expect(workerDown.body.checks).toMatchObject({ temporal: 'ok', worker: 'ok' });
    // Nothing of the connection string (host, port, user, password, database) is in the answers.
    for (const text of [serverDown.text, workerDown.text]) {
      expect(text).not.toContain(databaseUrl.pathname.slice(1));
      expect(text).not.toContain(String(proxy.port));
      expect(text).not.toContain('postgres://');
      if (databaseUrl.password) expect(text).not.toContain(databaseUrl.password);
    }
    // Alive all the same.
    expect((await get(`${serverUrl}/healthz`))?.status).toBe(200);
    expect((await get(`${workerUrl}/healthz`))?.status).toBe(200);

    await proxy.restore();
    await answers(`${serverUrl}/readyz`, 200, 'server ready again');
    await answers(`${workerUrl}/readyz`, 200, 'worker ready again');
    expect(server.child.exitCode).toBeNull();
    expect(worker.child.exitCode).toBeNull();
  }, 300_000);
});
