// The account sync loop (workflows/account-sync.ts) on the real stack: applySchedules starts one loop
// per account, which reads every configured stream at once and then at each stream's interval, in
// one activity per turn; `callsync sync --now` (triggerSync) is answered by the loop with a fresh
// run; re-applying changes nothing, a changed config reconfigures the loop, a removed account stops
// it, and the per-stream Schedules of earlier versions are deleted. The loop continues as new with
// what it was doing.
import { ScheduleOverlapPolicy, type WorkflowHandle } from '@temporalio/client';
import { accountSyncWorkflowId, syncStreamWorkflow, type LoopStream } from '../../contracts';
import { applySchedules, desiredLoops, triggerSync } from '../../runtime/schedules';
import type { CallsyncConfig } from '../../config/schema';
import { eventually } from '../support/eventually';
import { startSyncHarness, type SyncHarness } from './sync-harness';

jest.setTimeout(180_000);

let h: SyncHarness;
const customer = () => h.emulator.admin.customer_id;

/** The harness's config with these sync settings (its one account, acme, unless told otherwise). */
function withSync(sync: Partial<CallsyncConfig['sync']>, accounts = h.config.accounts): CallsyncConfig {
  return { ...h.config, accounts, sync: { ...h.config.sync, ...sync } };
}

const succeededRuns = async (stream: string) =>
  Number(
    (
      await h.deps.warehouse.db
        .selectFrom('sync_runs')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('account', '=', 'acme')
        .where('stream', '=', stream)
        .where('status', '=', 'succeeded')
        .executeTakeFirstOrThrow()
    ).n,
  );

const warehouseCdrs = async () =>
  Number(
    (
      await h.deps.warehouse.db
        .selectFrom('cdrs')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('account', '=', 'acme')
        .executeTakeFirstOrThrow()
    ).n,
  );

const loop = (): WorkflowHandle => h.client.workflow.getHandle(accountSyncWorkflowId('acme'));

beforeAll(async () => {
  h = await startSyncHarness({ label: 'account-sync', cdrs: 120 });
});
afterAll(() => h?.close());

