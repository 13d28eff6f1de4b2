// An account moved to another HubSpot portal: what callsync created in the first portal is no object
// of the second. The mappings (crm_objects) are keyed by the destination's identity, so an update or a
// retry of a call (and of its callback task) after the move creates it in the new portal instead of
// PATCHing the old portal's id there (a 404) or skipping it, and the old portal's mapping stays as it
// was. Each "worker" is createActivityDeps with the account's config of the time, as a restart runs it.
// Rows written before mappings had identities hold the type alone; a worker's start claims them for
// the portal the account is configured with. The contact sync links the account's contacts in each
// portal apart.
import { readFileSync } from 'node:fs';
import { MockActivityEnvironment } from '@temporalio/testing';
import { sql } from 'kysely';
import { createActivities } from '../../activities';
import { parseTestConfig } from '../support/test-config';
import { destinationIdOf } from '../../connectors/crm/crm-connector';
import { callDetail, destinationClaims, getCheckpoint, loadContactLinks } from '../../connectors/postgres';
import { OUTCOMES_STREAM } from '../../activities/outcome-activities';
import { silentLogger } from '../../lib/logger';
import { createActivityDeps, type RuntimeDeps } from '../../runtime/activity-deps';
import { startFakeHubSpot, type FakeHubSpot } from '../fakes/hubspot-server';
import { startSyncHarness, type SyncHarness } from './sync-harness';
import { callLog } from '../unit/crm-fixtures';

jest.setTimeout(240_000);

