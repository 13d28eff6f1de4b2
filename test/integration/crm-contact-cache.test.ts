// The CRM contact cache repository against a real PostgreSQL: hits, remembered misses, replacement of
// a contact's numbers, and the age limit.
import {
  findCrmContactByPhone,
  forgetCrmContact,
  recordCrmContactMiss,
  replaceCrmContactNumbers,
  upsertCrmContactCache,
} from '../../connectors/postgres';
import { createMigratedWarehouse, type MigratedWarehouse } from './warehouse-db';

const ada = {
  crmId: '101',
  kind: 'contact' as const,
  name: 'Ada Lovelace',
  ownerId: '7',
  updatedAt: '2026-11-01T10:00:00Z',
};
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
    expect(await findCrmContactByPhone(w.db, 'hubspot', '+442079460001')).toBeNull();
    await upsertCrmContactCache(w.db, [
      { destination: 'hubspot', e164: '+442079460001', contact: ada },
      { destination: 'hubspot', e164: '+442079460001', contact: lead },
      { destination: 'salesforce', e164: '+442079460001', contact: { ...ada, crmId: '003A' } },
    ]);
    const hit = await findCrmContactByPhone(w.db, 'hubspot', '+442079460001');
    expect(hit?.contacts.map((c) => c.crmId).sort()).toEqual(['00Q1', '101']);
    expect(hit?.contacts.find((c) => c.crmId === '101')).toEqual(ada);
    // Upserting again updates in place: still two rows, the new name.
    await upsertCrmContactCache(w.db, [
      { destination: 'hubspot', e164: '+442079460001', contact: { ...ada, name: 'Ada King' } },
    ]);
    const again = await findCrmContactByPhone(w.db, 'hubspot', '+442079460001');
    expect(again?.contacts).toHaveLength(2);
    expect(again?.contacts.find((c) => c.crmId === '101')?.name).toBe('Ada King');
  });

  it('remembers a miss as an empty list until a contact with the number is cached', async () => {
    await recordCrmContactMiss(w.db, 'hubspot', '+442079460002');
    expect((await findCrmContactByPhone(w.db, 'hubspot', '+442079460002'))?.contacts).toEqual([]);
    await upsertCrmContactCache(w.db, [{ destination: 'hubspot', e164: '+442079460002', contact: ada }]);
    expect(
      (await findCrmContactByPhone(w.db, 'hubspot', '+442079460002'))?.contacts.map((c) => c.crmId),
    ).toEqual(['101']);
  });

  it('replaces a contact’s numbers and forgets a deleted contact', async () => {
    await replaceCrmContactNumbers(w.db, 'hubspot', ada, ['+442079460003']);
    expect(await findCrmContactByPhone(w.db, 'hubspot', '+442079460003')).not.toBeNull();
    expect(
      (await findCrmContactByPhone(w.db, 'hubspot', '+442079460001'))?.contacts.map((c) => c.crmId),
    ).toEqual(['00Q1']);
    await forgetCrmContact(w.db, 'hubspot', '101');
    expect(await findCrmContactByPhone(w.db, 'hubspot', '+442079460003')).toBeNull();
  });

  it('ignores entries older than the age limit', async () => {
    await upsertCrmContactCache(w.db, [{ destination: 'builtin', e164: '+442079460004', contact: ada }]);
    await w.db
      .updateTable('crm_contact_cache')
      .set({ cached_at: new Date(Date.now() - 3_600_000) })
      .where('e164', '=', '+442079460004')
      .execute();
    expect(await findCrmContactByPhone(w.db, 'builtin', '+442079460004', 60_000)).toBeNull();
    expect(await findCrmContactByPhone(w.db, 'builtin', '+442079460004', 7_200_000)).not.toBeNull();
  });
});
