// crm.createUnknownContacts: an unknown caller gets one contact, however many of their calls (and
// their callback task) are followed at once. The real activities (logCall, upsertCallbackTask) run
// side by side against the built-in destination and HubSpot's test server, with the emulator's CDRs.
import { readFileSync } from 'node:fs';
import { MockActivityEnvironment } from '@temporalio/testing';
import { createActivities } from '../../activities';
import { parseTestConfig } from '../support/test-config';
import type { CrmConnector } from '../../connectors/crm/crm-connector';
import { silentLogger } from '../../lib/logger';
import { createActivityDeps, type RuntimeDeps } from '../../runtime/activity-deps';
import { startFakeHubSpot, type FakeHubSpot } from '../fakes/hubspot-server';
import { startSyncHarness, type SyncHarness } from './sync-harness';

jest.setTimeout(240_000);

describe('contacts of unknown callers', () => {
  let h: SyncHarness;
  let fake: FakeHubSpot;
  let builtin: RuntimeDeps;
  let hubspot: RuntimeDeps;

  /** The harness's settings with `crm` replaced, as a worker with that config would run them. */
  const depsWith = (crm: Record<string, unknown>) => {
    const input = JSON.parse(readFileSync(h.configFile, 'utf8')) as Record<string, unknown>;
    return createActivityDeps(parseTestConfig({ ...input, crm }), h.database.url, silentLogger);
  };

  /**
   * `deps` whose CRM takes `ms` to answer a phone search. The built-in destination answers in a
   * millisecond; a real CRM's search takes hundreds, and that is the window in which the follow-ups
   * of one caller's calls look the number up side by side.
   */
  const withSlowSearch = (deps: RuntimeDeps, ms: number): RuntimeDeps => {
    const slow = new Map<string, CrmConnector>();
    const crm = (account: string): CrmConnector => {
      let c = slow.get(account);
      if (!c) {
        const real = deps.crm(account);
        c = Object.create(real) as CrmConnector;
        // The answer is as of when the search was asked, and arrives `ms` later.
        c.findContactsByPhone = async (e164) => {
          const found = await real.findContactsByPhone(e164);
          await new Promise((r) => setTimeout(r, ms));
          return found;
        };
        slow.set(account, c);
      }
      return c;
    };
    return { ...deps, crm };
  };

  beforeAll(async () => {
    fake = await startFakeHubSpot();
    h = await startSyncHarness({ label: 'unknown-contacts', cdrs: 50, inProcessWorker: false });
    builtin = withSlowSearch(await depsWith({ createUnknownContacts: true }), 300);
    hubspot = await depsWith({
      createUnknownContacts: true,
      destination: { type: 'hubspot', accessToken: fake.token, basePath: fake.url },
    });
  }, 180_000);

  afterAll(async () => {
    await builtin?.close();
    await hubspot?.close();
    await h?.close();
    await fake?.close();
  });

  /** Two missed calls from `caller` in the emulator; their call ids. */
  function twoCalls(caller: string): number[] {
    const rows = h.emulator.store.addCdrs(h.emulator.admin.customer_id, 2);
    for (const row of rows) {
      h.emulator.store.tables.cdrs.update(row.id, {
        type: 'M',
        src: caller,
        dst: '101',
        billsec: 0,
        disposition: 'RINGING',
        t_cause: 'No user responding',
      });
    }
    return rows.map((r) => Number(r.live_id));
  }

  /** Both calls logged and the callback task written, all at once, each as its own activity. */
  async function followAtOnce(deps: RuntimeDeps, caller: string, callIds: number[]): Promise<void> {
    const acts = createActivities(deps);
    const run = <A, R>(fn: (a: A) => Promise<R>, arg: A): Promise<R> =>
      new MockActivityEnvironment().run(fn, arg);
    type Of<K extends 'logCall' | 'upsertCallbackTask'> = Parameters<(typeof acts)[K]>[0];
    const logCall = (a: Of<'logCall'>) => acts.logCall(a);
    const writeTask = (a: Of<'upsertCallbackTask'>) => acts.upsertCallbackTask(a);
    await Promise.all([
      ...callIds.map((callId) => run(logCall, { account: 'acme', callId, known: null, crmId: null })),
      run(writeTask, {
        account: 'acme',
        number: caller,
        firstCallId: callIds[0]!,
        status: 'open' as const,
        missed: callIds.map((callId) => ({
          callId,
          at: new Date().toISOString(),
          calledUserId: null,
          queueId: null,
        })),
        dialAttempts: [],
        dueAt: new Date().toISOString(),
      }),
    ]);
  }

  it('creates one contact in the built-in destination for calls and a callback followed at once', async () => {
    const caller = '+442079469101';
    const callIds = twoCalls(caller);
    await followAtOnce(builtin, caller, callIds);
    const contacts = await h.deps.warehouse.db
      .selectFrom('builtin_contacts')
      .selectAll()
      .where('phone', '=', caller)
      .execute();
    expect(contacts).toHaveLength(1);
    const contactId = `builtin:${contacts[0]!.id}`;
    const logs = await h.deps.warehouse.db
      .selectFrom('builtin_call_logs')
      .select('contact_id')
      .where(
        'key',
        'in',
        callIds.map((id) => `acme:${id}`),
      )
      .execute();
    expect(logs.map((l) => l.contact_id)).toEqual([contactId, contactId]);
    const [task] = await h.deps.warehouse.db
      .selectFrom('builtin_tasks')
      .select('contact_id')
      .where('caller_number', '=', caller)
      .execute();
    expect(task?.contact_id).toBe(contactId);
    // A later call from them finds that contact: still one.
    await followAtOnce(builtin, caller, twoCalls(caller));
    expect(
      await h.deps.warehouse.db
        .selectFrom('builtin_contacts')
        .select('id')
        .where('phone', '=', caller)
        .execute(),
    ).toHaveLength(1);
  });

  it('creates one contact in HubSpot (its test server) for calls and a callback followed at once', async () => {
    const caller = '+442079469102';
    const callIds = twoCalls(caller);
    await followAtOnce(hubspot, caller, callIds);
    const contacts = fake.objects('contacts').filter((c) => c.properties.phone === caller);
    expect(contacts).toHaveLength(1);
    const calls = fake
      .objects('calls')
      .filter((o) => callIds.some((id) => o.properties.callsync_key === `acme:${id}`));
    expect(calls).toHaveLength(2);
    for (const call of calls) expect(call.associations.map((a) => a.toId)).toEqual([contacts[0]!.id]);
  });
});
