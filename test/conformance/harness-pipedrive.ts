// Pipedrive for the CRM conformance suite: the connector createCrmConnectors builds for a Pipedrive
// destination with an OAuth app (so access tokens expire and are renewed), pointed at the fake
// Pipedrive (test/fakes/pipedrive-server.ts), on a fresh migrated warehouse. What Pipedrive holds is
// read from the fake's own state. Call logs and callback tasks are both activities of type call;
// the harness tells them apart by the key in their note (a callback's key is `<account>:callback:…`).
import { randomBytes } from 'node:crypto';
import { keyOf, textOf } from '../../connectors/pipedrive/records';
import { createCrmConnectors } from '../../runtime/crm';
import { startFakePipedrive } from '../fakes/pipedrive-server';
import type { FakeActivity } from '../fakes/pipedrive-records';
import { createMigratedWarehouse } from '../integration/warehouse-db';
import { parseTestConfig } from '../support/test-config';
import { harnessAccount } from './conformance-fixtures';
import type { DestinationFeatures, DestinationHarness, HeldRecord } from './destination-harness';

export const PIPEDRIVE_FEATURES: DestinationFeatures = {
  createContacts: true,
  owners: true,
  messages: true,
  outcomes: false,
  erasure: true,
  rateLimits: true,
  tokenExpiry: true,
  contactSync: false,
};

/** The burst limit the harness configures, and the one tightenRateLimit sets at the fake. */
const REQUESTS_PER_2_SECONDS = 40;

const digits = (s: string) => s.replace(/\D/g, '');
const isCallback = (key: string | null) => key !== null && key.includes(':callback:');

export async function createPipedriveHarness(): Promise<DestinationHarness> {
  const account = 'acme';
  const fake = await startFakePipedrive();
  const warehouse = await createMigratedWarehouse('conformance_pipedrive');
  const config = parseTestConfig({
    accounts: [harnessAccount(account)],
    crm: {
      destination: {
        type: 'pipedrive',
        companyDomain: 'callsync-conformance',
        apiUrl: fake.url,
        oauth: { ...fake.oauthClient, oauthUrl: fake.url },
        requestsPer2Seconds: REQUESTS_PER_2_SECONDS,
      },
    },
    temporal: {
      encryption: {
        keys: [{ id: 'conformance', key: randomBytes(32).toString('base64') }],
        activeKeyId: 'conformance',
        idKey: randomBytes(32).toString('base64'),
      },
    },
    logLevel: 'silent',
  });
  const connector = createCrmConnectors(config, warehouse.db)(account);
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
    connector,
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
    expireTokens: () => fake.expireTokens(),
    tooManyRequests: () => fake.limits.tooMany,
    tightenRateLimit() {
      fake.limits.burstOverride = REQUESTS_PER_2_SECONDS;
    },
    async dispose() {
      await fake.close();
      await warehouse.dispose();
    },
  };
}
