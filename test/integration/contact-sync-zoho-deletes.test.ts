// Deletes in the two-way contact sync with Zoho CRM (sync/contacts/engine.ts and the Zoho contact
// book, against the platform emulator and the Zoho test server): a linked Contact deleted in Zoho is
// read from the deleted records API and its platform contact labelled; a platform contact deleted
// marks its Contact (Callsync_Deleted), which is then not brought back to the platform.
import { randomBytes } from 'node:crypto';
import { contactsConfigSchema } from '../../config/contact-sync';
import type { CrmContactBook } from '../../connectors/crm/contact-book';
import { destinationIdOf } from '../../connectors/crm/crm-connector';
import { createPlatformClient, type PlatformClient } from '../../connectors/platform';
import type { CrmConnector } from '../../connectors/crm/crm-connector';
import { DEFAULT_NOW, startEmulator } from '../../emulator';
import { createCrmConnectors } from '../../runtime/crm';
import { runContactSync } from '../../sync/contacts/engine';
import { DELETED_IN_CRM_LABEL } from '../../sync/contacts/platform-side';
import { harnessAccount } from '../conformance/conformance-fixtures';
import { startFakeZoho, type FakeZoho } from '../fakes/zoho-server';
import { eventually } from '../support/eventually';
import { parseTestConfig } from '../support/test-config';
import { createMigratedWarehouse, type MigratedWarehouse } from './warehouse-db';

const client = { clientId: '1000.DELETES', clientSecret: 'deletes-secret', refreshToken: '1000.deletes' };
const account = 'acme';

describe('contact sync with Zoho CRM: deletes', () => {
  let emulator: Awaited<ReturnType<typeof startEmulator>>;
  let platform: PlatformClient;
  let fake: FakeZoho;
  let warehouse: MigratedWarehouse;
  let connector: CrmConnector;
  let book: CrmContactBook;

  beforeAll(async () => {
    emulator = await startEmulator({ port: 0, seed: 12, cdrs: 0, now: DEFAULT_NOW });
    platform = createPlatformClient({
      baseUrl: emulator.baseUrl,
      credentials: { type: 'apiKey', userId: emulator.admin.user_id, apiKey: emulator.admin.api_key },
      requestsPerSecond: 200,
    });
    fake = await startFakeZoho({ client, serviceMs: 1 });
    warehouse = await createMigratedWarehouse('contact_sync_zoho_deletes');
    const config = parseTestConfig({
      accounts: [harnessAccount(account)],
      crm: {
        destination: {
          type: 'zoho',
          dataCentre: 'eu',
          ...client,
          apiUrl: fake.url,
          accountsUrl: fake.url,
          requestsPerSecond: 50,
        },
      },
      temporal: {
        encryption: { keys: [{ id: 'k1', key: randomBytes(32).toString('base64') }], activeKeyId: 'k1' },
      },
      logLevel: 'silent',
    });
    connector = createCrmConnectors(config, warehouse.db)(account);
    book = connector.contactBook!({ country: 'GB', createAs: 'contact' });
    await book.prepare();
  });
  afterAll(async () => {
    await emulator?.close();
    await fake?.close();
    await warehouse?.dispose();
  });

  const run = () =>
    runContactSync({
      db: warehouse.db,
      platform,
      book,
      config: contactsConfigSchema.parse({ enabled: true, deletes: 'mark' }),
      country: 'GB',
      scope: { account, destination: destinationIdOf(connector) },
    });

  it('a Contact deleted in Zoho labels its platform contact; a platform delete marks its Contact', async () => {
    const kept = await platform.settings.contacts.create({
      first_name: 'Del',
      last_name: 'InZoho',
      tel: '+442079462001',
    });
    const gone = await platform.settings.contacts.create({
      first_name: 'Del',
      last_name: 'OnPlatform',
      tel: '+442079462002',
    });
    await run();
    const crmOf = (last: string) => fake.records.all('Contacts').find((r) => r.fields.Last_Name === last)!;
    const inZoho = crmOf('InZoho');
    const onPlatform = crmOf('OnPlatform');

    // An agent deletes one Contact in Zoho; the other person is deleted on the platform.
    fake.records.delete('Contacts', inZoho.id);
    await platform.settings.contacts.delete([gone.id]);
    // The platform may accept a delete for later (202): wait until the contact is gone.
    await eventually(
      () =>
        platform.settings.contacts.get(gone.id).then(
          () => undefined,
          () => true,
        ),
      'the platform contact deleted',
      10_000,
    );
    const summary = await run();
    expect(summary.deleted).toBe(2);

    expect((await platform.settings.contacts.get(kept.id)).labels).toContain(DELETED_IN_CRM_LABEL);
    expect(fake.records.get(onPlatform.id)!.fields.Callsync_Deleted).toBeTruthy();
    expect(fake.records.get(inZoho.id)).toBeUndefined();

    // The marked Contact does not come back to the platform, and the next run writes nothing.
    const writes = fake.counters.personWrites;
    const quiet = await run();
    expect([
      quiet.createdInCrm,
      quiet.createdOnPlatform,
      quiet.updatedInCrm,
      quiet.updatedOnPlatform,
    ]).toEqual([0, 0, 0, 0]);
    expect(fake.counters.personWrites).toBe(writes);
    let onPlatformAgain = 0;
    for await (const c of platform.settings.contacts.list({ limit: 5000 })) {
      if (c.last_name === 'OnPlatform') onPlatformAgain++;
    }
    expect(onPlatformAgain).toBe(0);
  });
});
