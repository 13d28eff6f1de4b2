// Zendesk Support for the CRM conformance suite: the connector as runtime/crm.ts builds it from a
// parsed config (OAuth tokens that expire and renew through the token store, the shared per-minute
// window), pointed at the in-process test server, and the server's own state as the view of what
// Zendesk holds. The account is on Enterprise Plus (2,500 requests a minute) so the suite runs at
// speed; tightenRateLimit() moves it to a lower plan the suite's burst would cross.
import { randomBytes } from 'node:crypto';
import type { CrmConnector } from '../../connectors/crm/crm-connector';
import { toE164 } from '../../lib/phone';
import { createCrmConnectors } from '../../runtime/crm';
import { startFakeZendesk, type FakeTicket, type FakeZendesk, type LostKind } from '../fakes/zendesk-server';
import { createMigratedWarehouse } from '../integration/warehouse-db';
import { parseTestConfig } from '../support/test-config';
import { harnessAccount } from './conformance-fixtures';
import type { DestinationFeatures, DestinationHarness, HeldRecord } from './destination-harness';

const ACCOUNT = 'acme';
/** Enterprise Plus: 2,500 requests a minute, callsync configured a little under it. */
const PLAN_PER_MINUTE = 2500;
const CALLSYNC_PER_MINUTE = 2400;
/**
 * The lower plan tightenRateLimit moves the account to, over a short window so the suite's burst of
 * 31 requests crosses it in seconds. callsync is configured at half of it, as the default leaves
 * half a Team plan's minute to others: a request's start and its arrival differ by the machine's
 * delays, and a window counted to the last request would answer 429 on a busy machine.
 */
const TIGHT = { max: 20, windowMs: 2000 };
const TIGHT_CALLSYNC = 10;

/**
 * Users created through the API reach search only after a while ("up to a few minutes"): nothing
 * callsync does may depend on finding its own creates by search (it does not: external_id lists).
 */
const SEARCH_LAG_MS = 120_000;

const KEY = randomBytes(32).toString('base64');

export const ZENDESK_FEATURES: DestinationFeatures = {
  createContacts: true,
  // End users have no owner in Zendesk; agents are ticket assignees only.
  owners: false,
  messages: true,
  outcomes: false,
  erasure: true,
  rateLimits: true,
  tokenExpiry: true,
  contactSync: false,
};

/** The harness and its test server (for Zendesk's own tests, which look at tags and set statuses). */
export async function zendeskHarnessWithServer(): Promise<{
  harness: DestinationHarness;
  fake: FakeZendesk;
  /** Another worker process's connector: its own memory, the same database (token store, windows). */
  anotherWorker: () => CrmConnector;
}> {
  const fake = await startFakeZendesk({ requestsPerMinute: PLAN_PER_MINUTE, searchLagMs: SEARCH_LAG_MS });
  const warehouse = await createMigratedWarehouse('zendesk_conformance');
  const pair = fake.oauth.authorize();
  const configFor = (requestsPerMinute: number, rateWindowSeconds: number) =>
    parseTestConfig({
      accounts: [harnessAccount(ACCOUNT)],
      crm: {
        destination: {
          type: 'zendesk',
          subdomain: fake.subdomain,
          baseUrl: fake.url,
          auth: {
            type: 'oauth',
            clientId: fake.oauth.settings.clientId,
            clientSecret: fake.oauth.settings.clientSecret,
            refreshToken: pair.refreshToken,
            accessToken: pair.accessToken,
          },
          requestsPerMinute,
          rateWindowSeconds,
        },
      },
      temporal: { encryption: { keys: [{ id: 'k1', key: KEY }], activeKeyId: 'k1' } },
      logLevel: 'silent',
    });
  let connector = createCrmConnectors(configFor(CALLSYNC_PER_MINUTE, 60), warehouse.db)(ACCOUNT);

  const held = (t: FakeTicket): HeldRecord => ({
    crmId: String(t.id),
    key: t.external_id,
    title: t.subject ?? '',
    status: t.status,
    // A ticket callsync wrote without a contact is requested by the API user.
    contactId: t.requester_id === fake.admin.id ? null : String(t.requester_id),
    body: t.comments.map((c) => c.body).join('\n\n'),
  });
  const tagged = (...tags: string[]) =>
    Promise.resolve(
      fake
        .tickets()
        .filter((t) => tags.some((tag) => t.tags.includes(tag)))
        .map(held),
    );

  const harness: DestinationHarness = {
    name: 'Zendesk',
    features: ZENDESK_FEATURES,
    get connector() {
      return connector;
    },
    db: warehouse.db,
    account: ACCOUNT,
    seedContact: (contact) => {
      const user = fake.seedUser({
        name: contact.name,
        phone: contact.phones[0] ?? null,
        ...(contact.updatedAt ? { updatedAt: contact.updatedAt } : {}),
      });
      return Promise.resolve(String(user.id));
    },
    callLogs: () => tagged('callsync_call'),
    tasks: () => tagged('callsync_callback'),
    messages: () => tagged('callsync_sms', 'callsync_voicemail'),
    contactsWithPhone: (e164) =>
      Promise.resolve(
        fake
          .users()
          .filter((u) => u.active && u.role === 'end-user' && toE164(u.phone, 'GB') === e164)
          .map((u) => ({
            crmId: String(u.id),
            key: null,
            title: u.name,
            status: null,
            contactId: null,
            body: '',
          })),
      ),
    loseNextAnswer: (kind: LostKind) => fake.loseNextAnswer(kind),
    expireTokens: () => fake.oauth.expireAll(),
    tooManyRequests: () => fake.counters.limited,
    tightenRateLimit: () => {
      // The account moves to a lower plan, and callsync is configured for it (its window counts
      // from zero: the limit names a window row of its own).
      fake.setRateLimit(TIGHT.max, TIGHT.windowMs);
      connector = createCrmConnectors(
        configFor(TIGHT_CALLSYNC, TIGHT.windowMs / 1000),
        warehouse.db,
      )(ACCOUNT);
    },
    dispose: async () => {
      await fake.close();
      await warehouse.dispose();
    },
  };
  // Another worker process: its own connectors and memory, the same database (token store, windows).
  const anotherWorker = () => createCrmConnectors(configFor(CALLSYNC_PER_MINUTE, 60), warehouse.db)(ACCOUNT);
  return { harness, fake, anotherWorker };
}

export async function createZendeskHarness(): Promise<DestinationHarness> {
  return (await zendeskHarnessWithServer()).harness;
}
