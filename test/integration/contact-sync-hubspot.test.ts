// Two-way contact sync against the emulator and the HubSpot test server, on real Temporal and
// PostgreSQL, through the product's wiring (the schedule `callsync schedules apply` and `npm start`
// create, the worker's activities): people on either side appear on the other once, numbers typed
// differently still match, an ambiguous match is recorded and nothing written for it, many rounds
// of changes on both sides write each change once (no echo, no ping-pong), a batch whose answer was
// lost is recovered without duplicates, and a platform delete marks the CRM record.
import { formatContactSyncStatus, collectContactSyncStatus } from '../../cli/commands/status-contact-sync';
import { contactSyncId, contactSyncWorkflow, type ContactSyncSummary } from '../../contracts';
import { findCrmContactByPhone, getContactSyncState, loadContactLinks } from '../../connectors/postgres';
import { applyContactSyncSchedules } from '../../runtime/contact-sync-schedule';
import { startFakeHubSpot, type FakeHubSpot } from '../fakes/hubspot-server';
import { eventually } from '../support/eventually';
import { startSyncHarness, type SyncHarness } from './sync-harness';
import { destinationIdOf } from '../../connectors/crm/crm-connector';

jest.setTimeout(300_000);

describe('contact sync with HubSpot', () => {
  let fake: FakeHubSpot;
  let h: SyncHarness;
  // The account's own contact cache, at its destination (portal or org).
  const cacheOf = (account: string) => ({ account, destination: destinationIdOf(h.deps.crm(account)) });
  // Links and progress are kept per account and portal or org too.
  const scope = () => cacheOf('acme');
  let runs = 0;
  const platform = () => h.deps.platform('acme').settings.contacts;
  const run = (): Promise<ContactSyncSummary> =>
    h.client.workflow.execute(contactSyncWorkflow, {
      taskQueue: h.config.temporal.taskQueue,
      workflowId: `${contactSyncId('acme')}-test-${++runs}`,
      args: [{ account: 'acme' }],
    });
  const crmByName = (first: string) =>
    fake.objects('contacts').filter((o) => o.properties.firstname === first);
  const platformAll = async () => {
    const all = [];
    for await (const c of platform().list({ limit: 5000 })) all.push(c);
    return all;
  };
  const writes = () => ({
    crm: fake.requests
      .filter((r) => r.method === 'POST' && r.path === '/crm/v3/objects/contacts/batch/update')
      .reduce((n, r) => n + (r.body as { inputs: unknown[] }).inputs.length, 0),
  });

  let ann: number;
  let dan: number;

  beforeAll(async () => {
    fake = await startFakeHubSpot();
    fake.seedContact({
      firstname: 'Ann',
      lastname: 'Same',
      phone: '020 7946 0101',
      email: 'Ann@Example.com',
    });
    fake.seedContact({ firstname: 'Bob', lastname: 'Crm', mobilephone: '+44 7911 100202' });
    fake.seedContact({ firstname: 'Dup1', lastname: 'Dan', phone: '020 7946 0404' });
    fake.seedContact({ firstname: 'Dup2', lastname: 'Dan', phone: '(020) 7946-0404' });
    h = await startSyncHarness({
      label: 'contact-sync-hubspot',
      cdrs: 10,
      config: {
        crm: {
          destination: {
            type: 'hubspot',
            accessToken: fake.token,
            basePath: fake.url,
            requestsPer10Seconds: 190,
          },
        },
        contacts: { enabled: true, every: '1h' },
      },
    });
    ann = (
      await platform().create({
        first_name: 'Ann',
        last_name: 'Same',
        tel: '+442079460101',
        email: 'ann@example.com',
      })
    ).id;
    await platform().create({
      first_name: 'Cat',
      last_name: 'Plat',
      mobile: '07911 100303',
      company: 'Cats Ltd',
    });
    dan = (await platform().create({ first_name: 'Dan', last_name: 'Dup', tel: '+44 20 7946 0404' })).id;
  }, 240_000);

  afterAll(async () => {
    await h?.close();
    await fake?.close();
  });

  it('runs from its schedule: each person once on both sides, the ambiguous match recorded and left alone', async () => {
    const outcome = await applyContactSyncSchedules(h.client, h.config);
    expect(outcome).toEqual({ acme: 'created' });
    const state = await eventually(
      async () => {
        const s = await getContactSyncState(h.deps.warehouse.db, scope());
        return s?.stage === 'done' ? s : undefined;
      },
      'the scheduled contact sync to finish',
      240_000,
    );
    expect(state.phase).toBe('incremental');
    // The tests' own runs follow. The schedule's next run (intervals fall on the hour) would run beside
    // one of them when a test crosses the hour, and two runs at once each write what the other did.
    await h.client.schedule.getHandle(contactSyncId('acme')).pause('the tests run the sync themselves');

    // Ann matched (number typed differently, e-mail in another case): still one Ann on each side.
    expect(crmByName('Ann')).toHaveLength(1);
    const onPlatform = await platformAll();
    expect(onPlatform.filter((c) => c.first_name === 'Ann')).toHaveLength(1);
    // Bob came to the platform, Cat went to HubSpot, once each, with their numbers in E.164.
    expect(onPlatform.filter((c) => c.first_name === 'Bob').map((c) => c.mobile)).toEqual(['+447911100202']);
    expect(crmByName('Cat').map((o) => [o.properties.mobilephone, o.properties.company])).toEqual([
      ['+447911100303', 'Cats Ltd'],
    ]);
    // Dan: two HubSpot contacts share his number, none of them on e-mail: nothing linked or copied.
    expect(onPlatform.filter((c) => c.last_name === 'Dan')).toHaveLength(0);
    expect(crmByName('Dan')).toHaveLength(0);
    const links = await loadContactLinks(h.deps.warehouse.db, scope());
    expect(links.find((l) => l.platformId === String(dan))).toBeUndefined();
    expect(links.find((l) => l.platformId === String(ann))).toBeDefined();
    // The screen-pop cache is warmed: Ann's number finds her HubSpot record, Cat's her new one.
    const annCache = await findCrmContactByPhone(h.deps.warehouse.db, cacheOf('acme'), '+442079460101');
    expect(annCache?.contacts.map((c) => [c.crmId, c.name])).toEqual([[crmByName('Ann')[0]!.id, 'Ann Same']]);
    const catCache = await findCrmContactByPhone(h.deps.warehouse.db, cacheOf('acme'), '+447911100303');
    expect(catCache?.contacts.map((c) => c.crmId)).toEqual([crmByName('Cat')[0]!.id]);
    const status = formatContactSyncStatus(await collectContactSyncStatus(h.deps.warehouse.db));
    expect(status).toMatch(new RegExp(`AMBIGUOUS: 1[\\s\\S]*platform ${dan} → \\d+, \\d+`));
    // Every emulator contact with a number or e-mail is linked (the seeded book went across too).
    const withKey = onPlatform.filter(
      (c) => c.id !== dan && (c.tel || c.mobile || c.tel_1 || c.mobile_1 || c.tel_2 || c.mobile_2 || c.email),
    );
    expect(links.length).toBeGreaterThanOrEqual(withKey.length - 5);
  });

  it('a second run writes nothing: its own writes come back and are recognised', async () => {
    const before = writes();
    const summary = await run();
    expect(summary).toMatchObject({
      createdInCrm: 0,
      createdOnPlatform: 0,
      updatedInCrm: 0,
      updatedOnPlatform: 0,
    });
    expect(summary.unchanged).toBeGreaterThan(0);
    expect(writes()).toEqual(before);
  });

  it('many rounds of changes on both sides: each change written once, no echo, no ping-pong', async () => {
    // The merge rules, round after round, with search seeing writes at once; what a lagging search
    // does is the next test's.
    fake.setSearchLag(0);
    try {
      await manyRounds();
    } finally {
      fake.setSearchLag(1_000);
    }
  });

  async function manyRounds(): Promise<void> {
    const annCrm = crmByName('Ann')[0]!.id;
    const cat = (await platformAll()).find((c) => c.first_name === 'Cat')!;
    const catCrm = crmByName('Cat')[0]!.id;
    for (let round = 1; round <= 4; round++) {
      // Different fields of Ann on each side; the same field of Cat on both sides at once.
      await platform().update(ann, { first_name: `Ann${round}` });
      fake.updateContact(annCrm, { lastname: `Same${round}` });
      await platform().update(cat.id, { company: `Plat Co ${round}` });
      fake.updateContact(catCrm, { company: `Crm Co ${round}` });
      const s = await run();
      // Ann's first name and Cat's company (newest wins: the platform's change, seen by this run) to
      // HubSpot; Ann's last name to the platform. Nothing else.
      expect([s.updatedInCrm, s.updatedOnPlatform, s.createdInCrm, s.createdOnPlatform]).toEqual([
        2, 1, 0, 0,
      ]);
      const a = await platform().get(ann);
      expect([a.first_name, a.last_name]).toEqual([`Ann${round}`, `Same${round}`]);
      expect(fake.objects('contacts').find((o) => o.id === annCrm)!.properties).toMatchObject({
        firstname: `Ann${round}`,
        lastname: `Same${round}`,
      });
      expect(fake.objects('contacts').find((o) => o.id === catCrm)!.properties.company).toBe(
        `Plat Co ${round}`,
      );
      // The next run reads all of that back (the cursor covers this run's writes) and writes nothing.
      const quiet = await run();
      expect([quiet.updatedInCrm, quiet.updatedOnPlatform]).toEqual([0, 0]);
    }
  }

  it('takes no stale search answer for a change: its own write, still unindexed, is not written back', async () => {
    fake.setSearchLag(5_000);
    try {
      await platform().update(ann, { first_name: 'AnnLagged' });
      const wrote = await run();
      expect(wrote.updatedInCrm).toBe(1);
      // Search still answers with Ann as she was before that write (inside the read's margin): read
      // as a HubSpot change, it would be written back over the platform's newer name.
      const quiet = await run();
      expect([quiet.updatedInCrm, quiet.updatedOnPlatform]).toEqual([0, 0]);
      expect((await platform().get(ann)).first_name).toBe('AnnLagged');
    } finally {
      fake.setSearchLag(1_000);
    }
  });

  it('a batch whose answer was lost is found again by its key: no duplicates, later batches go on', async () => {
    const names = Array.from({ length: 250 }, (_, i) => `Batch${i}`);
    for (const [i, name] of names.entries()) {
      await platform().create({
        first_name: name,
        last_name: 'Resume',
        tel: `+44 20 3${String(1000000 + i)}`,
      });
    }
    const creates = () =>
      fake.requests.filter((r) => r.method === 'POST' && r.path === '/crm/v3/objects/contacts/batch/create');
    const before = creates().length;
    // The second batch is created in HubSpot, but the activity hears a 500 (as if it had crashed).
    fake.loseBatchCreateAnswer(1);
    const summary = await run();
    const sent = creates().slice(before);
    expect(sent.map((r) => r.status)).toEqual([201, 500, 201]);
    // The retried attempt links the lost batch's 100 by their key and creates only the last 50.
    expect([summary.linked, summary.createdInCrm]).toEqual([100, 50]);
    const created = fake.objects('contacts').filter((o) => o.properties.lastname === 'Resume');
    expect(created).toHaveLength(250);
    expect(new Set(created.map((o) => o.properties.callsync_contact)).size).toBe(250);
    const links = await loadContactLinks(h.deps.warehouse.db, scope());
    expect(new Set(links.map((l) => l.crmId)).size).toBe(links.length);
    for (const o of created) expect(links.some((l) => l.crmId === o.id)).toBe(true);
  });

  it('a contact deleted on the platform is kept in HubSpot and marked', async () => {
    const cat = (await platformAll()).find((c) => c.first_name === 'Cat')!;
    const catCrm = crmByName('Cat')[0]!.id;
    await platform().delete([cat.id]);
    // The platform deletes contacts asynchronously (it answers 202): sync once the contact is gone.
    await eventually(
      async () => ((await platformAll()).some((c) => c.id === cat.id) ? undefined : true),
      "the platform's asynchronous delete",
      30_000,
    );
    const summary = await run();
    expect(summary.deleted).toBe(1);
    const kept = fake.objects('contacts').find((o) => o.id === catCrm);
    expect(kept?.properties.callsync_deleted).toMatch(/^\d{4}-/);
    // Marked and left alone: the next run neither recreates it on the platform nor writes it again.
    const again = await run();
    expect([again.createdOnPlatform, again.deleted, again.updatedInCrm]).toEqual([0, 0, 0]);
  });
});
