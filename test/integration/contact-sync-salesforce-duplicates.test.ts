// The org's standard duplicate rules (on, as in a new org) and the two-way contact sync with
// Salesforce, on the emulator, the Salesforce test server, real Temporal and PostgreSQL: a create the
// rules refuse is linked to the record they name (a Contact the lagging search could not find), never
// created twice nor recorded as rejected; an edit they refuse is held, listed by status at every run,
// not sent again until a record changes, and then sent.
import { collectContactSyncStatus, formatContactSyncStatus } from '../../cli/commands/status-contact-sync';
import { findCrmContactByPhone, getContactSyncState, loadContactLinks } from '../../connectors/postgres';
import { startFakeSalesforce, type FakeSalesforce } from '../fakes/salesforce-server';
import { eventually } from '../support/eventually';
import { startSyncHarness, type SyncHarness } from './sync-harness';
import { salesforceContactSync } from './contact-sync-salesforce-fixture';

jest.setTimeout(300_000);

describe("contact sync with Salesforce's duplicate rules", () => {
  let fake: FakeSalesforce;
  let h: SyncHarness;
  const { cacheOf, scope, platform, run, sfByName, sfById, platformAll, writes, refused } =
    salesforceContactSync(
      () => h,
      () => fake,
      'dup',
    );

  let ann: number;

  beforeAll(async () => {
    fake = await startFakeSalesforce({ queryPageSize: 50 });
    fake.seed('Contact', {
      FirstName: 'Ann',
      LastName: 'Same',
      Phone: '020 7946 0101',
      Email: 'Ann@Example.com',
    });
    h = await startSyncHarness({
      label: 'contact-sync-salesforce-dup',
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
    // The first run links Ann and brings everyone else across.
    expect((await run()).phase).toBe('initial');
  }, 240_000);

  afterAll(async () => {
    await h?.close();
    await fake?.close();
  });

  it("a create the org's duplicate rule refuses is linked to the Contact it names, which the search could not see yet", async () => {
    // Set up one way here (nothing copied to the platform): a Contact created through the API, by a
    // web form say, stays unlinked; SOQL reads it at once, SOSL not until the search index catches up.
    const contacts = h.deps.config.contacts;
    const twoWay = contacts.createOnPlatform;
    contacts.createOnPlatform = false;
    fake.setSearchIndexDelay(3_600_000);
    try {
      const res = await fetch(`${fake.url}/services/data/v${fake.version}/sobjects/Contact`, {
        method: 'POST',
        headers: { authorization: `Bearer ${fake.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ FirstName: 'Ivy', LastName: 'Index', Phone: '+44 20 7946 0707' }),
      });
      expect(res.status).toBe(201);
      const ivySf = ((await res.json()) as { id: string }).id;
      // Runs read it (SOQL) and leave it alone, until their cursor has passed it: from then on only
      // the search would find it.
      const stamp = Date.parse(sfById(ivySf).SystemModstamp);
      await eventually(
        async () => {
          await run();
          const cursor = (await getContactSyncState(h.deps.warehouse.db, scope()))?.crmCursor;
          // SOQL compares whole seconds: a second past it.
          return cursor && cursor.getTime() >= stamp + 1000 ? true : undefined;
        },
        "the CRM cursor to pass the Contact's SystemModstamp",
        60_000,
      );
      expect((await platformAll()).filter((c) => c.first_name === 'Ivy')).toHaveLength(0);
      const unlinked = await loadContactLinks(h.deps.warehouse.db, scope());
      expect(unlinked.some((l) => l.crmId === ivySf)).toBe(false);
      // Her number comes to the platform: the run's search misses the Contact, its create is refused.
      const ivy = (
        await platform().create({
          first_name: 'Ivy',
          last_name: 'Index',
          tel: '+44 20 7946 0707',
          email: 'ivy@example.com',
        })
      ).id;
      const rejected = await refused();
      const creates = () =>
        fake.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/composite/sobjects'));
      const createsBefore = creates().length;
      const s = await run();
      const tried = creates()
        .slice(createsBefore)
        .flatMap((r) => (r.body as { records: Array<Record<string, unknown>> }).records);
      expect(tried.filter((r) => r.Callsync_Contact__c === `acme:${ivy}`)).toHaveLength(1);
      // Linked to the Contact the rule named, as a search's match: no second Contact, nothing rejected.
      const link = (await loadContactLinks(h.deps.warehouse.db, scope())).find(
        (l) => l.platformId === String(ivy),
      );
      expect(link).toMatchObject({ crmKind: 'contact', crmId: ivySf });
      expect(sfByName('Ivy').map((r) => r.Id)).toEqual([ivySf]);
      expect(s).toMatchObject({ createdInCrm: 0, linked: 1 });
      expect(await refused()).toBe(rejected);
      // The platform's e-mail reached the Contact, as for any new link.
      expect(sfById(ivySf).fields.Email).toBe('ivy@example.com');
      // The caller's number finds the Contact (screen-pops and call logs).
      const cached = await findCrmContactByPhone(h.deps.warehouse.db, cacheOf('acme'), '+442079460707');
      expect(cached?.contacts.map((c) => c.crmId)).toEqual([ivySf]);
      // Linked for good: the next run writes nothing for her (only the refused records again).
      const before = writes();
      const next = await run();
      expect([next.createdInCrm, next.updatedInCrm, next.linked]).toEqual([0, 0, 0]);
      expect(writes() - before).toBe(await refused());
    } finally {
      contacts.createOnPlatform = twoWay;
      fake.setSearchIndexDelay(0);
    }
  });

  it("an edit the org's duplicate rule refuses is held and shown by status: not lost, not sent every run", async () => {
    const links = await loadContactLinks(h.deps.warehouse.db, scope());
    const ivy = (await platformAll()).find((c) => c.first_name === 'Ivy')!.id;
    const ivySf = links.find((l) => l.platformId === String(ivy))!.crmId;
    const annSf = links.find((l) => l.platformId === String(ann))!.crmId;
    const entry = async () =>
      (await collectContactSyncStatus(h.deps.warehouse.db))[0]!.ambiguities.find(
        (a) => a.record_id === String(ivy),
      );
    // Ivy's e-mail becomes Ann's on the platform (with a new first name): Salesforce refuses the edit
    // whole, since Ann's Contact has that e-mail.
    await platform().update(ivy, { first_name: 'Ivy2', email: 'ann@example.com' });
    const s = await run();
    expect(s.updatedInCrm).toBe(0);
    expect(sfById(ivySf).fields).toMatchObject({ FirstName: 'Ivy', Email: 'ivy@example.com' });
    const refusedEdit = fake.requests
      .filter((r) => r.method === 'PATCH' && r.path.endsWith('/composite/sobjects'))
      .pop()!;
    expect((refusedEdit.body as { records: Array<{ Id?: string; id?: string }> }).records).toHaveLength(1);
    expect((await entry())?.reason).toMatch(
      new RegExp(`^rejected by the CRM: DUPLICATES_DETECTED: .*\\(matches ${annSf}\\); held: `),
    );
    expect(formatContactSyncStatus(await collectContactSyncStatus(h.deps.warehouse.db))).toMatch(
      new RegExp(`REJECTED: \\d+[\\s\\S]*platform ${ivy} → ${ivySf}: DUPLICATES_DETECTED`),
    );
    // The next runs send nothing for it (only the refused creates again) and still show it.
    for (let i = 0; i < 2; i++) {
      const before = writes();
      const quiet = await run();
      expect(quiet.updatedInCrm).toBe(0);
      expect(writes() - before).toBe((await refused()) - 1);
      expect((await entry())?.reason).toMatch(/^rejected by the CRM: .*duplicate rule.*; held: /);
    }
    // The platform keeps its edit meanwhile.
    expect((await platform().get(ivy)).email).toBe('ann@example.com');
    // A change on either record sends the held edit again: here the e-mail is fixed on the platform,
    // and the held first name goes along.
    await platform().update(ivy, { email: 'ivy2@example.com' });
    const fixed = await run();
    expect(fixed.updatedInCrm).toBe(1);
    expect(sfById(ivySf).fields).toMatchObject({ FirstName: 'Ivy2', Email: 'ivy2@example.com' });
    expect(await entry()).toBeUndefined();
    const after = writes();
    await run();
    expect(writes() - after).toBe(await refused());
  });
});
