// The warehouse sync against the world as it is, not as the emulator lists it by default: a CDR
// written hours after its calldate (a long call), a server that lists newest first unless told
// otherwise and caps its pages below the limit asked for, and records written while a read goes on.
// The emulator serves the data; a small proxy in front of it lists the way such servers do.
import { sql } from 'kysely';
import { getCheckpoint } from '../../connectors/postgres';
import { backfillWorkflow, callWorkflowId, syncStreamWorkflow } from '../../contracts';
import type { Row } from '../../emulator/store';
import { decodeCursor } from '../../sync/cursor';
import { formatPlatformTime, parsePlatformTime } from '../../sync/time';
import { startListingProxy, type ListingProxy } from './listing-proxy';
import { startSyncHarness, type SyncHarness } from './sync-harness';

jest.setTimeout(240_000);

const HOUR = 3_600_000;

describe('sync when the world is late and lists its own way', () => {
  let h: SyncHarness;
  let proxy: ListingProxy;
  let runs = 0;

  beforeAll(async () => {
    proxy = await startListingProxy(() => h.emulator.origin);
    h = await startSyncHarness({
      label: 'late-world',
      cdrs: 3000,
      platform: { baseUrl: proxy.baseUrl },
      // A call is "recent" for reconcile within 2 h of the newest CDR: a long call counts from its end.
      config: { calls: { reconcileWindow: '2h' } },
    });
  }, 180_000);

  afterAll(async () => {
    await h?.close();
    await proxy?.close();
  });

  const customer = () => h.emulator.admin.customer_id;
  const emulatorCdrIds = (): number[] => {
    const t = h.emulator.store.tables.cdrs;
    return t
      .query(customer(), { page: 1, limit: t.count(customer()) + 1, filter: [] })
      .data.map((r) => Number(r.id));
  };
  const warehouseCdrIds = async (): Promise<number[]> =>
    (await h.deps.warehouse.db.selectFrom('cdrs').select('id').where('account', '=', 'acme').execute())
      .map((r) => Number(r.id))
      .sort((a, b) => a - b);
  const syncCdrs = () =>
    h.client.workflow.execute(syncStreamWorkflow, {
      taskQueue: h.taskQueue,
      workflowId: `sync-late-world-cdrs-${++runs}`,
      args: [{ account: 'acme', stream: 'cdrs' }],
    });

  it("syncs a long call's CDR, written after the cursor passed its calldate, on the next incremental run, and reconciles its call", async () => {
    proxy.rules = {};
    await syncCdrs();
    // Three hours of calls later, the cursor stands at the newest calldate.
    h.emulator.store.clock.advance(3 * HOUR);
    h.emulator.store.addCdrs(customer(), 20);
    await syncCdrs();
    const { rows } = await sql<{ max: Date }>`select max(calldate) as max from cdrs`.execute(
      h.deps.warehouse.db,
    );
    const cursorMax = rows[0]!.max.getTime();

    // A call that started 6 hours ago hangs up now: its CDR gets the newest id, dated 6 hours back,
    // 5 hours before the newest calldate the warehouse has (sync.lateArrival is 2 h).
    h.emulator.store.clock.advance(HOUR);
    const now = h.emulator.store.clock.now().getTime();
    const template = h.emulator.store.tables.cdrs.get(emulatorCdrIds().at(-1)!)!.row;
    const { id: _id, ...fields } = template;
    const liveId = (h.emulator.store as unknown as { nextLiveId(): number }).nextLiveId();
    const started = formatPlatformTime(now - 6 * HOUR);
    expect(cursorMax - parsePlatformTime(started)).toBeGreaterThan(4 * HOUR);
    const long: Row = h.emulator.store.tables.cdrs.insertLate(customer(), {
      ...fields,
      live_id: liveId,
      calldate: started,
      duration: 6 * 3600,
      billsec: 6 * 3600 - 20,
    });

    await syncCdrs();
    expect(await warehouseCdrIds()).toContain(Number(long.id));
    expect(await warehouseCdrIds()).toEqual(emulatorCdrIds());
    // Its call ended now: reconcile started its lifecycle although it started 6 h ago.
    const lifecycle = await h.client.workflow.getHandle(callWorkflowId('acme', liveId)).describe();
    expect(lifecycle.type).toBe('callLifecycle');
  });

  it('backfills every CDR of a window from a server that caps pages below the limit and lists newest first', async () => {
    proxy.rules = { cap: 170, newestFirstByDefault: true };
    proxy.reads.length = 0;
    const result = await h.client.workflow.execute(backfillWorkflow, {
      taskQueue: h.taskQueue,
      workflowId: 'backfill-late-world-cdrs',
      args: [
        { account: 'acme', stream: 'cdrs', from: '2025-11-01', to: '2026-11-03', windowMs: 90 * 86_400_000 },
      ],
    });
    const expected = emulatorCdrIds();
    // Every record once: no window ended on its first short page, none read twice.
    expect(result.records).toBe(expected.length);
    expect(await warehouseCdrIds()).toEqual(expected);
    // The backfill's reads (by calldate window): the lifecycles the first test reconciled may still be
    // looking up their calls' CDRs by live_id meanwhile.
    const cdrReads = proxy.reads.filter(
      (r) => r.path === '/cdrs' && (r.query.get('filter') ?? '').includes('"calldate"'),
    );
    expect(cdrReads.length).toBeGreaterThan(expected.length / 170);
    for (const { query } of cdrReads) {
      expect([query.get('sort'), query.get('dir')]).toEqual(['id', 'ASC']);
    }
  });

  it('an incremental run loses and repeats nothing while records are written during its read, from a capping, newest-first server', async () => {
    const sms = h.emulator.store.tables.sms;
    const template = sms.query(customer(), { page: 1, limit: 1, filter: [] }).data[0]!;
    const writeSms = (n: number): number[] =>
      Array.from({ length: n }, () => {
        const { id: _id, ...fields } = template;
        return Number(
          sms.insert(customer(), { ...fields, created_at: h.emulator.store.clock.nowString() }).id,
        );
      });
    const emulatorSmsIds = () =>
      sms
        .query(customer(), { page: 1, limit: sms.count(customer()) + 1, filter: [] })
        .data.map((r) => Number(r.id));
    const syncSms = () =>
      h.client.workflow.execute(syncStreamWorkflow, {
        taskQueue: h.taskQueue,
        workflowId: `sync-late-world-sms-${++runs}`,
        args: [{ account: 'acme', stream: 'sms' }],
      });
    proxy.rules = { cap: 150, newestFirstByDefault: true };
    await syncSms();
    const batch = writeSms(700);
    let reads = 0;
    const writtenDuringRead: number[] = [];
    proxy.rules = {
      cap: 150,
      newestFirstByDefault: true,
      beforeList: (path) => {
        // Between pages, messages keep arriving.
        if (path === '/sms' && ++reads % 2 === 0) writtenDuringRead.push(...writeSms(7));
      },
    };
    // The run reads the ids after the oldest run end it keeps (all ended within sync.lateArrival).
    const checkpoint = await getCheckpoint(h.deps.warehouse.db, { account: 'acme', stream: 'sms' });
    const floor = decodeCursor(checkpoint!.cursor!).ended?.[0]?.[1];
    const run = await syncSms();
    proxy.rules = { cap: 150, newestFirstByDefault: true };
    const warehouseSmsIds = (
      await h.deps.warehouse.db.selectFrom('sms').select('id').where('account', '=', 'acme').execute()
    )
      .map((r) => Number(r.id))
      .sort((a, b) => a - b);
    expect(warehouseSmsIds).toEqual(emulatorSmsIds());
    expect(writtenDuringRead.length).toBeGreaterThan(0);
    expect(warehouseSmsIds).toEqual(expect.arrayContaining([...batch, ...writtenDuringRead]));
    // The run read each record after its floor exactly once, those written during its read too.
    expect(floor).toBeDefined();
    expect(run.records).toBe(emulatorSmsIds().filter((id) => id > floor!).length);
  });
});
