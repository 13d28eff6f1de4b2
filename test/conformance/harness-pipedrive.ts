// Pipedrive for the CRM conformance suite: the connector createCrmConnectors builds for a Pipedrive
// destination with an OAuth app (so access tokens expire and are renewed), pointed at the fake
// Pipedrive (test/fakes/pipedrive-server.ts), on a fresh migrated warehouse. What Pipedrive holds is
// read from the fake's own state. Call logs and callback tasks are both activities of type call;
// the harness tells them apart by the key in their note (a callback's key is `<account>:callback:…`).
// Persons, for the contact sync, in its field names as heldPerson reads them; an agent's edit
// changes the fake's person and moves its update_time.
import { randomBytes } from 'node:crypto';
import { keyOf, textOf } from '../../connectors/pipedrive/records';
import { createCrmConnectors } from '../../runtime/crm';
import { startFakePipedrive } from '../fakes/pipedrive-server';
import type { FakeActivity, FakePerson } from '../fakes/pipedrive-records';
import { createMigratedWarehouse } from '../integration/warehouse-db';
import { parseTestConfig } from '../support/test-config';
import { harnessAccount } from './conformance-fixtures';
import type { DestinationFeatures, DestinationHarness, HeldContact, HeldRecord } from './destination-harness';

export const PIPEDRIVE_FEATURES: DestinationFeatures = {
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
 * The company's plan: Enterprise, whose OAuth access tokens may send 480 requests per 2 seconds
 * (https://pipedrive.readme.io/docs/core-api-concepts-rate-limiting): the contact sync creates the
 * emulator's 2,000 contacts one person a request (Pipedrive has no batch create), which at a lower
 * plan's pace outlasts a test. Its daily budget: 30,000 tokens × the top plan's multiplier of 7.
 */
const ENTERPRISE_OAUTH_BURST = 480;
const ENTERPRISE_DAILY_TOKENS = 30_000 * 7;
/** The burst limit tightenRateLimit sets at the fake and configures the connector for. */
const REQUESTS_PER_2_SECONDS = 40;

const digits = (s: string) => s.replace(/\D/g, '');
/** Every client write to persons: creates and updates (Pipedrive has no batch of them). */
const PERSON_WRITE = /^(POST \/api\/v2\/persons|PATCH \/api\/v2\/persons\/\d+)$/;
const isCallback = (key: string | null) => key !== null && key.includes(':callback:');

/** A person in the contact sync's field names: the name split at its first space, numbers as stored. */
function heldPerson(p: FakePerson): HeldContact {
  const at = p.name.indexOf(' ');
  const primaryFirst = <T extends { primary: boolean }>(list: T[]) =>
    [...list].sort((a, b) => Number(b.primary) - Number(a.primary));
  return {
    firstName: (at < 0 ? p.name : p.name.slice(0, at)) || null,
    lastName: at < 0 ? null : p.name.slice(at + 1) || null,
    company: null,
    email: primaryFirst(p.emails)[0]?.value ?? null,
    phone: primaryFirst(p.phones.filter((x) => x.label !== 'mobile'))[0]?.value ?? null,
    mobile: p.phones.find((x) => x.label === 'mobile')?.value ?? null,
    notes: null,
  };
}

export async function createPipedriveHarness(): Promise<DestinationHarness> {
  const account = 'acme';
  const fake = await startFakePipedrive({ dailyTokens: ENTERPRISE_DAILY_TOKENS });
  fake.limits.burstOverride = ENTERPRISE_OAUTH_BURST;
  const warehouse = await createMigratedWarehouse('conformance_pipedrive');
  const encryption = {
    keys: [{ id: 'conformance', key: randomBytes(32).toString('base64') }],
    activeKeyId: 'conformance',
    idKey: randomBytes(32).toString('base64'),
  };
  const configFor = (requestsPer2Seconds: number) =>
    parseTestConfig({
      accounts: [harnessAccount(account)],
      crm: {
        destination: {
          type: 'pipedrive',
          companyDomain: 'callsync-conformance',
          apiUrl: fake.url,
          oauth: { ...fake.oauthClient, oauthUrl: fake.url },
          requestsPer2Seconds,
        },
      },
      temporal: { encryption },
      logLevel: 'silent',
    });
  let connector = createCrmConnectors(configFor(ENTERPRISE_OAUTH_BURST), warehouse.db)(account);
  const users = new Map<string, number>();

  const activities = (callbacks: boolean): HeldRecord[] =>
    [...fake.state.activities.values()]
      .filter((a) => !a.is_deleted && a.type === 'call' && isCallback(keyOf(a.note)) === callbacks)
      .map((a: FakeActivity) => {
        const attached = [...fake.state.callLogs.values()].find((c) => c.activity_id === a.id);
        return {
          crmId: String(a.id),
          key: keyOf(a.note),
          title: a.subject,
          status: !callbacks && attached ? attached.outcome : a.done ? 'done' : 'open',
          contactId: a.person_id === null ? null : String(a.person_id),
          body: textOf(a.note ?? ''),
        };
      });

  return {
    name: 'Pipedrive',
    features: PIPEDRIVE_FEATURES,
    get connector() {
      return connector;
    },
    db: warehouse.db,
    account,
    seedContact(c) {
      let ownerId: number | undefined;
      if (c.ownerEmail) {
        ownerId = users.get(c.ownerEmail) ?? fake.seedUser(c.ownerEmail);
        users.set(c.ownerEmail, ownerId);
      }
      const id = fake.seedPerson({
        name: c.name,
        phones: c.phones,
        ...(ownerId !== undefined ? { ownerId } : {}),
        ...(c.updatedAt ? { updatedAt: c.updatedAt } : {}),
      });
      return Promise.resolve(String(id));
    },
    callLogs: () => Promise.resolve(activities(false)),
    tasks: () => Promise.resolve(activities(true)),
    messages: () =>
      Promise.resolve(
        [...fake.state.notes.values()].map((n) => ({
          crmId: String(n.id),
          key: keyOf(n.content),
          title: textOf(n.content).split('\n')[0] ?? '',
          status: null,
          contactId: n.person_id === null ? null : String(n.person_id),
          body: textOf(n.content),
        })),
      ),
    contactsWithPhone(e164) {
      const want = digits(e164);
      return Promise.resolve(
        [...fake.state.persons.values()]
          .filter((p) => p.phones.some((x) => digits(x.value) === want))
          .map((p) => ({
            crmId: String(p.id),
            key: null,
            title: p.name,
            status: null,
            contactId: null,
            body: '',
          })),
      );
    },
    loseNextAnswer(kind) {
      if (kind === 'callLog' || kind === 'task')
        fake.loseNextAnswer(
          'POST',
          '/api/v2/activities',
          (b) => isCallback(keyOf(String(b.note))) === (kind === 'task'),
        );
      else if (kind === 'message') fake.loseNextAnswer('POST', '/api/v1/notes');
      else fake.loseNextAnswer('POST', '/api/v2/persons');
    },
    editContact(crmId, changes) {
      const p = fake.state.persons.get(Number(crmId));
      if (!p) throw new Error(`no person ${crmId}`);
      const held = heldPerson(p);
      if (changes.firstName !== undefined || changes.lastName !== undefined) {
        const first = changes.firstName === undefined ? held.firstName : changes.firstName;
        const last = changes.lastName === undefined ? held.lastName : changes.lastName;
        p.name = [first, last].filter((n) => n).join(' ');
      }
      const set = (
        list: FakePerson['phones'],
        at: number,
        value: string | null | undefined,
        label: string,
      ) => {
        if (value === undefined) return list;
        const rest = list.filter((_, i) => i !== at);
        return value === null
          ? rest
          : [...rest, { value, label, primary: list[at]?.primary ?? rest.length === 0 }];
      };
      p.phones = set(
        p.phones,
        p.phones.indexOf(
          p.phones.find((x) => x.label !== 'mobile' && x.primary) ??
            p.phones.find((x) => x.label !== 'mobile')!,
        ),
        changes.phone,
        'work',
      );
      p.phones = set(
        p.phones,
        p.phones.findIndex((x) => x.label === 'mobile'),
        changes.mobile,
        'mobile',
      );
      p.emails = set(p.emails, 0, changes.email, 'work');
      // Pipedrive moves update_time on every edit, in its UI as through the API.
      p.update_time = new Date().toISOString();
      return Promise.resolve();
    },
    heldContact: (crmId) => {
      const p = fake.state.persons.get(Number(crmId));
      return Promise.resolve(p ? heldPerson(p) : null);
    },
    contactWrites: () =>
      fake.requests.filter((r) => r.status < 300 && PERSON_WRITE.test(`${r.method} ${r.path}`)).length,
    expireTokens: () => fake.expireTokens(),
    tooManyRequests: () => fake.limits.tooMany,
    tightenRateLimit() {
      // The company moves to a lower plan, and callsync is configured for it (a limit of its own
      // counts from zero, as a new row of rate slots).
      fake.limits.burstOverride = REQUESTS_PER_2_SECONDS;
      connector = createCrmConnectors(configFor(REQUESTS_PER_2_SECONDS), warehouse.db)(account);
    },
    async dispose() {
      await fake.close();
      await warehouse.dispose();
    },
  };
}
