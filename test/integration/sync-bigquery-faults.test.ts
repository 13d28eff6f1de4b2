// The BigQuery warehouse under faults on both sides: the platform answers 429, 500 and 503, resets
// connections and expires tokens, and BigQuery (the crucible emulator behind a fault proxy) answers
// 503 or runs a job whose answer never arrives, so retries meet their own jobs (409). BigQuery and
// PostgreSQL still end up with every record exactly once.
import { sql } from 'kysely';
import { backfillWorkflow, syncStreamWorkflow } from '../../contracts';
import { startBigQueryTarget, type BigQueryTestTarget } from '../support/bigquery-harness';
import { startFaultProxy, type FaultProxy } from '../support/fault-proxy';
import { startSyncHarness, type SyncHarness } from './sync-harness';

jest.setTimeout(300_000);

describe('BigQuery sync under injected faults', () => {
  let h: SyncHarness;
  let target: BigQueryTestTarget;
  let proxy: FaultProxy;

  beforeAll(async () => {
    target = await startBigQueryTarget();
    proxy = await startFaultProxy({
      upstream: target.crucible.endpoint,
      unavailable: 0.1,
      dropResponse: 0.15,
      // Job inserts, load uploads and job lookups: where a lost answer could load a page twice.
      match: (method, path) => path.includes('/jobs') && (method === 'POST' || method === 'GET'),
    });
    const bigquery = { ...target.config.bigquery, apiEndpoint: proxy.endpoint };
    h = await startSyncHarness({
      label: 'bq_faults',
      cdrs: 1_500,
      passwordLogin: true,
      config: {
        warehouse: { bigquery },
        sync: { pageSize: 300, backfillWindow: '90d', backfillParallelism: 2 },
      },
    });
  }, 180_000);

  afterAll(async () => {
    await h?.close();
    await proxy?.close();
    await target?.crucible.stop();
  });

  const inject = async (body: Record<string, unknown>): Promise<void> => {
    const res = await fetch(`${h.emulator.origin}/_emulator/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    expect(res.status).toBe(201);
  };

  const exactlyTheEmulatorsCdrs = async (): Promise<void> => {
    const customer = h.emulator.admin.customer_id;
    const t = h.emulator.store.tables.cdrs;
    const expected = t
      .query(customer, { page: 1, limit: t.count(customer) + 1, filter: [] })
      .data.map((r) => Number(r.id));
    expect(await target.ids('cdrs')).toEqual({ ids: expected, rows: expected.length });
    const { rows } = await sql<{ n: number; d: number }>`
      select count(*)::int as n, count(distinct (account, id))::int as d from cdrs`.execute(
      h.deps.warehouse.db,
    );
    expect(rows[0]).toEqual({ n: expected.length, d: expected.length });
  };

  it('backfill and incremental sync lose and duplicate nothing in BigQuery', async () => {
    await inject({ route: 'GET /cdrs', status: 429, retry_after_s: 1, probability: 0.1 });
    await inject({ route: 'GET /cdrs', status: 503, probability: 0.1 });
    await inject({ route: 'GET /cdrs', reset: true, probability: 0.1 });
    await inject({ route: 'GET /cdrs', expire_token: true, probability: 0.1 });

    await h.client.workflow.execute(backfillWorkflow, {
      taskQueue: h.taskQueue,
      workflowId: 'backfill-bq-faults',
      args: [{ account: 'acme', stream: 'cdrs', from: '2025-11-01', to: '2026-11-02' }],
    });
    await exactlyTheEmulatorsCdrs();

    h.emulator.store.addCdrs(h.emulator.admin.customer_id, 250);
    await h.client.workflow.execute(syncStreamWorkflow, {
      taskQueue: h.taskQueue,
      workflowId: 'sync-bq-faults-1',
      args: [{ account: 'acme', stream: 'cdrs' }],
    });
    await exactlyTheEmulatorsCdrs();

    // Both BigQuery faults really happened, dropped answers included.
    expect(proxy.applied.unavailable).toBeGreaterThan(0);
    expect(proxy.applied.dropResponse).toBeGreaterThan(0);
    // Retries met jobs that had already run (BigQuery's 409 for a known job id), and awaited them.
    expect(proxy.statuses.get(409) ?? 0).toBeGreaterThan(0);
  });
});