describe('the account sync loop', () => {
  it('derives one loop per account with every stream at the interval of its kind', () => {
    const d = desiredLoops(
      withSync({ streams: ['cdrs', 'users'], historyInterval: 300_000, settingsInterval: 3_600_000 }),
    );
    expect(d).toEqual([
      {
        id: 'sync-acme',
        account: 'acme',
        streams: [
          { stream: 'cdrs', everyMs: 300_000 },
          { stream: 'users', everyMs: 3_600_000 },
        ],
      },
    ]);
  });

  it('replaces the per-stream Schedules of earlier versions, and reads every stream at once', async () => {
    // A Schedule an earlier version made for one stream (its workflows would race the loop's).
    await h.client.schedule.create({
      scheduleId: 'sync-acme-cdrs',
      spec: { intervals: [{ every: 3_600_000 }] },
      action: {
        type: 'startWorkflow',
        workflowType: syncStreamWorkflow,
        workflowId: 'sync-acme-cdrs',
        taskQueue: h.taskQueue,
        args: [{ account: 'acme', stream: 'cdrs' }],
      },
      policies: { overlap: ScheduleOverlapPolicy.SKIP },
      state: { paused: true },
    });
    const config = withSync({
      streams: ['cdrs', 'users'],
      historyInterval: 2_000,
      settingsInterval: 3_600_000,
    });
    const applied = await applySchedules(h.client, config);
    expect(applied).toEqual({
      created: ['sync-acme'],
      updated: [],
      deleted: ['sync-acme-cdrs'],
      unchanged: [],
    });
    const total = h.emulator.store.tables.cdrs.query(customer(), { page: 1, limit: 1, filter: [] }).total;
    await eventually(
      async () => ((await warehouseCdrs()) === total ? true : undefined),
      'every CDR in the warehouse',
    );
    await eventually(async () => ((await succeededRuns('users')) >= 1 ? true : undefined), 'a users run');
    let gone = false;
    try {
      await h.client.schedule.getHandle('sync-acme-cdrs').describe();
    } catch {
      gone = true;
    }
    expect(gone).toBe(true);
  });

  it('reads history streams again at their interval, settings streams not before theirs', async () => {
    const cdrRuns = await succeededRuns('cdrs');
    const userRuns = await succeededRuns('users');
    const added = h.emulator.store.addCdrs(customer(), 3).length;
    const before = await warehouseCdrs();
    // A turn's rows are in before its run is recorded as succeeded (at the end of its activity).
    await eventually(
      async () =>
        (await warehouseCdrs()) === before + added && (await succeededRuns('cdrs')) > cdrRuns
          ? true
          : undefined,
      'the new CDRs read by a later turn, its run succeeded',
    );
    // Settings are hourly: the turns since were the history stream's alone.
    expect(await succeededRuns('users')).toBe(userRuns);
  });

  it('answers `sync --now` with a fresh run of the stream, also for a stream not yet due', async () => {
    const userRuns = await succeededRuns('users');
    h.emulator.store.addCdrs(customer(), 2);
    const summary = await triggerSync(h.client, h.config, 'acme', 'users');
    expect(summary.pages).toBeGreaterThanOrEqual(1);
    expect(await succeededRuns('users')).toBe(userRuns + 1);
    // A stream the loop does not read runs on its own, as before.
    const other = await triggerSync(h.client, h.config, 'acme', 'recordings');
    expect(other.pages).toBeGreaterThanOrEqual(1);
  });

  it('leaves an unchanged loop alone, reconfigures a changed one, and stops the loop of a removed account', async () => {
    const config = withSync({
      streams: ['cdrs', 'users'],
      historyInterval: 2_000,
      settingsInterval: 3_600_000,
    });
    expect((await applySchedules(h.client, config)).unchanged).toEqual(['sync-acme']);

    const changed = withSync({ streams: ['cdrs'], historyInterval: 2_000 });
    expect((await applySchedules(h.client, changed)).updated).toEqual(['sync-acme']);
    const wanted: LoopStream[] = [{ stream: 'cdrs', everyMs: 2_000 }];
    await eventually(
      async () =>
        JSON.stringify((await loop().describe()).memo?.streams) === JSON.stringify(wanted) ? true : undefined,
      'the loop following the new streams',
    );
    expect((await applySchedules(h.client, changed)).unchanged).toEqual(['sync-acme']);

    const removed = await applySchedules(h.client, withSync({}, []));
    expect(removed.deleted).toEqual(['sync-acme']);
    await eventually(
      async () => ((await loop().describe()).status.name === 'CANCELLED' ? true : undefined),
      'the loop of the removed account ended',
    );
  });

  it('continues as new with its streams, intervals and open runs, and goes on reading', async () => {
    const streams: LoopStream[] = [{ stream: 'cdrs', everyMs: 1_000 }];
    const handle = await h.client.workflow.start('accountSync', {
      workflowId: 'sync-acme-short-runs',
      taskQueue: h.taskQueue,
      args: [{ account: 'acme', streams, turnsPerRun: 2 }],
      memo: { streams },
    });
    const firstRun = handle.firstExecutionRunId;
    const added = h.emulator.store.addCdrs(customer(), 2).length;
    const before = await warehouseCdrs();
    // Two turns a run: by the time the new CDRs are in, the loop has continued as new at least once.
    await eventually(async () => ((await warehouseCdrs()) >= before + added ? true : undefined), 'new CDRs');
    await eventually(async () => {
      const d = await h.client.workflow.getHandle('sync-acme-short-runs').describe();
      return d.runId !== firstRun && d.status.name === 'RUNNING' ? d : undefined;
    }, 'a continued run').then((d) => expect(d.memo?.streams).toEqual(streams));
    await h.client.workflow.getHandle('sync-acme-short-runs').terminate('test over');
  });
});
