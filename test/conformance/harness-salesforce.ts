// Salesforce for the CRM conformance suite: an org authorised through the refresh token flow (sessions
// that end and renew), the connector built by createCrmConnectors from a parsed config, behind a proxy
// that can lose an answer, against the Salesforce test server (test/fakes/salesforce-server.ts). Call
// logs, callback tasks and messages are all Tasks there (subtype Call, or Task with callsync's key in
// CallObject); what the org holds is read from the test server's own state. Salesforce has no request
// rate that answers 429: it counts API calls per 24 hours and caps only concurrent requests of 20
// seconds or longer, answering REQUEST_LIMIT_EXCEEDED beyond either
// (https://developer.salesforce.com/docs/platform/salesforce-app-limits-cheatsheet/guide/salesforce-app-limits-platform-api.html),
// so it does not claim `rateLimits` (crm-salesforce.test.ts tests REQUEST_LIMIT_EXCEEDED).
import { randomBytes } from 'node:crypto';
import { createCrmConnectors } from '../../runtime/crm';
import { startFakeSalesforce, type FakeRecord } from '../fakes/salesforce-server';
import { createMigratedWarehouse } from '../integration/warehouse-db';
import { parseTestConfig } from '../support/test-config';
import { harnessAccount } from './conformance-fixtures';
import type { DestinationFeatures, DestinationHarness, HeldRecord } from './destination-harness';
import { startLossyProxy } from './lossy-proxy';

export const SALESFORCE_FEATURES: DestinationFeatures = {
  createContacts: true,
  owners: true,
  messages: true,
  outcomes: true,
  erasure: true,
  rateLimits: false,
  tokenExpiry: true,
  contactSync: true,
};

/** SOSL trails API writes (seeded records are indexed already); a short lag keeps the suite quick. */
const SEARCH_INDEX_DELAY_MS = 200;

const text = (v: unknown): string => (typeof v === 'string' ? v : '');
const digits = (v: unknown): string => text(v).replace(/\D/g, '');
/** The contact sync's fields as a Contact's (or Lead's) fields; a Contact's company is its Account's. */
const CONTACT_FIELD = {
  firstName: 'FirstName',
  lastName: 'LastName',
  email: 'Email',
  phone: 'Phone',
  mobile: 'MobilePhone',
  notes: 'Description',
} as const;
const PERSON = /^(Contact|Lead)$/;

/** How many Contacts and Leads a client write created or changed (a collection counts its records). */
function personWrites(r: { method: string; path: string; body: unknown; status: number }): number {
  if (r.status >= 300 || (r.method !== 'POST' && r.method !== 'PATCH')) return 0;
  if (/\/composite\/sobjects$/.test(r.path)) {
    const records = (r.body as { records?: { attributes?: { type?: string } }[] } | null)?.records ?? [];
    return records.filter((x) => PERSON.test(x.attributes?.type ?? '')).length;
  }
  return /\/sobjects\/(Contact|Lead)(\/\w+)?$/.test(r.path) ? 1 : 0;
}

const isMessageKey = (key: string) => /^[^:]+:(sms|voicemail):/.test(key);

function held(r: FakeRecord, status: unknown): HeldRecord {
  return {
    crmId: r.Id,
    key: text(r.fields.CallObject) || null,
    title: text(r.fields.Subject),
    status: typeof status === 'string' ? status : null,
    contactId: text(r.fields.WhoId) || null,
    body: text(r.fields.Description),
  };
}

/** Which Task create loses its answer, by what it writes (all three kinds are POST …/sobjects/Task). */
function taskCreate(body: string, kind: 'callLog' | 'task' | 'message'): boolean {
  const fields = JSON.parse(body || '{}') as { TaskSubtype?: string; CallObject?: string };
  if (kind === 'callLog') return fields.TaskSubtype === 'Call';
  const key = fields.CallObject ?? '';
  return fields.TaskSubtype === 'Task' && isMessageKey(key) === (kind === 'message');
}

