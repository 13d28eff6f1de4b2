// Callbacks in Google Tasks through the official @googleapis/tasks client against the local Google
// (test/fakes/google): on the real stack (emulator, Temporal, PostgreSQL) a missed caller gets one
// task in the assignee's list, a second miss updates that task, a connected call completes it; at the
// connector, redelivery, a lost mapping and concurrent first writes never duplicate a task or list.
import { parseTestConfig } from '../support/test-config';
import { recordMapping, upsertTask } from '../../connectors/crm';
import { GoogleTasksConnector, googleTasksConfigSchema, keyLine } from '../../connectors/google-tasks';
import { CrmError, CrmRateLimitedError } from '../../connectors/crm/errors';
import { silentLogger } from '../../lib/logger';
import { createActivityDeps } from '../../runtime/activity-deps';
import { startFakeGoogleApps, type FakeGoogleApps } from '../fakes/google/apps-server';
import { testServiceAccount } from '../fakes/google/service-account';
import { eventually } from '../support/eventually';
import { callbackTask } from '../unit/crm-fixtures';
import { deliverCallEvents, missedCall } from './missed-call';
import { startSyncHarness, type SyncHarness } from './sync-harness';

jest.setTimeout(240_000);

const MAILBOX = 'callbacks@example.com';

describe('callbacks in Google Tasks', () => {
  let google: FakeGoogleApps;
  let h: SyncHarness;
  let destination: Record<string, unknown>;

  beforeAll(async () => {
    google = await startFakeGoogleApps();
    destination = {
      type: 'google-tasks',
      // Delegation to the mailbox whose Tasks hold the lists (a service account's own are seen by no one).
      credentials: { serviceAccountJson: google.serviceAccount.json, subject: MAILBOX },
      rootUrl: google.url,
      tasklists: { 'pinned@example.com': 'PINNED' },
    };
    h = await startSyncHarness({
      label: 'callbacks-google-tasks',
      cdrs: 20,
      config: { crm: { destination } },
    });
  }, 180_000);

  afterAll(async () => {
    await h?.close();
    await google?.close();
  });

  const mailbox = () => MAILBOX;
  const connector = () =>
    new GoogleTasksConnector(googleTasksConfigSchema.parse(destination), h.deps.warehouse.db, 'acme');

  it('opens one task in the assignee list, updates it on the next miss, completes it when the caller is reached', async () => {
    const caller = '+442079461101';
    const admin = h.emulator.admin;
    const listTitle = `Callbacks – ${admin.email.toLowerCase()}`;
    const tasksFor = () =>
      google.tasks
        .lists(mailbox())
        .filter((l) => l.title === listTitle)
        .flatMap((l) => l.tasks)
        .filter((t) => t.title.includes(caller));

    const first = await missedCall(h, caller, { userId: admin.user_id });
    const [task] = await eventually(async () => {
      const found = tasksFor();
      return found.length > 0 ? found : undefined;
    }, 'the callback task in Google Tasks');
    expect(task).toMatchObject({ status: 'needsAction', title: `Call back ${caller}` });
    expect(task!.notes).toContain(`call ${first}`);
    expect(task!.notes).toContain(keyLine(`acme:callback:${caller}:${first}`));
    expect(task!.due).toMatch(/^\d{4}-\d{2}-\d{2}T00:00:00.000Z$/);

    const second = await missedCall(h, caller, { userId: admin.user_id });
    await eventually(
      async () => (tasksFor()[0]?.notes?.includes(`call ${second}`) ? true : undefined),
      'the second missed call in the task notes',
    );
    expect(tasksFor()).toHaveLength(1);
    expect(tasksFor()[0]!.notes).toMatch(/^2 missed calls from/);

    // A connected call from the caller closes the callback.
    const customer = admin.customer_id;
    const [cdr] = h.emulator.store.addCdrs(customer, 1);
    h.emulator.store.tables.cdrs.update(cdr!.id, {
      type: 'I',
      src: caller,
      dst: '101',
      billsec: 60,
      disposition: 'CONNECTED',
      t_cause: 'Normal Clearing',
    });
    const reached = Number(cdr!.live_id);
    const base = {
      time: null,
      state: null,
      context: 'LOCAL_USER',
      destination: 'in',
      src: caller,
      dst: '101',
    };
    const blanks = { srcId: null, dstId: null, srcName: null, dstName: null, duration: null, tCause: null };
    await deliverCallEvents(h, reached, [
      {
        eventId: `${reached}-1`,
        name: 'call.connected',
        ...base,
        ...blanks,
        connectedAt: null,
        digits: null,
      },
      { eventId: `${reached}-2`, name: 'call.hangup', ...base, ...blanks, connectedAt: null, digits: null },
    ]);
    await eventually(
      async () => (tasksFor()[0]?.status === 'completed' ? true : undefined),
      'the task completed',
    );
    expect(tasksFor()).toHaveLength(1);
    expect(tasksFor()[0]!.completed).toBeDefined();
    // One list for the assignee, created once; the call logs stay in the warehouse.
    expect(google.tasks.lists(mailbox()).filter((l) => l.title === listTitle)).toHaveLength(1);
    const logs = await h.deps.warehouse.db
      .selectFrom('builtin_call_logs')
      .select('key')
      .where('key', 'in', [`acme:${first}`, `acme:${second}`])
      .execute();
    expect(logs).toHaveLength(2);
  });

  it('never duplicates a task: redelivery, a lost mapping, and concurrent first writes', async () => {
    const c = connector();
    const task = callbackTask({ assigneeEmail: 'ann@example.com' });
    const db = h.deps.warehouse.db;
    const inserts = () =>
      google.requests.filter((r) => r.method === 'POST' && /\/lists\/[^/]+\/tasks$/.test(r.path)).length;
    const before = inserts();

    // Concurrent first writes of one key (a retry racing its original): one insert.
    const results = await Promise.all([
      upsertTask(db, c, task),
      upsertTask(db, c, task),
      upsertTask(db, c, task),
    ]);
    expect(new Set(results.map((r) => r.crmId)).size).toBe(1);
    expect(inserts() - before).toBe(1);

    // Redelivered with a change: the same task is patched.
    const again = await upsertTask(db, c, { ...task, body: 'two missed calls' });
    expect(again).toEqual({ crmId: results[0].crmId, outcome: 'updated' });

    // A create whose mapping was never recorded (the worker died in between): the retry finds it by key.
    const orphan = callbackTask({ assigneeEmail: 'ann@example.com' });
    const orphanId = await c.createTask(orphan);
    const recovered = await upsertTask(db, c, { ...orphan, status: 'closed' });
    expect(recovered).toEqual({ crmId: orphanId, outcome: 'recovered' });
    expect(inserts() - before).toBe(2);

    const annList = google.tasks.lists(mailbox()).filter((l) => l.title === 'Callbacks – ann@example.com');
    expect(annList).toHaveLength(1);
    const completed = annList[0]!.tasks.find((t) => t.notes?.includes(keyLine(orphan.key)));
    expect(completed?.status).toBe('completed');

    // A second connector (another worker) uses the recorded list, never a second one.
    const other = connector();
    await upsertTask(db, other, callbackTask({ assigneeEmail: 'ANN@example.com' }));
    expect(
      google.tasks.lists(mailbox()).filter((l) => l.title === 'Callbacks – ann@example.com'),
    ).toHaveLength(1);
  });

  it('files tasks in a configured list by user e-mail or id, and reports Google errors typed', async () => {
    const c = connector();
    const db = h.deps.warehouse.db;
    // PINNED does not exist in this user's Tasks: Google's 404, not retryable.
    const pinned = callbackTask({ assigneeEmail: 'pinned@example.com' });
    const err = await upsertTask(db, c, pinned).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CrmError);
    expect(err).toMatchObject({ status: 404, retryable: false, destination: 'google-tasks' });
    expect((err as Error).message).toMatch(/Requested entity was not found/);

    google.failNext('POST', '/tasks/v1/lists/', 429, 1);
    const limited = await c
      .createTask(callbackTask({ assigneeEmail: 'bob@example.com' }))
      .catch((e: unknown) => e);
    expect(limited).toBeInstanceOf(CrmRateLimitedError);
    expect(limited).toMatchObject({ status: 429, retryable: true });

    // A mapping recorded by hand for a task Google does not have: the patch's 404 surfaces.
    const ghost = callbackTask({ assigneeEmail: 'bob@example.com' });
    await recordMapping(db, {
      destination: 'google-tasks',
      kind: 'task',
      sourceKey: ghost.key,
      account: 'acme',
      crmId: '/nolist/notask',
    });
    await expect(upsertTask(db, c, ghost)).rejects.toMatchObject({ status: 404 });
  });

  it('erasure: deletes a task it created from its list; one already gone counts as deleted', async () => {
    const c = connector();
    const task = callbackTask({ assigneeEmail: 'erased@example.com' });
    const id = await c.createTask(task);
    expect(google.tasks.allTasks().some((t) => t.notes?.includes(task.key))).toBe(true);
    await c.deleteTask(id);
    expect(google.tasks.allTasks().some((t) => t.notes?.includes(task.key))).toBe(false);
    await expect(c.deleteTask(id)).resolves.toBeUndefined();
  });

  it('delegate: each task lands in its assignee’s own Tasks (the token’s subject), none in the mailbox', async () => {
    const c = new GoogleTasksConnector(
      googleTasksConfigSchema.parse({ ...destination, perUser: 'delegate' }),
      h.deps.warehouse.db,
      'acme',
    );
    const task = callbackTask({ assigneeEmail: 'dora@example.com' });
    await upsertTask(h.deps.warehouse.db, c, task);
    const [list] = google.tasks.lists('dora@example.com');
    expect(list?.title).toBe('Callbacks');
    expect(list?.tasks.map((t) => t.notes?.includes(task.key))).toEqual([true]);
    expect(google.google.oauth.exchanges.some((e) => e.sub === 'dora@example.com')).toBe(true);
    for (const owner of [MAILBOX, google.serviceAccount.clientEmail]) {
      expect(
        google.tasks
          .lists(owner)
          .flatMap((l) => l.tasks)
          .some((t) => t.notes?.includes(task.key)),
      ).toBe(false);
    }
  });

  it('refuses to start a service account without subject: its own Tasks are seen by no one', async () => {
    for (const perUser of ['list', 'delegate']) {
      const config = parseTestConfig({
        accounts: [{ name: 'acme', platform: h.config.accounts[0]!.platform }],
        crm: {
          destination: {
            ...destination,
            perUser,
            credentials: { serviceAccountJson: google.serviceAccount.json },
          },
        },
        logLevel: 'silent',
      });
      await expect(createActivityDeps(config, h.database.url, silentLogger)).rejects.toThrow(
        /CRM setup failed \(crm.destination google-tasks\).*crm\.destination\.credentials\.subject is not set.*no person can see/,
      );
    }
    expect(google.tasks.lists(google.serviceAccount.clientEmail)).toEqual([]);
  });

  it('refuses to start with credentials Google does not accept, naming the refusal', async () => {
    const stranger = testServiceAccount('stranger@elsewhere.iam.gserviceaccount.com');
    const config = parseTestConfig({
      accounts: [{ name: 'acme', platform: h.config.accounts[0]!.platform }],
      crm: {
        destination: {
          ...destination,
          credentials: { serviceAccountJson: stranger.json, selfSignedJwt: true },
        },
      },
      logLevel: 'silent',
    });
    await expect(createActivityDeps(config, h.database.url, silentLogger)).rejects.toThrow(
      /CRM setup failed \(crm.destination google-tasks\).*invalid authentication credentials/,
    );
  });
});
