// The warehouse sync end to end: emulator → client → Temporal workflows → PostgreSQL.
import { MockActivityEnvironment } from '@temporalio/testing';
import { sql } from 'kysely';
import { createSyncActivities, windowScope } from '../../activities/sync-activities';
import {
  backfillWorkflow,
  syncStreamWorkflow,
  type SyncPagesInput,
  type SyncPagesResult,
} from '../../contracts';
import { startSyncHarness, type SyncHarness } from './sync-harness';

jest.setTimeout(180_000);

describe('warehouse sync on Temporal', () => {
  let h: SyncHarness;

  beforeAll(async () => {
    h = await startSyncHarness({ label: 'sync', cdrs: 20_000 });
  }, 180_000);

  afterAll(async () => {
    await h?.close();
  });

  const emulatorIds = (table: 'cdrs' | 'monitors'): number[] => {
    const t = h.emulator.store.tables[table];
    const total = t.count(h.emulator.admin.customer_id);
    return t
      .query(h.emulator.admin.customer_id, { page: 1, limit: total + 1, filter: [] })
      .data.map((r) => Number(r.id));
  };
  const warehouseIds = async (table: 'cdrs' | 'recordings'): Promise<number[]> => {
    const rows = await h.deps.warehouse.db
      .selectFrom(table)
      .select('id')
      .where('account', '=', 'acme')
      .execute();
    return rows.map((r) => Number(r.id)).sort((a, b) => a - b);
  };

  it('backfills tens of thousands of CDRs exactly: nothing missing, nothing twice', async () => {
    const result = await h.client.workflow.execute(backfillWorkflow, {
      taskQueue: h.taskQueue,
      workflowId: 'backfill-acme-cdrs-test',
      args: [{ account: 'acme', stream: 'cdrs', from: '2025-11-01', to: '2026-11-02' }],
    });
    const expected = emulatorIds('cdrs');
    expect(expected.length).toBe(20_000);
    expect(result.records).toBe(20_000);
    expect(result.windowsDone).toBe(result.windowsTotal);
    expect(await warehouseIds('cdrs')).toEqual(expected);
    const one = await h.deps.warehouse.db
      .selectFrom('cdrs')
      .selectAll()
      .where('id', '=', expected[123]!)
      .executeTakeFirstOrThrow();
    const source = h.emulator.store.tables.cdrs.get(expected[123]!)!.row;
    expect(one.src).toBe(source.src);
    expect(one.billsec).toBe(source.billsec);
    expect(one.raw).toEqual(source);
  });

  it("reads a window's pages for a few seconds per activity; a retried attempt goes on from its last heartbeat's sums", async () => {
    const acts = createSyncActivities(h.deps);
    // A window over about 7,000 of the seeded CDRs, from the emulator's own dates.
    const rows = h.emulator.store.tables.cdrs.query(h.emulator.admin.customer_id, {
      page: 1,
      limit: 20_000,
      filter: [],
    }).data;
    const from = String(rows[1000]!.calldate);
    const to = String(rows[8000]!.calldate);
    const inWindow = h.emulator.store.tables.cdrs.query(h.emulator.admin.customer_id, {
      page: 1,
      limit: 1_000_000,
      filter: [
        { property: 'calldate', operator: 'gte', value: from },
        { property: 'calldate', operator: 'lt', value: to },
      ],
    }).total;
    expect(inWindow).toBeGreaterThan(2 * 2000); // three pages or more (the harness reads 2000 a page)
    await acts.openWindow({ account: 'acme', stream: 'cdrs', from, to });
    const input = { account: 'acme', stream: 'cdrs', scope: windowScope(from, to) };

    // A budget of 0 reads one page. This attempt plays a retry whose failed attempt had heartbeated
    // the sums of two pages: it adds its page to them.
    const prior = { pages: 2, records: 4000, inserted: 4000, updated: 0, quarantined: 0 };
    const retried = new MockActivityEnvironment({ heartbeatDetails: prior });
    const beats: unknown[] = [];
    retried.on('heartbeat', (d: unknown) => beats.push(d));
    const syncPages = (i: SyncPagesInput): Promise<SyncPagesResult> => acts.syncPages(i);
    const one: SyncPagesResult = await retried.run(syncPages, { ...input, budgetMs: 0 });
    expect(one).toMatchObject({ pages: 3, records: 6000, done: false });
    expect(beats.at(-1)).toMatchObject({ pages: 3, records: 6000, stage: 'written' });

    // A fresh attempt with time to spare reads every page left, in one activity.
    const fresh = new MockActivityEnvironment();
    const rest: SyncPagesResult = await fresh.run(syncPages, { ...input, budgetMs: 60_000 });
    expect(rest.done).toBe(true);
    expect(rest.records).toBe(inWindow - 2000);
    expect(rest.pages).toBe(Math.ceil((inWindow - 2000) / 2000));
    const { rows: stored } = await sql<{ n: number }>`
      select count(*)::int as n from cdrs
      where account = 'acme' and calldate >= ${from}::timestamptz and calldate < ${to}::timestamptz`.execute(
      h.deps.warehouse.db,
    );
    expect(stored[0]!.n).toBe(inWindow);
  });

  it('incremental sync picks up new CDRs once, and a second run changes nothing', async () => {
    const first = await h.client.workflow.execute(syncStreamWorkflow, {
      taskQueue: h.taskQueue,
      workflowId: 'sync-acme-cdrs-1',
      args: [{ account: 'acme', stream: 'cdrs' }],
    });
    expect(first.records).toBeGreaterThanOrEqual(20_000);
    const added = h.emulator.store.addCdrs(h.emulator.admin.customer_id, 37).map((r) => Number(r.id));
    const second = await h.client.workflow.execute(syncStreamWorkflow, {
      taskQueue: h.taskQueue,
      workflowId: 'sync-acme-cdrs-2',
      args: [{ account: 'acme', stream: 'cdrs' }],
    });
    // The second run re-reads only the late-arrival window, not the whole history.
    expect(second.records).toBeLessThan(5_000);
    const ids = await warehouseIds('cdrs');
    expect(ids).toEqual(emulatorIds('cdrs'));
    expect(ids).toEqual(expect.arrayContaining(added));
    const dupes = await sql<{
      n: number;
    }>`select count(*)::int - count(distinct (account, id))::int as n from cdrs`.execute(h.deps.warehouse.db);
    expect(dupes.rows[0]!.n).toBe(0);
  });

  it('a transcript that arrives later reaches the recording row', async () => {
    await h.client.workflow.execute(syncStreamWorkflow, {
      taskQueue: h.taskQueue,
      workflowId: 'sync-acme-recordings-1',
      args: [{ account: 'acme', stream: 'recordings' }],
    });
    const monitors = h.emulator.store.tables.monitors;
    const latest = emulatorIds('monitors').at(-1)!;
    const before = await h.deps.warehouse.db
      .selectFrom('recordings')
      .select(['transcript', 'synced_at', 'audio_uri', 'audio_bytes'])
      .where('id', '=', latest)
      .executeTakeFirstOrThrow();
    expect(before.audio_uri).toMatch(/^file:\/\//);
    expect(Number(before.audio_bytes)).toBeGreaterThan(1000);
    monitors.update(latest, { transcript: 'Agent: Hello, late transcript here.', summary: 'Late summary' });
    await h.client.workflow.execute(syncStreamWorkflow, {
      taskQueue: h.taskQueue,
      workflowId: 'sync-acme-recordings-2',
      args: [{ account: 'acme', stream: 'recordings' }],
    });
    const after = await h.deps.warehouse.db
      .selectFrom('recordings')
      .select(['transcript', 'summary', 'synced_at'])
      .where('id', '=', latest)
      .executeTakeFirstOrThrow();
    expect(after.transcript).toBe('Agent: Hello, late transcript here.');
    expect(after.summary).toBe('Late summary');
    expect(after.synced_at.getTime()).toBeGreaterThan(before.synced_at.getTime());
    expect(await warehouseIds('recordings')).toEqual(emulatorIds('monitors'));
  });

  it('quarantines a malformed record with its reason and writes the rest of its page', async () => {
    const [good] = h.emulator.store.addCdrs(h.emulator.admin.customer_id, 1);
    const bad = h.emulator.store.tables.cdrs.insert(h.emulator.admin.customer_id, {
      ...good,
      id: undefined,
      calldate: good!.calldate,
      duration: 'about a minute',
    } as never);
    const [after] = h.emulator.store.addCdrs(h.emulator.admin.customer_id, 1);
    await h.client.workflow.execute(syncStreamWorkflow, {
      taskQueue: h.taskQueue,
      workflowId: 'sync-acme-cdrs-3',
      args: [{ account: 'acme', stream: 'cdrs' }],
    });
    const q = await h.deps.warehouse.db
      .selectFrom('quarantined_records')
      .selectAll()
      .where('record_id', '=', String(bad.id))
      .executeTakeFirstOrThrow();
    expect(q.stream).toBe('cdrs');
    expect(q.reason).toMatch(/duration/);
    const ids = await warehouseIds('cdrs');
    expect(ids).toEqual(expect.arrayContaining([Number(good!.id), Number(after!.id)]));
    expect(ids).not.toContain(Number(bad.id));
  });
});
