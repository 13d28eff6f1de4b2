// Two-way contact sync against the emulator and the Salesforce test server, on real Temporal and
// PostgreSQL, through the product's wiring (the schedule `callsync schedules apply` and `npm start`
// create, the worker's activities): people on either side appear on the other once, a Lead matches a
// number typed differently, an ambiguous match is recorded and nothing written for it, a record
// Salesforce refuses is recorded with its reason while the rest of its collection is saved, many
// rounds of changes on both sides write each change once (no echo, no ping-pong), a collection whose
// answer was lost is recovered by key without duplicates, and deletes on either side mark the other.
// The org's standard duplicate rules are on (contact-sync-salesforce-duplicates.test.ts checks them).
// The org starts without callsync's custom fields: the worker creates and grants them itself. A
// linked Lead that a salesperson converts keeps its person: the link follows to the new Contact.
import { collectContactSyncStatus, formatContactSyncStatus } from '../../cli/commands/status-contact-sync';
import { findCrmContactByPhone, getContactSyncState, loadContactLinks } from '../../connectors/postgres';
import { applyContactSyncSchedules } from '../../runtime/contact-sync-schedule';
import { contactSyncId } from '../../contracts';
import { startFakeSalesforce, type FakeSalesforce } from '../fakes/salesforce-server';
import { eventually } from '../support/eventually';
import { startSyncHarness, type SyncHarness } from './sync-harness';
import { salesforceContactSync } from './contact-sync-salesforce-fixture';

jest.setTimeout(300_000);

