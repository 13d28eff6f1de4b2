import { harnessAccount } from './conformance-fixtures';
// The Dynamics 365 destination for the CRM conformance suite: the connector as runtime/crm.ts builds
// it from a parsed config, pointed at the local Dataverse (test/fakes/dynamics-server.ts, over https
// with a test certificate this process trusts), and the vendor's view read from the test server's
// own tables.
import { parsePhoneNumberFromString } from 'libphonenumber-js/max';
import { toE164 } from '../../lib/phone';
import { createCrmConnectors } from '../../runtime/crm';
import { CATEGORY } from '../../connectors/dynamics/activity-records';
import { startFakeDynamics, type FakeDynamics } from '../fakes/dynamics-server';
import type { StoredRow } from '../fakes/dynamics-records';
import { trustTestCertificate } from '../fakes/dynamics-tls';
import { createMigratedWarehouse } from '../integration/warehouse-db';
import { parseTestConfig } from '../support/test-config';
import type { CallsyncConfig } from '../../config/schema';
import type { CrmConnector } from '../../connectors/crm/crm-connector';
import type {
  DestinationFeatures,
  DestinationHarness,
  HarnessFactory,
  HeldRecord,
} from './destination-harness';

const ACCOUNT = 'acme';

/** What the Dynamics 365 destination does (no outcomes: a phone call activity has no disposition). */
export const DYNAMICS_FEATURES: DestinationFeatures = {
  createContacts: true,
  owners: true,
  messages: true,
  outcomes: false,
  erasure: true,
  rateLimits: true,
  tokenExpiry: true,
  contactSync: true,
};

/**
 * tightenRateLimit's smaller world: Dataverse's window scaled down (6,000 requests in 300 s becomes
 * 40 in 2 s), and callsync configured for it (12 requests a second: at most 12 + 2 × 12 = 36 in any
 * 2 s, a margin for requests that leave the gate together). The suite's burst (30 call logs, each a
 * create and a completion: 60 requests) would cross it ungated.
 */
const TIGHT = { max: 40, windowMs: 2000, requestsPerSecond: 12 };

const STATE_NAMES: Record<string, Record<number, string>> = {
  phonecalls: { 0: 'Open', 1: 'Completed', 2: 'Canceled' },
  tasks: { 0: 'Open', 1: 'Completed', 2: 'Canceled' },
};

const text = (v: unknown): string => (typeof v === 'string' ? v : '');

/** The contact columns of the contact sync's fields (company, the parentcustomerid lookup, is not synced). */
const CONTACT_COLUMN = {
  firstName: 'firstname',
  lastName: 'lastname',
  email: 'emailaddress1',
  phone: 'telephone1',
  mobile: 'mobilephone',
  notes: 'description',
} as const;

