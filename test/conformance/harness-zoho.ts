// Zoho CRM for the CRM conformance suite: the Zoho test server (test/fakes/zoho-server.ts, a Free
// edition org: 5 concurrent requests, 5000 credits a day, one-hour access tokens, a search index that
// lags writes) behind a proxy that can lose an answer, and the connector built by createCrmConnectors
// from a parsed config, as the product builds it. What Zoho holds is read from the server's own state.
import { randomBytes } from 'node:crypto';
import type { CallsyncConfig } from '../../config/schema';
import type { CrmConnector } from '../../connectors/crm/crm-connector';
import { keyOfNote } from '../../connectors/zoho/fields';
import { createCrmConnectors } from '../../runtime/crm';
import { startFakeZoho } from '../fakes/zoho-server';
import type { ZohoRecord } from '../fakes/zoho-records';
import { createMigratedWarehouse } from '../integration/warehouse-db';
import { parseTestConfig } from '../support/test-config';
import { harnessAccount } from './conformance-fixtures';
import type { DestinationFeatures, DestinationHarness, HeldRecord } from './destination-harness';
import { startLossyProxy } from './lossy-proxy';

export const ZOHO_FEATURES: DestinationFeatures = {
  createContacts: true,
  owners: true,
  messages: true,
  outcomes: true,
  erasure: true,
  rateLimits: true,
  tokenExpiry: true,
  contactSync: true,
};

const CLIENT = {
  clientId: '1000.CONFORMANCE',
  clientSecret: 'conformance-secret',
  refreshToken: '1000.refresh',
};
/** The Free edition's concurrency, and what is left of it once another integration holds three. */
const FREE_CONCURRENCY = 5;
const TIGHT_CONCURRENCY = 2;
const CREATES = {
  callLog: /^\/crm\/v8\/Calls$/,
  task: /^\/crm\/v8\/Tasks$/,
  message: /^\/crm\/v8\/Notes$/,
  contact: /^\/crm\/v8\/(Contacts|Leads)$/,
} as const;

/** The contact sync's fields as a Contact's (the company is an Account lookup: not synced). */
const CONTACT_FIELD = {
  firstName: 'First_Name',
  lastName: 'Last_Name',
  email: 'Email',
  phone: 'Phone',
  mobile: 'Mobile',
  notes: 'Description',
} as const;

const digits = (v: unknown) => (typeof v === 'string' ? v.replace(/\D/g, '') : '');
const idOf = (v: unknown) => ((v as { id?: unknown } | undefined)?.id ?? null) as string | null;

function held(r: ZohoRecord, status: string | null): HeldRecord {
  const f = r.fields;
  return {
    crmId: r.id,
    key: typeof f.Callsync_Key === 'string' ? f.Callsync_Key : null,
    title: typeof f.Subject === 'string' ? f.Subject : '',
    status,
    contactId: idOf(f.Who_Id) ?? idOf(f.What_Id),
    body: typeof f.Description === 'string' ? f.Description : '',
  };
}

