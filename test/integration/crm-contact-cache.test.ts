// The CRM contact cache repository against a real PostgreSQL: hits, remembered misses, replacement of
// a contact's numbers, the age limit, and each account's cache kept to itself.
import {
  findCrmContactByPhone,
  forgetCrmContact,
  recordCrmContactMiss,
  replaceCrmContactNumbers,
  upsertCrmContactCache,
} from '../../connectors/postgres';
import { createContactLookup } from '../../activities/contact-lookup';
import type { CrmConnector, CrmContact } from '../../connectors/crm/crm-connector';
import { createMigratedWarehouse, type MigratedWarehouse } from './warehouse-db';

const ada = {
  crmId: '101',
  kind: 'contact' as const,
  name: 'Ada Lovelace',
  ownerId: '7',
  updatedAt: '2026-11-01T10:00:00Z',
};
// One account on a HubSpot portal, another on a Salesforce org, a third on the built-in CRM.
const hubspot = { account: 'acme', destination: 'hubspot:portal-1' };
const salesforce = { account: 'beta', destination: 'salesforce:https://beta.my.salesforce.com' };
const builtin = { account: 'gamma', destination: 'builtin' };
const lead = { crmId: '00Q1', kind: 'lead' as const, name: 'Ada L.', ownerId: null, updatedAt: null };

describe('crm_contact_cache', () => {
  let w: MigratedWarehouse;
  beforeAll(async () => {
    w = await createMigratedWarehouse('contact_cache');
  });
  afterAll(async () => {
    await w.dispose();
  });

  it('knows nothing of a number nobody cached, then returns every contact holding it', async () => {
    expect(await findCrmContactByPhone(w.db, hubspot, '+442079460001')).toBeNull();
    await upsertCrmContactCache(w.db, [
      { ...hubspot, e164: '+442079460001', contact: ada },
      { ...hubspot, e164: '+442079460001', contact: lead },
      { ...salesforce, e164: '+442079460001', contact: { ...ada, crmId: '003A' } },
    ]);
    const hit = await findCrmContactByPhone(w.db, hubspot, '+442079460001');
    expect(hit?.contacts.map((c) => c.crmId).sort()).toEqual(['00Q1', '101']);
    expect(hit?.contacts.find((c) => c.crmId === '101')).toEqual(ada);
    // Upserting again updates in place: still two rows, the new name.
    await upsertCrmContactCache(w.db, [
      { ...hubspot, e164: '+442079460001', contact: { ...ada, name: 'Ada King' } },
    ]);
    const again = await findCrmContactByPhone(w.db, hubspot, '+442079460001');
    expect(again?.contacts).toHaveLength(2);
    expect(again?.contacts.find((c) => c.crmId === '101')?.name).toBe('Ada King');
  });

  it('remembers a miss as an empty list until a contact with the number is cached', async () => {
    await recordCrmContactMiss(w.db, hubspot, '+442079460002');
    expect((await findCrmContactByPhone(w.db, hubspot, '+442079460002'))?.contacts).toEqual([]);
    await upsertCrmContactCache(w.db, [{ ...hubspot, e164: '+442079460002', contact: ada }]);
    expect(
      (await findCrmContactByPhone(w.db, hubspot, '+442079460002'))?.contacts.map((c) => c.crmId),
    ).toEqual(['101']);
  });

  it('replaces a contact’s numbers and forgets a deleted contact', async () => {
    await replaceCrmContactNumbers(w.db, hubspot, ada, ['+442079460003']);
    expect(await findCrmContactByPhone(w.db, hubspot, '+442079460003')).not.toBeNull();
    expect(
      (await findCrmContactByPhone(w.db, hubspot, '+442079460001'))?.contacts.map((c) => c.crmId),
    ).toEqual(['00Q1']);
    await forgetCrmContact(w.db, hubspot, '101');
    expect(await findCrmContactByPhone(w.db, hubspot, '+442079460003')).toBeNull();
  });

  it('ignores entries older than the age limit', async () => {
    await upsertCrmContactCache(w.db, [{ ...builtin, e164: '+442079460004', contact: ada }]);
    await w.db
      .updateTable('crm_contact_cache')
      .set({ cached_at: new Date(Date.now() - 3_600_000) })
      .where('e164', '=', '+442079460004')
      .execute();
    expect(await findCrmContactByPhone(w.db, builtin, '+442079460004', 60_000)).toBeNull();
    expect(await findCrmContactByPhone(w.db, builtin, '+442079460004', 7_200_000)).not.toBeNull();
  });

  it("keeps each account's answers to itself: another account's contact or miss is not this one's", async () => {
    const e164 = '+442079460005';
    // Account acme's CRM had nobody with the number; beta's has the contact; a second account on
    // acme's very portal knows nothing yet.
    await recordCrmContactMiss(w.db, hubspot, e164);
    await upsertCrmContactCache(w.db, [{ ...salesforce, e164, contact: { ...ada, crmId: '003B' } }]);
    expect((await findCrmContactByPhone(w.db, hubspot, e164))?.contacts).toEqual([]);
    expect((await findCrmContactByPhone(w.db, salesforce, e164))?.contacts.map((c) => c.crmId)).toEqual([
      '003B',
    ]);
    expect(await findCrmContactByPhone(w.db, { ...hubspot, account: 'delta' }, e164)).toBeNull();
    // A contact cached for beta does not clear acme's "nobody", and forgetting it is beta's alone.
    await upsertCrmContactCache(w.db, [{ ...hubspot, account: 'delta', e164, contact: ada }]);
    expect((await findCrmContactByPhone(w.db, hubspot, e164))?.contacts).toEqual([]);
    await forgetCrmContact(w.db, { ...hubspot, account: 'delta' }, '101');
    expect((await findCrmContactByPhone(w.db, salesforce, e164))?.contacts).toHaveLength(1);
  });
});