/** Contact records an operation created or updated (POST contacts, PATCH contacts(id)), alone or in a $batch. */
const isContactWrite = (r: { method: string; path: string; status: number }) =>
  (r.method === 'POST' || r.method === 'PATCH') && /^contacts(\(|$)/.test(r.path) && r.status < 300;

/** A stored activity as the harness reports it: subcategory is the key, statecode's name the status. */
function held(set: string, row: StoredRow): HeldRecord {
  return {
    crmId: row.__id as string,
    key: (row.subcategory as string | undefined) ?? null,
    title: text(row.subject),
    status: STATE_NAMES[set]?.[row.statecode as number] ?? null,
    contactId: (row._regardingobjectid_value as string | undefined) ?? null,
    body: text(row.description),
  };
}

/** Whether a stored phone value, as a person typed it, is the number `e164`. */
function isNumber(value: unknown, e164: string): boolean {
  const country = parsePhoneNumberFromString(e164)?.country ?? 'GB';
  return typeof value === 'string' && toE164(value, country) === e164;
}

/** The harness, with its test server in reach (for Dynamics' own tests beyond the suite). */
export type DynamicsHarness = DestinationHarness & { server: FakeDynamics };

/** The Dynamics 365 connector against a fresh test server and warehouse. */
export async function startDynamicsHarness(): Promise<DynamicsHarness> {
  trustTestCertificate();
  const server: FakeDynamics = await startFakeDynamics();
  const warehouse = await createMigratedWarehouse('conformance_dynamics');
  const configFor = (requestsPerSecond: number): CallsyncConfig =>
    parseTestConfig({
      accounts: [harnessAccount(ACCOUNT)],
      crm: {
        destination: {
          type: 'dynamics',
          url: server.url,
          tenantId: server.tenantId,
          clientId: server.clientId,
          clientSecret: server.clientSecret,
          authorityHost: server.url,
          requestsPerSecond,
        },
      },
      logLevel: 'silent',
    });
  let connector: CrmConnector = createCrmConnectors(configFor(20), warehouse.db)(ACCOUNT);
  await connector.prepare!();
  const users = new Map<string, string>();
  const userId = (email: string) => {
    let id = users.get(email.toLowerCase());
    if (!id) users.set(email.toLowerCase(), (id = server.seedUser(email, email.split('@')[0]!)));
    return id;
  };
  const phonecalls = (categories: readonly string[]) =>
    server
      .rows('phonecalls')
      .filter((r) => categories.includes(String(r.category)))
      .map((r) => held('phonecalls', r));
  const losing = {
    callLog: ['phonecalls', CATEGORY.call],
    message: ['phonecalls', null],
    task: ['tasks', CATEGORY.callback],
    contact: ['contacts', null],
  } as const;

  return {
    server,
    name: 'Microsoft Dynamics 365',
    features: DYNAMICS_FEATURES,
    get connector() {
      return connector;
    },
    db: warehouse.db,
    account: ACCOUNT,
    seedContact: (c) => {
      const [first, ...rest] = c.name.split(' ');
      const columns: Record<string, unknown> = {
        firstname: rest.length > 0 ? first : undefined,
        lastname: rest.length > 0 ? rest.join(' ') : first,
      };
      ['telephone1', 'mobilephone', 'telephone2'].forEach((col, i) => {
        if (c.phones[i] !== undefined) columns[col] = c.phones[i];
      });
      if (c.ownerEmail) columns['ownerid@odata.bind'] = `/systemusers(${userId(c.ownerEmail)})`;
      const defined = Object.fromEntries(Object.entries(columns).filter(([, v]) => v !== undefined));
      return Promise.resolve(server.seedContact(defined, c.updatedAt));
    },
    callLogs: () => Promise.resolve(phonecalls([CATEGORY.call])),
    tasks: () => Promise.resolve(server.rows('tasks').map((r) => held('tasks', r))),
    messages: () => Promise.resolve(phonecalls([CATEGORY.sms, CATEGORY.voicemail])),
    contactsWithPhone: (e164) =>
      Promise.resolve(
        server
          .rows('contacts')
          .filter((r) => [r.telephone1, r.telephone2, r.mobilephone].some((p) => isNumber(p, e164)))
          .map((r) => ({
            crmId: r.__id as string,
            key: null,
            title: text(r.fullname),
            status: r.statecode === 0 ? 'Active' : 'Inactive',
            contactId: r.__id as string,
            body: '',
          })),
      ),
    loseNextAnswer: (kind) => {
      const [set, category] = losing[kind];
      server.loseNextCreate(
        set,
        category === null
          ? set === 'phonecalls'
            ? (r) => r.category === CATEGORY.sms || r.category === CATEGORY.voicemail
            : undefined
          : (r) => r.category === category,
      );
    },
    // An agent's edit in Dynamics: the columns change and Dataverse moves modifiedon.
    editContact: (crmId, changes) => {
      const columns: Record<string, unknown> = {};
      for (const [field, column] of Object.entries(CONTACT_COLUMN)) {
        const value = changes[field as keyof typeof CONTACT_COLUMN];
        if (value !== undefined) columns[column] = value;
      }
      server.tables.update('contacts', crmId, columns);
      return Promise.resolve();
    },
    heldContact: (crmId) => {
      const row = server.rows('contacts').find((r) => r.__id === crmId);
      if (!row) return Promise.resolve(null);
      return Promise.resolve({
        company: null,
        ...Object.fromEntries(
          Object.entries(CONTACT_COLUMN).map(([field, column]) => [field, text(row[column]) || null]),
        ),
      });
    },
    contactWrites: () => server.operations.filter(isContactWrite).length,
    expireTokens: () => server.entra.expireAll(),
    tooManyRequests: () => server.limits.counters.limited,
    tightenRateLimit: () => {
      server.limits.tighten(TIGHT.max, TIGHT.windowMs);
      connector = createCrmConnectors(configFor(TIGHT.requestsPerSecond), warehouse.db)(ACCOUNT);
    },
    dispose: async () => {
      await server.close();
      await warehouse.dispose();
    },
  };
}

export const createDynamicsHarness: HarnessFactory = startDynamicsHarness;