describe('an account moved to another HubSpot portal', () => {
  let h: SyncHarness;
  let portalA: FakeHubSpot;
  let portalB: FakeHubSpot;
  const workers: RuntimeDeps[] = [];

  /** A worker started with the harness's settings and the account's CRM at `portal`. */
  const workerOn = async (portal: FakeHubSpot, token = portal.token): Promise<RuntimeDeps> => {
    const input = JSON.parse(readFileSync(h.configFile, 'utf8')) as Record<string, unknown>;
    const crm = { destination: { type: 'hubspot', accessToken: token, basePath: portal.url } };
    const deps = await createActivityDeps(parseTestConfig({ ...input, crm }), h.database.url, silentLogger);
    workers.push(deps);
    return deps;
  };

  /** A missed call in the emulator; its CDR id and call id. */
  function missed(caller: string): { cdrId: number; callId: number } {
    const [row] = h.emulator.store.addCdrs(h.emulator.admin.customer_id, 1);
    h.emulator.store.tables.cdrs.update(row!.id, {
      type: 'M',
      src: caller,
      dst: '101',
      billsec: 0,
      disposition: 'RINGING',
      t_cause: 'No user responding',
    });
    return { cdrId: Number(row!.id), callId: Number(row!.live_id) };
  }

  /** Runs one activity as attempt `attempt` (a later attempt searches the CRM for the key first). */
  const run = <A, R>(attempt: number, fn: (a: A) => Promise<R>, arg: A): Promise<R> =>
    new MockActivityEnvironment({ attempt }).run(fn, arg);

  /** The call's log and its callback task written by `deps`'s activities, as attempt `attempt`. */
  async function follow(deps: RuntimeDeps, caller: string, callId: number, attempt: number) {
    const acts = createActivities(deps);
    type Of<K extends 'logCall' | 'upsertCallbackTask'> = Parameters<(typeof acts)[K]>[0];
    const logged = await run(attempt, (a: Of<'logCall'>) => acts.logCall(a), {
      account: 'acme',
      callId,
      known: null,
      crmId: null,
    });
    const task = await run(attempt, (a: Of<'upsertCallbackTask'>) => acts.upsertCallbackTask(a), {
      account: 'acme',
      number: caller,
      firstCallId: callId,
      status: 'open' as const,
      missed: [{ callId, at: new Date().toISOString(), calledUserId: null, queueId: null }],
      dialAttempts: [],
      dueAt: new Date().toISOString(),
    });
    return { call: logged.crmId, task };
  }

  const keyed = (portal: FakeHubSpot, type: 'calls' | 'tasks', key: string) =>
    portal.objects(type).filter((o) => o.properties.callsync_key === key);

  const mappings = (sourceKey: string) =>
    h.deps.warehouse.db
      .selectFrom('crm_objects')
      .select(['destination', 'kind', 'crm_id'])
      .where('source_key', '=', sourceKey)
      .orderBy('destination')
      .execute();

  beforeAll(async () => {
    // Two portals: each its own token and portal id (the connector names a portal by its token).
    // Portal A also takes a second token of its own (a rotated private-app token).
    portalA = await startFakeHubSpot({
      token: 'pat-portal-a',
      portalId: 1_111_111,
      tokens: ['pat-portal-a-2'],
    });
    portalB = await startFakeHubSpot({ token: 'pat-portal-b', portalId: 2_222_222 });
    h = await startSyncHarness({ label: 'crm-destination-switch', cdrs: 20, inProcessWorker: false });
  }, 180_000);

  afterAll(async () => {
    for (const w of workers) await w.close();
    await h?.close();
    await portalA?.close();
    await portalB?.close();
  });

  it('creates the call log and the task in the new portal on an update and on a retry, and keeps the old portal’s', async () => {
    const caller = '+442079469301';
    const { cdrId, callId } = missed(caller);
    const callKey = `acme:${callId}`;
    const taskKey = `acme:callback:${caller}:${callId}`;

    const onA = await workerOn(portalA);
    const inA = await follow(onA, caller, callId, 1);
    expect(keyed(portalA, 'calls', callKey).map((o) => o.id)).toEqual([inA.call]);
    expect(keyed(portalA, 'tasks', taskKey).map((o) => o.id)).toEqual([inA.task]);
    const idA = destinationIdOf(onA.crm('acme'));

    // The account's config now points at portal B; the call is updated (a first attempt, which goes
    // straight to create on a miss), then retried (a later attempt, which searches first).
    const onB = await workerOn(portalB);
    const idB = destinationIdOf(onB.crm('acme'));
    expect(idB).not.toBe(idA);
    const requestsOfA = portalA.requests.length;
    const requestsOfB = portalB.requests.length; // after the start's setup (its property reads 404)
    const inB = await follow(onB, caller, callId, 1);
    expect(keyed(portalB, 'calls', callKey).map((o) => o.id)).toEqual([inB.call]);
    expect(keyed(portalB, 'tasks', taskKey).map((o) => o.id)).toEqual([inB.task]);
    const again = await follow(onB, caller, callId, 2);
    expect(again).toEqual(inB);
    expect(keyed(portalB, 'calls', callKey)).toHaveLength(1);
    expect(keyed(portalB, 'tasks', taskKey)).toHaveLength(1);
    // Nothing of A's was sent to B (no update of an id B never gave, no 404), nor anything to A.
    expect(portalB.requests.slice(requestsOfB).filter((r) => r.status >= 400)).toEqual([]);
    expect(portalA.requests.length).toBe(requestsOfA);

    // Both portals' mappings, each its own.
    expect(await mappings(callKey)).toEqual(
      [
        { destination: idA, kind: 'call_log', crm_id: inA.call },
        { destination: idB, kind: 'call_log', crm_id: inB.call },
      ].sort((x, y) => x.destination.localeCompare(y.destination)),
    );
    expect(await mappings(taskKey)).toEqual(
      [
        { destination: idA, kind: 'task', crm_id: inA.task },
        { destination: idB, kind: 'task', crm_id: inB.task },
      ].sort((x, y) => x.destination.localeCompare(y.destination)),
    );

    // The dashboard shows the objects of the account's current portal (the call's CDR synced first).
    await sql`insert into cdrs (account, id, live_id, src, dst, raw)
      values ('acme', ${cdrId}, ${callId}, ${caller}, '101', '{}')`.execute(h.deps.warehouse.db);
    const shown = await callDetail(h.deps.warehouse.db, 'acme', cdrId, idB);
    expect(shown?.crm.map((o) => o.crm_id)).toEqual([inB.call]);
    expect(shown?.tasks.map((o) => o.crm_id)).toEqual([inB.task]);

    // Back on A: A's own objects are updated in place, nothing new is created there.
    const backOnA = await follow(onA, caller, callId, 1);
    expect(backOnA).toEqual(inA);
    expect(keyed(portalA, 'calls', callKey)).toHaveLength(1);
    expect(keyed(portalA, 'tasks', taskKey)).toHaveLength(1);
  });

  it("updates the portal's call log and task after its token is rotated, creating no second", async () => {
    const caller = '+442079469377';
    const { callId } = missed(caller);
    const callKey = `acme:${callId}`;
    const taskKey = `acme:callback:${caller}:${callId}`;
    const before = await follow(await workerOn(portalA), caller, callId, 1);

    // The same portal, a new token: a new identity, so the mappings are not found under it. The
    // call's workflow wrote its log and task before and says so; a first attempt of the update then
    // finds them by key (calls and tasks have no unique values to refuse a second).
    const rotated = await workerOn(portalA, 'pat-portal-a-2');
    const acts = createActivities(rotated);
    type Of<K extends 'logCall' | 'upsertCallbackTask'> = Parameters<(typeof acts)[K]>[0];
    const logged = await run(1, (a: Of<'logCall'>) => acts.logCall(a), {
      account: 'acme',
      callId,
      known: { recording: true, transcript: true },
      crmId: before.call,
    });
    const task = await run(1, (a: Of<'upsertCallbackTask'>) => acts.upsertCallbackTask(a), {
      account: 'acme',
      number: caller,
      firstCallId: callId,
      status: 'closed' as const,
      missed: [{ callId, at: new Date().toISOString(), calledUserId: null, queueId: null }],
      dialAttempts: [],
      dueAt: new Date().toISOString(),
      written: true,
    });
    expect({ call: logged.crmId, task }).toEqual(before);
    expect(keyed(portalA, 'calls', callKey).map((o) => o.id)).toEqual([before.call]);
    expect(keyed(portalA, 'tasks', taskKey).map((o) => o.id)).toEqual([before.task]);
    expect(keyed(portalA, 'tasks', taskKey)[0]!.properties.hs_task_status).toBe('COMPLETED');
  });

  it('claims rows written before mappings had identities for the portal the account is configured with', async () => {
    const caller = '+442079469302';
    const { callId } = missed(caller);
    const callKey = `acme:${callId}`;
    const onA = workers[0]!;
    const idA = destinationIdOf(onA.crm('acme'));
    // A call log an older callsync created in portal A, mapped by type alone, as it used to be; and
    // the outcomes cursor and a CDR outcome of that time.
    const legacyId = await onA.crm('acme').createCallLog(
      callLog({
        key: callKey,
        title: 'Missed call',
        status: 'missed',
        startedAt: new Date().toISOString(),
        durationSeconds: 0,
        fromNumber: caller,
        toNumber: null,
      }),
    );
    const db = h.deps.warehouse.db;
    await db
      .insertInto('crm_objects')
      .values({
        account: 'acme',
        destination: 'hubspot',
        kind: 'call_log',
        source_key: callKey,
        crm_id: legacyId,
      })
      .execute();
    await sql`insert into cdr_outcomes (destination, call_key, account, crm_id, value, state)
      values ('hubspot', ${callKey}, 'acme', ${legacyId}, 'x', 'echo')`.execute(db);
    await sql`insert into sync_checkpoints (account, stream, scope, cursor)
      values ('acme', ${OUTCOMES_STREAM}, 'hubspot', '2026-01-01T00:00:00.000Z')`.execute(db);

    // A worker's start (config: portal A) claims them for A.
    const restarted = await workerOn(portalA);
    expect(await mappings(callKey)).toEqual([{ destination: idA, kind: 'call_log', crm_id: legacyId }]);
    const outcomes = await db
      .selectFrom('cdr_outcomes')
      .select('destination')
      .where('call_key', '=', callKey)
      .execute();
    expect(outcomes).toEqual([{ destination: idA }]);
    expect(await getCheckpoint(db, { account: 'acme', stream: OUTCOMES_STREAM, scope: idA })).toMatchObject({
      cursor: '2026-01-01T00:00:00.000Z',
    });
    expect(await destinationClaims(db)).toEqual([
      expect.objectContaining({ account: 'acme', type: 'hubspot', destination: idA, rows: 3 }),
    ]);

    // The old call log is updated in place in A, not created again.
    const acts = createActivities(restarted);
    const logged = await run(1, (a: Parameters<typeof acts.logCall>[0]) => acts.logCall(a), {
      account: 'acme',
      callId,
      known: null,
      crmId: null,
    });
    expect(logged.crmId).toBe(legacyId);
    expect(keyed(portalA, 'calls', callKey).map((o) => o.id)).toEqual([legacyId]);

    // Another start claims nothing more.
    await workerOn(portalA);
    expect(await destinationClaims(db)).toHaveLength(1);
  });

  it('links the account’s contacts in each portal apart: a sync in B neither reads nor moves A’s links', async () => {
    const [onA, onB] = workers;
    const sync = (deps: RuntimeDeps) => {
      const acts = createActivities(deps);
      return run(1, (a: { account: string }) => acts.syncContacts(a), { account: 'acme' });
    };
    const linksOf = (deps: RuntimeDeps) =>
      loadContactLinks(h.deps.warehouse.db, {
        account: 'acme',
        destination: destinationIdOf(deps.crm('acme')),
      });
    await sync(onA!);
    const inA = await linksOf(onA!);
    expect(inA.length).toBeGreaterThan(0);
    const contactsOfA = new Set(portalA.objects('contacts').map((o) => o.id));
    expect(inA.filter((l) => !contactsOfA.has(l.crmId))).toEqual([]);

    // Portal B has none of A's records: the first sync there is an initial one, and links B's own.
    const inB0 = await linksOf(onB!);
    expect(inB0).toEqual([]);
    expect((await sync(onB!)).phase).toBe('initial');
    const inB = await linksOf(onB!);
    const contactsOfB = new Set(portalB.objects('contacts').map((o) => o.id));
    expect(inB.map((l) => l.platformId).sort()).toEqual(inA.map((l) => l.platformId).sort());
    expect(inB.filter((l) => !contactsOfB.has(l.crmId))).toEqual([]);
    expect(await linksOf(onA!)).toEqual(inA);
  });
});
