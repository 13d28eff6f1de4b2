// The retry bookkeeping of call_failures against PostgreSQL: one claim per failure (a stale claim
// whose run never started may be taken again), the run named once, a release only of an unstarted
// claim, the outcome written once, and a retry's own failure closing the row it retried.
import {
  callFailureById,
  claimCallFailureRetry,
  createDatabase,
  finishCallFailureRetry,
  latestCallFailure,
  migrateToLatest,
  recordCallFailure,
  releaseCallFailureRetry,
  setCallFailureRetryRun,
  unretriedCallFailures,
  type WarehouseDatabase,
} from '../../connectors/postgres';
import { retryable } from '../../activities/call-failure-retry';
import { createTestDatabase, type TestDatabase } from './warehouse-db';

describe('call_failures retries', () => {
  let test: TestDatabase;
  let warehouse: WarehouseDatabase;

  beforeAll(async () => {
    test = await createTestDatabase('call_failure_retries');
    warehouse = createDatabase(test.url);
    await migrateToLatest(warehouse.db);
  });
  afterAll(async () => {
    await warehouse?.close();
    await test?.drop();
  });

  const fail = (callId: number, runId: string, retryOf?: string) =>
    recordCallFailure(warehouse.db, {
      account: 'acme',
      workflow_id: `call-acme-${callId}`,
      run_id: runId,
      workflow_type: 'callLifecycle',
      subject: String(callId),
      activity: 'logCall',
      failure_type: 'CrmBadRequestError',
      message: 'refused',
      retry_state: 'NON_RETRYABLE_FAILURE',
      ...(retryOf ? { retry_of: retryOf } : {}),
    });

  it('claims once, names the run once, and releases only a claim whose run never started', async () => {
    await fail(1, 'r1');
    const row = (await latestCallFailure(warehouse.db, 'acme', 1))!;
    expect(retryable(row)).toBe(true);
    const claim = (by: string, staleMs = 120_000) =>
      claimCallFailureRetry(warehouse.db, { id: row.id, by, staleMs });
    expect(await claim('cli:ann')).toBe(true);
    expect(await claim('dashboard:bob')).toBe(false);
    // Its starter died before starting the run: after a while the claim may be taken again.
    expect(await claim('dashboard:bob', 0)).toBe(true);
    await setCallFailureRetryRun(warehouse.db, { id: row.id, runId: 'r2' });
    await setCallFailureRetryRun(warehouse.db, { id: row.id, runId: 'r3' });
    expect(await claim('cli:cy', 0)).toBe(false);
    await releaseCallFailureRetry(warehouse.db, row.id);
    const claimed = (await callFailureById(warehouse.db, row.id))!;
    expect(claimed).toMatchObject({
      retry_requested_by: 'dashboard:bob',
      retry_run_id: 'r2',
      retry_outcome: null,
    });
    expect(retryable(claimed)).toBe(false);
    expect(await unretriedCallFailures(warehouse.db, { accounts: ['acme'] })).toEqual([]);

    await finishCallFailureRetry(warehouse.db, { id: row.id, outcome: 'succeeded', runId: 'r2' });
    await finishCallFailureRetry(warehouse.db, { id: row.id, outcome: 'failed', runId: 'r2' });
    expect(await callFailureById(warehouse.db, row.id)).toMatchObject({ retry_outcome: 'succeeded' });
  });

  it("gives a released claim back, and links a retry's failure to the row it retried", async () => {
    await fail(2, 'r1');
    const first = (await latestCallFailure(warehouse.db, 'acme', 2))!;
    expect(await claimCallFailureRetry(warehouse.db, { id: first.id, by: 'cli:ann', staleMs: 120_000 })).toBe(
      true,
    );
    await releaseCallFailureRetry(warehouse.db, first.id);
    expect((await unretriedCallFailures(warehouse.db, { accounts: ['acme'] })).map((r) => r.id)).toEqual([
      first.id,
    ]);
    expect(await claimCallFailureRetry(warehouse.db, { id: first.id, by: 'cli:ann', staleMs: 120_000 })).toBe(
      true,
    );
    await setCallFailureRetryRun(warehouse.db, { id: first.id, runId: 'r2' });
    await fail(2, 'r2', first.id);
    const second = (await latestCallFailure(warehouse.db, 'acme', 2))!;
    expect(second).toMatchObject({ retry_of: first.id, run_id: 'r2', retry_requested_at: null });
    expect(await callFailureById(warehouse.db, first.id)).toMatchObject({ retry_outcome: 'failed' });
    // The call's latest failure is the one to retry now; `since` leaves older failures out.
    expect((await unretriedCallFailures(warehouse.db, { accounts: ['acme'] })).map((r) => r.id)).toEqual([
      second.id,
    ]);
    const future = new Date(Date.now() + 3_600_000);
    expect(await unretriedCallFailures(warehouse.db, { accounts: ['acme'], since: future })).toEqual([]);
  });
});
