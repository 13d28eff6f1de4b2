// `callsync backfill`, `sync --now`, `reports run` and `reports show` as an operator runs them: child
// processes, from a folder that is not the project's, under CI=true with no terminal, each from the
// sources through tsx and from the compiled build (`npm run build`). Their progress comes as plain
// lines (no bar, no escape codes, no carriage returns), their result as the last line of stdout, and
// their effect shows in the warehouse and on disk. One stack for all: emulator, Temporal dev server,
// PostgreSQL database and a worker in this process (sync-harness.ts).
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { compiledDist } from '../support/compiled-dist';
import { cliEnv, finishCli, type CliRunOptions } from './cli-process';
import { startSyncHarness, type SyncHarness } from './sync-harness';

jest.setTimeout(120_000);

const SCHEDULE = 9601;

describe('CLI commands as processes', () => {
  let h: SyncHarness;
  let reportsDir: string;
  const elsewhere = mkdtempSync(join(tmpdir(), 'ops-shell-'));
  const env = cliEnv({ CI: 'true' });
  // The two ways of running the CLI, both from `elsewhere`.
  const ways: Record<'tsx' | 'compiled', () => CliRunOptions> = {
    tsx: () => ({ cwd: elsewhere }),
    compiled: () => ({ cwd: elsewhere, dist: compiledDist() }),
  };

  beforeAll(async () => {
    reportsDir = mkdtempSync(join(tmpdir(), 'cli-reports-'));
    h = await startSyncHarness({
      label: 'cli_cmd_proc',
      cdrs: 80,
      config: { reports: { directory: reportsDir } },
    });
    await h.deps.warehouse.db
      .insertInto('report_schedules')
      .values({
        account: 'acme',
        id: SCHEDULE,
        raw: '{}',
        name: 'Billing',
        report_id: 7,
        format: '1',
        culture: '1',
        status: '1',
        timezone: 'UTC',
        emails: JSON.stringify(['ops@example.com']),
        frequency: JSON.stringify({
          type: 'daily',
          time_of_day: ['07:00'],
          day_of_week: [],
          day_of_month: [],
        }),
      })
      .execute();
    // Built once per test run (the first file that needs it builds it).
    compiledDist();
  }, 180_000);
  afterAll(async () => {
    await h?.close();
  });

  /** Runs `callsync --config <harness config> …args` one way; fails with its output on a non-zero exit. */
  const callsync = async (way: keyof typeof ways, args: string[]) => {
    const run = await finishCli(['--config', h.configFile, ...args], env, ways[way]());
    if (run.code !== 0) throw new Error(`${way} callsync ${args.join(' ')}: exit ${run.code}\n${run.stderr}`);
    const lines = run.stdout.trimEnd().split('\n');
    return { ...run, last: lines[lines.length - 1]! };
  };

  /** Progress without a terminal: whole lines, no bar drawing, no ANSI codes, no carriage returns. */
  const expectPlainLines = (stderr: string, line: RegExp) => {
    expect(stderr).not.toContain('\r');
    expect(stderr).not.toContain('\u001b');
    expect(stderr).not.toMatch(/[█░]/);
    for (const l of stderr.split('\n').filter(Boolean)) expect(l).toMatch(line);
  };

  const emulatorCdrs = (from: string, to: string) => {
    const t = h.emulator.store.tables.cdrs;
    const total = t.count(h.emulator.admin.customer_id);
    return t
      .query(h.emulator.admin.customer_id, { page: 1, limit: total + 1, filter: [] })
      .data.filter((r) => String(r.calldate) >= from && String(r.calldate) < to).length;
  };
  const warehouseCdrs = async () =>
    (
      await sql<{ n: number }>`select count(*)::int as n from cdrs where account = 'acme'`.execute(
        h.deps.warehouse.db,
      )
    ).rows[0]!.n;

  it('backfill: each way loads its range and prints the summary', async () => {
    const ranges = { tsx: ['2026-05-01', '2026-08-01'], compiled: ['2026-08-01', '2026-11-02'] } as const;
    let loaded = 0;
    for (const way of ['tsx', 'compiled'] as const) {
      const [from, to] = ranges[way];
      const run = await callsync(way, ['backfill', '--stream', 'cdrs', '--from', from, '--to', to]);
      const summary = JSON.parse(run.last) as Record<string, unknown>;
      const expected = emulatorCdrs(from, to);
      expect(expected).toBeGreaterThan(0);
      expect(summary).toMatchObject({
        workflowId: expect.stringContaining('cdrs'),
        account: 'acme',
        stream: 'cdrs',
        records: expected,
        done: true,
      });
      expect(summary.windowsDone).toBe(summary.windowsTotal);
      expectPlainLines(run.stderr, /^backfill\S*: \d+\/\d+ windows, \d+ records, [\d.]+ records\/s$/);
      // The last line is where the backfill ended, not the last poll before.
      expect(run.stderr.trimEnd().split('\n').pop()).toBe(
        `${String(summary.workflowId)}: ${String(summary.windowsTotal)}/${String(summary.windowsTotal)} windows, ${expected} records, ${String(summary.recordsPerSecond)} records/s`,
      );
      loaded += expected;
      expect(await warehouseCdrs()).toBe(loaded);
    }
  });

  it('sync --now: runs one sync and prints its summary; the warehouse holds every CDR', async () => {
    const all = emulatorCdrs('0000', '9999');
    const first = await callsync('tsx', ['sync', '--stream', 'cdrs', '--now']);
    expect(JSON.parse(first.last)).toMatchObject({
      account: 'acme',
      stream: 'cdrs',
      records: all,
      quarantined: 0,
    });
    expect(first.stderr).toBe('');
    expect(await warehouseCdrs()).toBe(all);
    // The stream's cursor is at the end: nothing more to read.
    const again = await callsync('compiled', ['sync', '--stream', 'cdrs', '--now']);
    expect(JSON.parse(again.last)).toMatchObject({ account: 'acme', stream: 'cdrs', records: 0 });
    expect(again.stderr).toBe('');
    expect(await warehouseCdrs()).toBe(all);
  });

  it('reports run writes the file and prints the run; reports show lists it, each way', async () => {
    const runs: { runId: number; rows: number }[] = [];
    const periods = {
      tsx: ['--from', '2026-09-01', '--to', '2026-10-31'],
      compiled: ['--period', '2026-10'],
    };
    for (const way of ['tsx', 'compiled'] as const) {
      const run = await callsync(way, ['reports', 'run', String(SCHEDULE), ...periods[way]]);
      const result = JSON.parse(run.last) as { runId: number; rows: number; bytes: number; outcome: string };
      expect(result).toMatchObject({
        account: 'acme',
        scheduleId: SCHEDULE,
        outcome: 'built',
        deliveries: 1,
      });
      expect(result.rows).toBeGreaterThan(0);
      // Its stages as lines, the last one where the run ended.
      expectPlainLines(run.stderr, /^report-acme-9601-manual-\S+: (queued|building|delivering|succeeded)$/);
      expect(run.stderr.trimEnd().split('\n').pop()).toMatch(/: succeeded$/);
      runs.push(result);
    }
    expect(runs[0]!.runId).not.toBe(runs[1]!.runId);

    // The first run from the compiled build as text, the second from the sources as JSON.
    const shown = await callsync('compiled', ['reports', 'show', String(runs[0]!.runId)]);
    const field = (k: string) => new RegExp(`^${k} +(.*)$`, 'm').exec(shown.stdout)?.[1];
    expect(field('status')).toBe('succeeded');
    expect(field('period')).toMatch(/^2026-09-01\.\.2026-10-31 /);
    expect(field('rows')).toBe(String(runs[0]!.rows));
    const file = field('file')!;
    const bytes = readFileSync(file.startsWith('/') ? file : join(reportsDir, file));
    expect(bytes.length).toBe(Number(field('bytes')));
    expect(field('checksum')).toBe(`sha256:${createHash('sha256').update(bytes).digest('hex')}`);
    expect(field('delivery')).toMatch(/^email ops@example\.com sent/);
    expect(shown.stderr).toBe('');

    const json = await callsync('tsx', ['reports', 'show', String(runs[1]!.runId), '--json']);
    expect(JSON.parse(json.last)).toMatchObject({
      id: runs[1]!.runId,
      status: 'succeeded',
      period_label: '2026-10',
      rows: runs[1]!.rows,
      deliveries: [expect.objectContaining({ channel: 'email', state: 'sent' })],
    });
  });
});
