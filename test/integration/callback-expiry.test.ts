// A callback nobody answers expires after callbacks.expireAfter (counted from its latest missed
// call): it ends as `expired`, not `closed`, since nobody reached the caller, and its task says why.
// On the real stack (emulator, Temporal, PostgreSQL, built-in CRM), with a short expiry.
import { callbackStateQuery } from '../../contracts';
import { eventually } from '../support/eventually';
import { workflowStory } from '../support/workflow-story';
import { callbackIdOf, missedCall } from './missed-call';
import { startSyncHarness, type SyncHarness } from './sync-harness';

jest.setTimeout(240_000);

describe('callback expiry', () => {
  let h: SyncHarness;

  beforeAll(async () => {
    h = await startSyncHarness({
      label: 'callback-expiry',
      cdrs: 100,
      config: { callbacks: { expireAfter: '8s' } },
    });
  }, 180_000);

  afterAll(async () => {
    await h?.close();
  });

  const tasksOf = (caller: string) =>
    h.deps.warehouse.db
      .selectFrom('builtin_tasks')
      .selectAll()
      .where('caller_number', '=', caller)
      .orderBy('id')
      .execute();

  it('expires a callback nobody answered, marks its task expired and says why', async () => {
    const caller = '+442079461301';
    const first = await missedCall(h, caller);
    const callback = h.client.workflow.getHandle(callbackIdOf(h, caller));
    const final = await eventually(
      async () => {
        const s = await callback.query(callbackStateQuery).catch(() => undefined);
        return s && s.status !== 'open' ? s : undefined;
      },
      'the callback to end',
      60_000,
      () => workflowStory(callback),
    );
    expect(final).toMatchObject({ status: 'expired', closedByCallId: null });
    const [task] = await eventually(async () => {
      const rows = await tasksOf(caller);
      return rows[0]?.status === 'expired' ? rows : undefined;
    }, 'the task expired');
    expect(task!.closed_at).toBeNull();
    expect(task!.body).toContain(`(call ${first})`);
    expect(task!.body).toContain('Expired: nobody reached the caller within 8 seconds');

    // The caller misses us again: a new callback, with a task of its own.
    const second = await missedCall(h, caller);
    const fresh = await eventually(async () => {
      const rows = await tasksOf(caller);
      return rows.length === 2 ? rows[1] : undefined;
    }, 'a second task');
    expect(fresh.body).toContain(`(call ${second})`);
    expect(fresh.body).not.toContain(`(call ${first})`);
  });
});