describe('contact sync with Salesforce', () => {
  let fake: FakeSalesforce;
  let h: SyncHarness;
  const { cacheOf, scope, platform, run, sfByName, sfById, platformAll, writes, refused } =
    salesforceContactSync(
      () => h,
      () => fake,
      'test',
    );

  let ann: number;
  let dan: number;
  let lee: number;
  let solo: number;
  let leeLead: string;

  beforeAll(async () => {
    // The org's standard duplicate rules are on, as in a new org: the emulator's generated people share
    // numbers and e-mails, so creates for some of them are refused with DUPLICATES_DETECTED naming a
    // Contact created (and linked) a batch before; contact sync links such a create to the record the
    // rule names when it is free, and records an ambiguity when it is linked already, never a duplicate.
    fake = await startFakeSalesforce({ queryPageSize: 50 });
    const annCorp = fake.seed('Account', { Name: 'Ann Corp' });
    fake.seed('Contact', {
      FirstName: 'Ann',
      LastName: 'Same',
      Phone: '020 7946 0101',
      Email: 'Ann@Example.com',
      AccountId: annCorp,
    });
    fake.seed('Contact', { FirstName: 'Bob', LastName: 'Crm', MobilePhone: '+44 7911 100202' });
    fake.seed('Contact', { FirstName: 'Dup1', LastName: 'Dan', Phone: '020 7946 0404' });
    fake.seed('Contact', { FirstName: 'Dup2', LastName: 'Dan', OtherPhone: '(020) 7946-0404' });
    leeLead = fake.seed('Lead', {
      FirstName: 'Lee',
      LastName: 'Lead',
      Phone: '(020) 7946-0505',
      Company: 'Lee Ltd',
    });
    // A converted Lead is a Contact now: never synced.
    fake.seed('Lead', {
      FirstName: 'Old',
      LastName: 'Converted',
      Company: 'X',
      Phone: '+44 7911 100909',
      IsConverted: true,
    });
    h = await startSyncHarness({
      label: 'contact-sync-salesforce',
      cdrs: 10,
      config: {
        crm: {
          destination: {
            type: 'salesforce',
            instanceUrl: fake.url,
            accessToken: fake.token,
            apiVersion: fake.version,
            requestsPerSecond: 100,
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
    lee = (await platform().create({ first_name: 'Lee', last_name: 'Lead', tel: '+44 20 7946 0505' })).id;
    // Salesforce requires a Contact's LastName: this one is refused, the rest of its collection saved.
    solo = (await platform().create({ first_name: 'Solo', tel: '+44 20 7946 0606' })).id;
  }, 240_000);

  afterAll(async () => {
    await h?.close();
    await fake?.close();
  });

  it('runs from its schedule: each person once on both sides, Leads matched, the ambiguous and refused recorded', async () => {
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
    // The org had no callsync fields: the worker created them and granted them to its user itself.
    expect(fake.customFields()).toEqual([
      'Contact.Callsync_Contact__c',
      'Contact.Callsync_Deleted__c',
      'Lead.Callsync_Contact__c',
      'Lead.Callsync_Deleted__c',
    ]);
    expect(fake.records('PermissionSetAssignment').map((r) => r.fields.AssigneeId)).toEqual([fake.apiUserId]);

    const onPlatform = await platformAll();
    // Ann matched (number typed differently, e-mail in another case); her Account's name came across.
    expect(sfByName('Ann')).toHaveLength(1);
    expect(onPlatform.filter((c) => c.first_name === 'Ann').map((c) => c.company)).toEqual(['Ann Corp']);
    // Lee's platform contact matched the Lead by a number in another format: linked, nothing created.
    expect(sfByName('Lee').map((r) => r.Id)).toEqual([leeLead]);
    expect(onPlatform.filter((c) => c.first_name === 'Lee')).toHaveLength(1);
    const links = await loadContactLinks(h.deps.warehouse.db, scope());
    expect(links.find((l) => l.platformId === String(lee))).toMatchObject({
      crmKind: 'lead',
      crmId: leeLead,
    });
    // Bob came to the platform, Cat went to Salesforce as a Contact (the default), once each.
    expect(onPlatform.filter((c) => c.first_name === 'Bob').map((c) => c.mobile)).toEqual(['+447911100202']);
    const cat = sfByName('Cat');
    expect(cat.map((r) => [r.type, r.fields.MobilePhone, r.fields.Callsync_Contact__c])).toEqual([
      ['Contact', '+447911100303', expect.stringMatching(/^acme:\d+$/)],
    ]);
    // The converted Lead stays out.
    expect(onPlatform.filter((c) => c.first_name === 'Old')).toHaveLength(0);
    // Dan: two Contacts share his number (one in OtherPhone), none on e-mail: nothing linked or copied.
    expect(onPlatform.filter((c) => c.last_name === 'Dan')).toHaveLength(0);
    expect(sfByName('Dan')).toHaveLength(0);
    expect(links.find((l) => l.platformId === String(dan))).toBeUndefined();
    // Solo was refused (no LastName) and recorded with Salesforce's reason; others of the batch saved.
    expect(sfByName('Solo')).toHaveLength(0);
    expect(links.find((l) => l.platformId === String(solo))).toBeUndefined();
    const [row] = await collectContactSyncStatus(h.deps.warehouse.db);
    const ambiguous = row!.ambiguities.filter((a) => !a.reason.startsWith('rejected by the CRM: '));
    expect(ambiguous.find((a) => a.record_id === String(dan))?.candidates).toEqual([
      expect.stringMatching(/^003/),
      expect.stringMatching(/^003/),
    ]);
    // Generated people sharing a number or e-mail with one created a batch before: the duplicate rule
    // refused their create naming that Contact, linked already; recorded, nothing created or linked.
    const linkedCrm = new Set(links.map((l) => l.crmId));
    const others = ambiguous.filter((a) => a.record_id !== String(dan));
    expect(others.length).toBeGreaterThan(0);
    for (const a of others) {
      expect(a.reason).toBe('matches CRM records already linked to other platform contacts');
      expect(a.candidates.length).toBeGreaterThan(0);
      expect(a.candidates.filter((id) => !linkedCrm.has(id))).toEqual([]);
      expect(links.some((l) => l.platformId === a.record_id)).toBe(false);
    }
    const status = formatContactSyncStatus([row!]);
    expect(status).toMatch(new RegExp(`AMBIGUOUS: ${ambiguous.length} `));
    expect(status).toMatch(new RegExp(`REJECTED: \\d+[\\s\\S]*platform ${solo}: REQUIRED_FIELD_MISSING`));
    // The screen-pop cache is warmed with the Lead too.
    const leeCache = await findCrmContactByPhone(h.deps.warehouse.db, cacheOf('acme'), '+442079460505');
    expect(leeCache?.contacts.map((c) => [c.crmId, c.kind])).toEqual([[leeLead, 'lead']]);
  });

  it('a second run writes nothing but the refused record again: its own writes are recognised', async () => {
    const before = writes();
    const summary = await run();
    expect(summary).toMatchObject({
      createdInCrm: 0,
      createdOnPlatform: 0,
      updatedInCrm: 0,
      updatedOnPlatform: 0,
    });
    expect(summary.unchanged).toBeGreaterThan(0);
    // Only the records Salesforce refused are tried again (Solo among them).
    expect(writes() - before).toBe(await refused());
  });

  it('many rounds of changes on both sides: each change written once, no echo, no ping-pong', async () => {
    const annSf = sfByName('Ann')[0]!.Id;
    const cat = (await platformAll()).find((c) => c.first_name === 'Cat')!;
    const catSf = sfByName('Cat')[0]!.Id;
    const retried = await refused();
    for (let round = 1; round <= 4; round++) {
      // Different fields of Ann on each side; the same field of Lee (a Lead) on both sides at once;
      // Cat's company on the platform (a Contact's company is its Account's: not written).
      await platform().update(ann, { first_name: `Ann${round}` });
      fake.edit(annSf, { LastName: `Same${round}` });
      await platform().update(lee, { company: `Plat Co ${round}` });
      fake.edit(leeLead, { Company: `Crm Co ${round}` });
      await platform().update(cat.id, { company: `Cats ${round}` });
      const before = writes();
      const s = await run();
      expect([s.updatedInCrm, s.updatedOnPlatform, s.createdInCrm, s.createdOnPlatform]).toEqual([
        2, 1, 0, 0,
      ]);
      const a = await platform().get(ann);
      expect([a.first_name, a.last_name]).toEqual([`Ann${round}`, `Same${round}`]);
      expect(sfById(annSf).fields).toMatchObject({ FirstName: `Ann${round}`, LastName: `Same${round}` });
      expect(sfById(leeLead).fields.Company).toBe(`Plat Co ${round}`);
      expect(sfById(catSf).fields.Company).toBeUndefined();
      // Two updates, plus the refused creates tried again.
      expect(writes() - before).toBe(2 + retried);
      // The next run reads all of that back and writes nothing (but the refused create).
      const quietBefore = writes();
      const quiet = await run();
      expect([quiet.updatedInCrm, quiet.updatedOnPlatform]).toEqual([0, 0]);
      expect(writes() - quietBefore).toBe(retried);
    }
  });

  it('a linked Lead converted in Salesforce: the link follows to its Contact, no one is created twice', async () => {
    const before = (await platformAll()).length;
    const leeContact = fake.convertLead(leeLead);
    const s = await run();
    expect([s.createdOnPlatform, s.createdInCrm]).toEqual([0, 0]);
    expect((await platformAll()).length).toBe(before);
    const link = (await loadContactLinks(h.deps.warehouse.db, scope())).find(
      (l) => l.platformId === String(lee),
    )!;
    expect([link.crmKind, link.crmId]).toEqual(['contact', leeContact]);
    // The caller's number finds the Contact now (screen-pops and call logs).
    const cached = await findCrmContactByPhone(h.deps.warehouse.db, cacheOf('acme'), '+442079460505');
    expect(cached?.contacts.map((c) => [c.crmId, c.kind])).toEqual([[leeContact, 'contact']]);
    // A change on the platform reaches the Contact; the frozen Lead is not written (it would be refused).
    await platform().update(lee, { first_name: 'Leo' });
    const next = await run();
    expect(next.updatedInCrm).toBe(1);
    expect(sfById(leeContact).fields.FirstName).toBe('Leo');
    expect(sfById(leeLead).fields.FirstName).toBe('Lee');
    const status = formatContactSyncStatus(await collectContactSyncStatus(h.deps.warehouse.db));
    expect(status).not.toMatch(/CANNOT_UPDATE_CONVERTED_LEAD/);
  });

  it('a collection whose answer was lost is found again by its key: no duplicates, later batches go on', async () => {
    for (let i = 0; i < 250; i++) {
      await platform().create({
        first_name: `Batch${i}`,
        last_name: 'Resume',
        tel: `+44 20 3${String(1000000 + i)}`,
      });
    }
    const creates = () =>
      fake.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/composite/sobjects'));
    const before = creates().length;
    // The first collection (200) is saved in Salesforce, but the activity hears a 503.
    fake.loseCollectionCreateAnswer(1);
    const summary = await run();
    const sent = creates().slice(before);
    // The lost collection (200: the refused creates first, then the first of the 250), then the
    // retried attempt's collections with the rest (one here; CI once saw two on a loaded machine, so
    // their number is not asserted: the records below are, none twice).
    expect(sent[0]!.status).toBe(503);
    expect(sent.slice(1).map((r) => r.status)).toEqual(sent.slice(1).map(() => 200));
    expect(sent.length).toBeGreaterThanOrEqual(2);
    expect((sent[0]!.body as { records: unknown[] }).records).toHaveLength(200);
    // The retries linked the saved records by their key (at least the lost collection's) and
    // created the rest.
    const lost = 200 - (await refused());
    expect(summary.linked).toBeGreaterThanOrEqual(lost);
    expect(summary.linked + summary.createdInCrm).toBe(250);
    const created = fake.records('Contact').filter((r) => r.fields.LastName === 'Resume');
    expect(created).toHaveLength(250);
    expect(new Set(created.map((r) => r.fields.Callsync_Contact__c)).size).toBe(250);
    const links = await loadContactLinks(h.deps.warehouse.db, scope());
    expect(new Set(links.map((l) => l.crmId)).size).toBe(links.length);
    for (const r of created) expect(links.some((l) => l.crmId === r.Id)).toBe(true);
    // The retry read the 200 back in pages (50 a page here) with queryMore.
    expect(fake.requests.filter((r) => r.path.includes('/query/01g')).length).toBeGreaterThanOrEqual(3);
  });

  it('a contact deleted on the platform is kept in Salesforce and marked; one deleted in Salesforce is marked on the platform', async () => {
    const cat = (await platformAll()).find((c) => c.first_name === 'Cat')!;
    const catSf = sfByName('Cat')[0]!.Id;
    await platform().delete([cat.id]);
    await eventually(
      async () => ((await platformAll()).some((c) => c.id === cat.id) ? undefined : true),
      "the platform's asynchronous delete",
      30_000,
    );
    const bob = (await platformAll()).find((c) => c.first_name === 'Bob')!;
    fake.remove(sfByName('Bob')[0]!.Id);
    const summary = await run();
    expect(summary.deleted).toBe(2);
    expect(sfById(catSf).fields.Callsync_Deleted__c).toMatch(/^\d{4}-/);
    expect((await platform().get(bob.id)).labels).toEqual(['callsync: deleted in CRM']);
    // Marked and left alone: the next run neither recreates either side nor writes them again.
    const again = await run();
    expect([again.createdOnPlatform, again.createdInCrm, again.deleted, again.updatedInCrm]).toEqual([
      0, 0, 0, 0,
    ]);
  });
});
