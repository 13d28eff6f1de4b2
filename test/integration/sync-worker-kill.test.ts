// A worker killed with SIGKILL in the middle of a backfill, then a new one started: the warehouse
// still holds exactly the platform's records.
import { sql } from 'kysely';
import { backfillWorkflow, progressQuery } from '../../contracts';
import { startSyncHarness, type SyncHarness } from './sync-harness';
import { spawnWorker, type WorkerProcess } from './worker-process';

jest.setTimeout(240_000);

describe('backfill across a killed worker', () => {
  let h: SyncHarness;
  const workers: WorkerProcess[] = [];

  beforeAll(async () => {
    h = await startSyncHarness({ label: 'kill', cdrs: 30_000, inProcessWorker: false });
  }, 180_000);

  afterAll(async () => {
    for (const w of workers) if (w.child.exitCode === null) w.child.kill('SIGKILL');
    await h?.close();
  });

  it('loses and duplicates nothing', async () => {
    workers.push(await spawnWorker(h.configFile));
    const handle = await h.client.workflow.start(backfillWorkflow, {
      taskQueue: h.taskQueue,
      workflowId: 'backfill-kill-test',
      args: [{ account: 'acme', stream: 'cdrs', from: '2025-11-01', to: '2026-11-02' }],
    });

    // Kill the worker once some pages are committed and more are still to come.
    for (;;) {
      const p = await handle.query(progressQuery).catch(() => undefined);
      if (p && p.records >= 6_000) {
        expect(p.done).toBe(false);
        break;
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    const victim = workers[0]!;
    victim.child.kill('SIGKILL');
    expect(await victim.exited).toBeNull(); // killed by the signal, not exited on its own

    const { rows: partial } = await sql<{ n: number }>`select count(*)::int as n from cdrs`.execute(
      h.deps.warehouse.db,
    );
    expect(partial[0]!.n).toBeLessThan(30_000);

    workers.push(await spawnWorker(h.configFile));
    const result = await handle.result();
    expect(result.windowsDone).toBe(result.windowsTotal);

    const t = h.emulator.store.tables.cdrs;
    const customer = h.emulator.admin.customer_id;
    const expected = t.query(customer, { page: 1, limit: 30_001, filter: [] }).data.map((r) => Number(r.id));
    const stored = await h.deps.warehouse.db.selectFrom('cdrs').select('id').orderBy('id').execute();
    expect(stored.map((r) => Number(r.id))).toEqual(expected);
    const { rows } = await sql<{ rows: number; distinct: number }>`
      select count(*)::int as rows, count(distinct (account, id))::int as distinct from cdrs`.execute(
      h.deps.warehouse.db,
    );
    expect(rows[0]).toEqual({ rows: 30_000, distinct: 30_000 });
  });
});