export async function createZohoHarness(): Promise<DestinationHarness> {
  const account = 'acme';
  const fake = await startFakeZoho({ client: CLIENT, searchLagMs: 200, concurrency: FREE_CONCURRENCY });
  const proxy = await startLossyProxy(fake.url);
  const warehouse = await createMigratedWarehouse('conformance_zoho');
  const encryption = { keys: [{ id: 'k1', key: randomBytes(32).toString('base64') }], activeKeyId: 'k1' };
  const configFor = (maxConcurrentRequests: number): CallsyncConfig =>
    parseTestConfig({
      accounts: [harnessAccount(account)],
      crm: {
        destination: {
          type: 'zoho',
          dataCentre: 'eu',
          ...CLIENT,
          orgId: 'org20012345',
          apiUrl: proxy.url,
          accountsUrl: fake.url,
          maxConcurrentRequests,
          requestsPerSecond: 50,
          // Above the test server's 200 ms.
          searchLagSeconds: 0.5,
        },
      },
      temporal: { encryption },
      logLevel: 'silent',
    });
  let connector: CrmConnector = createCrmConnectors(configFor(FREE_CONCURRENCY), warehouse.db)(account);
  await connector.prepare!();
  const owners = new Map<string, string>();
  const ownerOf = (email: string) => {
    let id = owners.get(email);
    if (id === undefined) owners.set(email, (id = fake.seedUser(email)));
    return id;
  };
  const name = (r: ZohoRecord) =>
    [r.fields.First_Name, r.fields.Last_Name].filter((p) => typeof p === 'string' && p).join(' ');

  return {
    name: 'Zoho CRM',
    features: ZOHO_FEATURES,
    get connector() {
      return connector;
    },
    db: warehouse.db,
    account,
    seedContact: async (c) => {
      const words = c.name.split(' ');
      const fields: Record<string, unknown> = { Last_Name: words.at(-1)!, Phone: c.phones[0] ?? null };
      if (words.length > 1) fields.First_Name = words.slice(0, -1).join(' ');
      if (c.phones[1]) fields.Mobile = c.phones[1];
      if (c.ownerEmail) fields.Owner = { id: ownerOf(c.ownerEmail), email: c.ownerEmail };
      const modified = c.updatedAt ? Date.parse(c.updatedAt) : Date.now();
      return Promise.resolve(fake.records.seed('Contacts', fields, modified).id);
    },
    callLogs: async () =>
      Promise.resolve(
        fake.records
          .all('Calls')
          .map((r) => held(r, typeof r.fields.Call_Type === 'string' ? r.fields.Call_Type : null)),
      ),
    tasks: async () =>
      Promise.resolve(
        fake.records
          .all('Tasks')
          .map((r) => held(r, typeof r.fields.Status === 'string' ? r.fields.Status : null)),
      ),
    messages: async () =>
      Promise.resolve(
        fake.records.all('Notes').map((r) => ({
          crmId: r.id,
          key: keyOfNote(r.fields.Note_Content),
          title: typeof r.fields.Note_Title === 'string' ? r.fields.Note_Title : '',
          status: null,
          contactId: idOf(r.fields.Parent_Id),
          body: typeof r.fields.Note_Content === 'string' ? r.fields.Note_Content : '',
        })),
      ),
    contactsWithPhone: async (e164) =>
      Promise.resolve(
        [...fake.records.all('Contacts'), ...fake.records.all('Leads')]
          .filter((r) =>
            ['Phone', 'Mobile', 'Home_Phone', 'Other_Phone'].some(
              (f) => digits(r.fields[f]) === digits(e164),
            ),
          )
          .map((r) => ({ crmId: r.id, key: null, title: name(r), status: null, contactId: null, body: '' })),
      ),
    loseNextAnswer: (kind) => proxy.loseNext((method, path) => method === 'POST' && CREATES[kind].test(path)),
    setOutcome: async (crmId, label) => {
      // An agent picks the call's result in Zoho's UI: the record is modified now.
      const r = fake.records.get(crmId);
      if (!r) throw new Error(`Zoho holds no call ${crmId}`);
      r.fields.Call_Result = label;
      r.modifiedAt = Date.now();
      return Promise.resolve();
    },
    editContact: async (crmId, changes) => {
      // An agent edits the Contact in Zoho's UI: the fields change and Modified_Time moves.
      const r = fake.records.get(crmId);
      if (!r) throw new Error(`Zoho holds no contact ${crmId}`);
      for (const [field, name] of Object.entries(CONTACT_FIELD)) {
        const value = changes[field as keyof typeof CONTACT_FIELD];
        if (value !== undefined) r.fields[name] = value;
      }
      r.modifiedAt = Date.now();
      return Promise.resolve();
    },
    heldContact: async (crmId) => {
      const r = fake.records.get(crmId);
      if (!r || r.module !== 'Contacts') return Promise.resolve(null);
      const value = (v: unknown) => (typeof v === 'string' && v !== '' ? v : null);
      return Promise.resolve(
        Object.fromEntries(
          Object.entries(CONTACT_FIELD).map(([field, name]) => [field, value(r.fields[name])]),
        ),
      );
    },
    contactWrites: () => fake.counters.personWrites,
    expireTokens: () => fake.expireTokens(),
    tooManyRequests: () => fake.counters.limited,
    tightenRateLimit: () => {
      // Another integration now holds three of the org's five concurrent requests; callsync is
      // configured for the two left (a limit of its own counts from zero).
      fake.setConcurrency(TIGHT_CONCURRENCY);
      connector = createCrmConnectors(configFor(TIGHT_CONCURRENCY), warehouse.db)(account);
    },
    dispose: async () => {
      await proxy.close();
      await fake.close();
      await warehouse.dispose();
    },
  };
}
