// A report run whose worker is killed (SIGKILL) in the middle of building its file: the retried
// activity on a new worker finishes the same run. One report_runs row, one file, no partial left.
import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { listReportRuns } from '../../connectors/postgres';
import { reportExportWorkflow } from '../../contracts';
import { eventually } from '../support/eventually';
import { startSyncHarness, type SyncHarness } from './sync-harness';
import { spawnWorker, type WorkerProcess } from './worker-process';

jest.setTimeout(180_000);

const ROWS = 60_000;

describe('report run across a killed worker', () => {
  let h: SyncHarness;
  const workers: WorkerProcess[] = [];
  const reports = mkdtempSync(join(tmpdir(), 'callsync-reports-kill-'));

  beforeAll(async () => {
    h = await startSyncHarness({
      label: 'report_kill',
      cdrs: 10,
      inProcessWorker: false,
      config: {
        reports: { directory: reports, delivery: { email: { outboxDir: join(reports, 'outbox') } } },
      },
    });
    const db = h.deps.warehouse.db;
    // January 2025 (long before the emulator's data): ROWS charged calls, for the billing report.
    await sql`INSERT INTO cdrs (account, id, raw, calldate, src, dst, destination, billsec, rate, charge)
      SELECT 'acme', 10000000 + i, '{}'::jsonb, timestamptz '2025-01-01 00:00:00+00' + i * interval '40 seconds',
             '442000000' || i, '493000000' || i, 'Germany', 60, 0.01, 0.0100
      FROM generate_series(1, ${ROWS}::int) AS i`.execute(db);
    await sql`INSERT INTO report_schedules (account, id, raw, name, report_id, format, culture, status, timezone, frequency)
      VALUES ('acme', 9100, '{}'::jsonb, 'Billing', 7, '1', '1', '1', 'UTC',
              ${JSON.stringify({ type: 'monthly', time_of_day: ['06:00'], day_of_week: [], day_of_month: [1] })}::jsonb)`.execute(
      db,
    );
  }, 120_000);

  afterAll(async () => {
    for (const w of workers) if (w.child.exitCode === null) w.child.kill('SIGKILL');
    await h?.close();
  });

  it('finishes the same run once', async () => {
    workers.push(await spawnWorker(h.configFile));
    const handle = await h.client.workflow.start(reportExportWorkflow, {
      taskQueue: h.taskQueue,
      workflowId: 'report-kill-test',
      args: [{ account: 'acme', scheduleId: 9100, period: { period: '2025-01' } }],
    });
    await eventually(async () => {
      const [run] = await listReportRuns(h.deps.warehouse.db, 'acme', 9100);
      return run?.status === 'building' ? run : undefined;
    }, 'the run to be building');
    const victim = workers[0]!;
    victim.child.kill('SIGKILL');
    expect(await victim.exited).toBeNull();
    const [during] = await listReportRuns(h.deps.warehouse.db, 'acme', 9100);
    expect(during?.status).toBe('building');

    workers.push(await spawnWorker(h.configFile));
    const result = await handle.result();
    expect([result.outcome, result.rows]).toEqual(['built', ROWS]);
    const runs = await listReportRuns(h.deps.warehouse.db, 'acme', 9100);
    expect(runs.map((r) => [r.id, r.status, r.rows, r.attempts])).toEqual([
      [result.runId, 'succeeded', ROWS, 1],
    ]);
    expect(readdirSync(join(reports, 'acme', 'schedule-9100'))).toEqual(['2025-01.csv']);
  });
});
