// A worker killed with SIGKILL in the middle of a backfill into BigQuery (crucible emulator), then a
// new one started: BigQuery and PostgreSQL still hold exactly the platform's records, once each.
import { sql } from 'kysely';
import { backfillWorkflow, progressQuery } from '../../contracts';
import { startBigQueryTarget, type BigQueryTestTarget } from '../support/bigquery-harness';
import { startSyncHarness, type SyncHarness } from './sync-harness';
import { spawnWorker, type WorkerProcess } from './worker-process';

jest.setTimeout(300_000);

describe('BigQuery backfill across a killed worker', () => {
  let h: SyncHarness;
  let target: BigQueryTestTarget;
  const workers: WorkerProcess[] = [];

  beforeAll(async () => {
    target = await startBigQueryTarget();
    h = await startSyncHarness({
      label: 'bq_kill',
      cdrs: 3_000,
      inProcessWorker: false,
      config: {
        warehouse: target.config,
        sync: { pageSize: 500, backfillWindow: '60d', backfillParallelism: 2 },
      },
    });
  }, 180_000);

  afterAll(async () => {
    for (const w of workers) if (w.child.exitCode === null) w.child.kill('SIGKILL');
    await h?.close();
    await target?.crucible.stop();
  });

  it('loses and duplicates nothing', async () => {
    workers.push(await spawnWorker(h.configFile));
    const handle = await h.client.workflow.start(backfillWorkflow, {
      taskQueue: h.taskQueue,
      workflowId: 'backfill-bq-kill',
      args: [{ account: 'acme', stream: 'cdrs', from: '2025-11-01', to: '2026-11-02' }],
    });

    // Kill the worker once some pages are in, while more are still to come.
    for (;;) {
      const p = await handle.query(progressQuery).catch(() => undefined);
      if (p && p.records >= 1_000) {
        expect(p.done).toBe(false);
        break;
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    const victim = workers[0]!;
    victim.child.kill('SIGKILL');
    expect(await victim.exited).toBeNull();
    expect((await target.ids('cdrs')).rows).toBeLessThan(3_000);

    workers.push(await spawnWorker(h.configFile));
    const result = await handle.result();
    expect(result.windowsDone).toBe(result.windowsTotal);

    const t = h.emulator.store.tables.cdrs;
    const customer = h.emulator.admin.customer_id;
    const expected = t.query(customer, { page: 1, limit: 3_001, filter: [] }).data.map((r) => Number(r.id));
    expect(expected.length).toBe(3_000);
    expect(await target.ids('cdrs')).toEqual({ ids: expected, rows: 3_000 });
    const { rows } = await sql<{ n: number; d: number }>`
      select count(*)::int as n, count(distinct (account, id))::int as d from cdrs`.execute(
      h.deps.warehouse.db,
    );
    expect(rows[0]).toEqual({ n: 3_000, d: 3_000 });
  });
});