export async function createSalesforceHarness(): Promise<DestinationHarness> {
  const account = 'acme';
  const fake = await startFakeSalesforce({ searchIndexDelayMs: SEARCH_INDEX_DELAY_MS });
  const proxy = await startLossyProxy(fake.url);
  const warehouse = await createMigratedWarehouse('conformance_salesforce');
  const config = parseTestConfig({
    accounts: [harnessAccount(account)],
    crm: {
      destination: {
        type: 'salesforce',
        instanceUrl: proxy.url,
        apiVersion: fake.version,
        auth: {
          type: 'refresh-token',
          clientId: fake.oauth.settings.clientId,
          refreshToken: fake.oauth.authorize(),
          loginUrl: proxy.url,
        },
        requestsPerSecond: 50,
      },
    },
    temporal: {
      encryption: { keys: [{ id: 'k1', key: randomBytes(32).toString('base64') }], activeKeyId: 'k1' },
    },
    logLevel: 'silent',
  });
  const connector = createCrmConnectors(config, warehouse.db)(account);
  await connector.prepare?.();

  const users = new Map<string, string>();
  const userOf = (email: string) => {
    let id = users.get(email);
    if (id === undefined) {
      id = fake.seed('User', { LastName: email.split('@')[0], Email: email });
      users.set(email, id);
    }
    return id;
  };
  const subtasks = (subtype: 'Call' | 'Task') =>
    fake.records('Task').filter((r) => r.fields.TaskSubtype === subtype);

  return {
    name: 'Salesforce',
    features: SALESFORCE_FEATURES,
    connector,
    db: warehouse.db,
    account,
    seedContact: async (c) => {
      const words = c.name.split(' ');
      const fields: Record<string, unknown> = { LastName: words.at(-1), Phone: c.phones[0] };
      if (words.length > 1) fields.FirstName = words.slice(0, -1).join(' ');
      if (c.phones[1]) fields.MobilePhone = c.phones[1];
      if (c.ownerEmail) fields.OwnerId = userOf(c.ownerEmail);
      return fake.seed('Contact', fields, c.updatedAt);
    },
    callLogs: async () => subtasks('Call').map((r) => held(r, r.fields.CallDisposition)),
    tasks: async () =>
      subtasks('Task')
        .filter((r) => !isMessageKey(text(r.fields.CallObject)))
        .map((r) => held(r, r.fields.Status)),
    messages: async () =>
      subtasks('Task')
        .filter((r) => isMessageKey(text(r.fields.CallObject)))
        .map((r) => held(r, r.fields.Status)),
    contactsWithPhone: async (e164) =>
      [...fake.records('Contact'), ...fake.records('Lead')]
        .filter(
          (r) => digits(r.fields.Phone) === digits(e164) || digits(r.fields.MobilePhone) === digits(e164),
        )
        .map((r) => ({
          crmId: r.Id,
          key: null,
          title: [text(r.fields.FirstName), text(r.fields.LastName)].filter(Boolean).join(' '),
          status: null,
          contactId: null,
          body: '',
        })),
    loseNextAnswer: (kind) =>
      proxy.loseNext((method, path, body) => {
        if (method !== 'POST') return false;
        if (kind === 'contact') return /\/sobjects\/(Contact|Lead)$/.test(path);
        return /\/sobjects\/Task$/.test(path) && taskCreate(body, kind);
      }),
    // An agent picks the call's result in Salesforce (CallDisposition is free text there).
    setOutcome: async (crmId, label) => fake.edit(crmId, { CallDisposition: label }),
    editContact: async (crmId, changes) => {
      const fields: Record<string, unknown> = {};
      for (const [field, name] of Object.entries(CONTACT_FIELD)) {
        const value = changes[field as keyof typeof CONTACT_FIELD];
        if (value !== undefined) fields[name] = value;
      }
      fake.edit(crmId, fields);
    },
    heldContact: async (crmId) => {
      const r = [...fake.records('Contact'), ...fake.records('Lead')].find((x) => x.Id === crmId);
      if (!r) return null;
      return Object.fromEntries(
        Object.entries(CONTACT_FIELD).map(([field, name]) => [field, text(r.fields[name]) || null]),
      );
    },
    contactWrites: () => fake.requests.reduce((n, r) => n + personWrites(r), 0),
    expireTokens: () => fake.oauth.expireSessions(),
    dispose: async () => {
      await proxy.close();
      await fake.close();
      await warehouse.dispose();
    },
  };
}
