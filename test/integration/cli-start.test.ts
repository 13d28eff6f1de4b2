// `callsync start` (npm start) end to end, as a user runs it: a child process that starts the
// emulator, the Temporal dev server, the worker and the schedules on a given PostgreSQL, fills the
// warehouse without being asked, answers `callsync status`, and stops cleanly on Ctrl-C.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createTestDatabase, type TestDatabase } from './warehouse-db';

jest.setTimeout(240_000);

const root = resolve(__dirname, '../..');
const cli = (args: string[]) =>
  [process.execPath, ['--import', 'tsx', join(root, 'cli/main.ts'), ...args]] as const;

describe('callsync start', () => {
  let database: TestDatabase;
  let dataDir: string;
  let env: NodeJS.ProcessEnv;
  let child: ChildProcess | undefined;
  let stdout = '';
  let stderr = '';

  beforeAll(async () => {
    database = await createTestDatabase('cli_start');
    dataDir = mkdtempSync(join(tmpdir(), 'callsync-start-'));
    env = {
      ...process.env,
      DATABASE_URL: database.url,
      CALLSYNC_DATA_DIR: dataDir,
      CALLSYNC_LOG_LEVEL: 'warn',
    };
    for (const k of Object.keys(env))
      if (k.startsWith('PLATFORM_') || k.startsWith('TEMPORAL_')) delete env[k];
    delete env.CALLSYNC_CONFIG;
  });

  afterAll(async () => {
    if (child && child.exitCode === null) child.kill('SIGKILL');
    await database?.drop();
  });

  it('starts everything, fills the warehouse, reports status, and stops on SIGINT with exit code 0', async () => {
    const [cmd, args] = cli(['start']);
    child = spawn(cmd, args, { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout!.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr!.on('data', (c: Buffer) => (stderr += c.toString()));
    const exited = new Promise<number | null>((r) => child!.once('exit', (code) => r(code)));

    const deadline = Date.now() + 90_000;
    while (!stdout.includes('callsync is running')) {
      if (child.exitCode !== null || Date.now() > deadline) {
        throw new Error(
          `no banner; exit ${child.exitCode}\nstdout:\n${stdout}\nstderr:\n${stderr.slice(-4000)}`,
        );
      }
      await new Promise((r) => setTimeout(r, 250));
    }
    expect(stdout).toMatch(/platform emulator\s+http:\/\/127\.0\.0\.1:\d+\/v1\.1\/voipstudio/);
    expect(stdout).toMatch(/Temporal UI\s+http:\/\/127\.0\.0\.1:\d+/);
    // The local stack archives only recent calls' audio by default (the emulator's is 8 GB).
    const described = JSON.parse(readFileSync(join(dataDir, 'local-stack.json'), 'utf8')) as {
      pid: number;
      config: { archive?: { maxAge?: number } };
    };
    expect(described.pid).toBe(child.pid);
    expect(described.config.archive?.maxAge).toBe(86_400_000);

    // The dashboard: linked from the banner, behind the password generated into the data directory
    // (the banner names the file, never the password).
    const dashboard = /dashboard\s+(http:\/\/\S+\/dashboard) \(user admin, password: (\S+)\)/.exec(stdout);
    expect(dashboard).not.toBeNull();
    const [, dashboardUrl, passwordFile] = dashboard!;
    expect(passwordFile).toBe(join(dataDir, 'keys', 'dashboard-password'));
    const password = readFileSync(passwordFile!, 'utf8').trim();
    expect(stdout + stderr).not.toContain(password);
    expect((await fetch(dashboardUrl!, { redirect: 'manual' })).status).toBe(303);
    // The login form's CSRF token, in its hidden field and its cookie.
    const form = await fetch(`${dashboardUrl}/login`);
    const csrf = /name="_csrf" value="([^"]+)"/.exec(await form.text())![1]!;
    const login = await fetch(`${dashboardUrl}/login`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        cookie: form.headers.get('set-cookie')!.split(';')[0]!,
      },
      body: new URLSearchParams({ username: 'admin', password, _csrf: csrf }).toString(),
      redirect: 'manual',
    });
    expect(login.status).toBe(303);
    const overview = await fetch(dashboardUrl!, {
      headers: { cookie: login.headers.get('set-cookie')!.split(';')[0]! },
    });
    expect(overview.status).toBe(200);
    expect(await overview.text()).toContain('id="streams"');

    // The codec endpoint: behind a token generated into the data directory (named, never printed),
    // with how to give it to the Temporal UI; /metrics on a loopback port of its own.
    const codec = /codec endpoint\s+(http:\/\/\S+\/codec) \(bearer token: (\S+)\)/.exec(stdout);
    expect(codec).not.toBeNull();
    const [, codecUrl, tokenFile] = codec!;
    expect(tokenFile).toBe(join(dataDir, 'keys', 'codec-token'));
    expect(stdout).toContain(`sign in once at ${codecUrl}/login`);
    const codecToken = readFileSync(tokenFile!, 'utf8').trim();
    expect(stdout + stderr).not.toContain(codecToken);
    const decode = (headers: Record<string, string>) =>
      fetch(`${codecUrl}/decode`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify({ payloads: [] }),
      });
    expect((await decode({})).status).toBe(401);
    expect((await decode({ authorization: `Bearer ${codecToken}` })).status).toBe(200);
    const metricsUrl = /metrics\s+(http:\/\/127\.0\.0\.1:\d+\/metrics)/.exec(stdout)?.[1];
    expect(metricsUrl).toBeDefined();
    expect((await fetch(metricsUrl!)).status).toBe(200);
    expect((await fetch(codecUrl!.replace(/\/codec$/, '/metrics'))).status).toBe(404);

    // The schedules ran once at creation: CDRs reach the warehouse without anyone asking.
    type Row = { account: string; stream: string; records: number; lastSuccess: string | null };
    let cdrs: Row | undefined;
    while (!cdrs || cdrs.records === 0) {
      if (Date.now() > deadline + 30_000)
        throw new Error(`no CDRs in the warehouse; stderr:\n${stderr.slice(-4000)}`);
      await new Promise((r) => setTimeout(r, 2000));
      const [c, a] = cli(['status', '--json']);
      // A command's start loads every connector's client library (several seconds on a busy 2-core
      // machine); the timeout only bounds a hang, and a failed run says how it ended.
      const status = spawnSync(c, a, { cwd: root, env, encoding: 'utf8', timeout: 90_000 });
      expect(status.stderr).not.toMatch(/callsync:/);
      if (!status.stdout)
        throw new Error(`status printed nothing (${status.signal ?? status.status}): ${status.stderr}`);
      const rows = JSON.parse(status.stdout) as Row[];
      expect(rows).toHaveLength(14);
      cdrs = rows.find((r) => r.stream === 'cdrs' && r.account === 'local');
    }
    expect(cdrs.records).toBeGreaterThan(0);

    // The emulator's report schedules become Temporal Schedules (after their sync), each in its own
    // time zone; the inactive one is paused.
    type ReportRow = { id: number; timezone: string; state: string; nextRun: string | null };
    let reports: ReportRow[] = [];
    while (reports.filter((r) => r.state === 'active' || r.state === 'paused').length < 6) {
      if (Date.now() > deadline + 60_000)
        throw new Error(`report schedules not mirrored: ${JSON.stringify(reports)}`);
      await new Promise((r) => setTimeout(r, 2000));
      const [c, a] = cli(['reports', 'list', '--json']);
      const listed = spawnSync(c, a, { cwd: root, env, encoding: 'utf8', timeout: 90_000 });
      expect(listed.stderr).not.toMatch(/callsync:/);
      reports = JSON.parse(listed.stdout) as ReportRow[];
    }
    expect(reports.map((r) => r.timezone).sort()).toEqual([
      'America/New_York',
      'Australia/Sydney',
      'Europe/Berlin',
      'Europe/London',
      'Europe/London',
      'Europe/London',
    ]);
    expect(reports.filter((r) => r.state === 'paused')).toHaveLength(1);

    child.kill('SIGINT');
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<'timeout'>((r) => (timer = setTimeout(() => r('timeout'), 60_000)));
    const code = await Promise.race([exited, timeout]);
    clearTimeout(timer);
    // A stop that hangs says which service it waited on (each slow step is logged by name).
    if (code !== 0) throw new Error(`stop ended with ${String(code)}; stderr:\n${stderr.slice(-4000)}`);
    expect(code).toBe(0);
    expect(existsSync(join(dataDir, 'local-stack.json'))).toBe(false);
  });
});