describe('contact lookup with several accounts', () => {
  let w: MigratedWarehouse;
  beforeAll(async () => {
    w = await createMigratedWarehouse('contact_lookup_accounts');
  });
  afterAll(async () => {
    await w.dispose();
  });

  /** A CRM (one portal) that knows some numbers, counting its searches. */
  const portal = (destinationId: string, book: Record<string, CrmContact[]>) => {
    const crm = {
      name: 'hubspot',
      destinationId,
      searches: 0,
      findContactsByPhone(e164: string) {
        crm.searches++;
        return Promise.resolve(book[e164] ?? []);
      },
    };
    return crm;
  };
  const asConnector = (c: ReturnType<typeof portal>) => c as unknown as CrmConnector;

  it("answers each account from its own portal: a cached nobody or contact of one never hides the other's", async () => {
    const lookup = createContactLookup({
      warehouse: w,
      maxAgesOf: () => ({ contactMs: 3_600_000, unknownMs: 3_600_000 }),
    });
    const caller = '+442079460099';
    const p1 = portal('hubspot:portal-1', {});
    const p2 = portal('hubspot:portal-2', { [caller]: [{ ...ada, crmId: '202' }] });
    // Account acme (portal 1) looks the caller up first: nobody, remembered in memory and the table.
    expect(await lookup.candidates('acme', asConnector(p1), caller)).toEqual({ contacts: [], source: 'crm' });
    // Account beta (portal 2) gets its own portal's contact, not acme's "nobody".
    const beta = await lookup.candidates('beta', asConnector(p2), caller);
    expect(beta).toMatchObject({ source: 'crm', contacts: [{ crmId: '202' }] });
    // Each answer is kept for its account: again from memory, no further searches.
    expect(await lookup.candidates('acme', asConnector(p1), caller)).toEqual({
      contacts: [],
      source: 'memory',
    });
    expect((await lookup.candidates('beta', asConnector(p2), caller)).contacts[0]?.crmId).toBe('202');
    expect([p1.searches, p2.searches]).toEqual([1, 1]);

    // A second worker (an empty memory) reads the table: still each account's own answer.
    const other = createContactLookup({
      warehouse: w,
      maxAgesOf: () => ({ contactMs: 3_600_000, unknownMs: 3_600_000 }),
    });
    expect(await other.candidates('acme', asConnector(p1), caller)).toEqual({
      contacts: [],
      source: 'cache',
    });
    expect(await other.candidates('beta', asConnector(p2), caller)).toMatchObject({
      source: 'cache',
      contacts: [{ crmId: '202' }],
    });
    // A contact callsync created in acme's portal is acme's: beta's answer is unchanged.
    await other.remember('acme', asConnector(p1), caller, { ...ada, crmId: '101' });
    expect((await other.candidates('beta', asConnector(p2), caller)).contacts.map((c) => c.crmId)).toEqual([
      '202',
    ]);
    expect((await other.candidates('acme', asConnector(p1), caller)).contacts.map((c) => c.crmId)).toEqual([
      '101',
    ]);
  });
});
