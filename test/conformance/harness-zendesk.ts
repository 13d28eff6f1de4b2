// Zendesk Support for the CRM conformance suite: the connector as runtime/crm.ts builds it from a
// parsed config (OAuth tokens that expire and renew through the token store, the shared per-minute
// window), pointed at the in-process test server, and the server's own state as the view of what
// Zendesk holds. The account is on Enterprise Plus (2,500 requests a minute) so the suite runs at
// speed; tightenRateLimit() moves it to a lower plan the suite's burst would cross.
import { randomBytes } from 'node:crypto';
import type { CrmConnector } from '../../connectors/crm/crm-connector';
import { toE164 } from '../../lib/phone';
import { createCrmConnectors } from '../../runtime/crm';
import {
  startFakeZendesk,
  type FakeTicket,
  type FakeUser,
  type FakeZendesk,
  type LostKind,
} from '../fakes/zendesk-server';
import { createMigratedWarehouse } from '../integration/warehouse-db';
import { parseTestConfig } from '../support/test-config';
import { harnessAccount } from './conformance-fixtures';
import type { DestinationFeatures, DestinationHarness, HeldContact, HeldRecord } from './destination-harness';

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

const pick = <T extends object, K extends keyof T>(o: T, keys: readonly K[]): Partial<Pick<T, K>> =>
  Object.fromEntries(keys.filter((k) => o[k] !== undefined).map((k) => [k, o[k]])) as Partial<Pick<T, K>>;

export const ZENDESK_FEATURES: DestinationFeatures = {
  createContacts: true,
  // End users have no owner in Zendesk; agents are ticket assignees only.
  owners: false,
  messages: true,
  outcomes: false,
  erasure: true,
  rateLimits: true,
  tokenExpiry: true,
  contactSync: true,
};

/** The people Zendesk holds, by the contact sync's fields (one name, split at its first space). */
function heldUser(u: FakeUser): HeldContact {
  return {
    ...splitName(u.name),
    company: null,
    email: u.email,
    phone: u.phone,
    mobile: mobileOf(u),
    notes: u.notes,
  };
}

/** The mobile number callsync keeps in its user field, as stored. */
const mobileOf = (u: FakeUser): string | null =>
  typeof u.user_fields.callsync_mobile === 'string' ? u.user_fields.callsync_mobile : null;

/** Zendesk's one name as first and last name: split at its first space (the harness's own reading). */
function splitName(name: string): { firstName: string | null; lastName: string | null } {
  const [first = '', ...rest] = name.trim().split(' ');
  return { firstName: first || null, lastName: rest.join(' ').trim() || null };
}

/** The harness and its test server (for Zendesk's own tests, which look at tags and set statuses). */
export async function zendeskHarnessWithServer(): Promise<{
  harness: DestinationHarness;
  fake: FakeZendesk;
  /** Another worker process's connector: its own memory, the same database (token store, windows). */
  anotherWorker: () => CrmConnector;
}> {
  // The incremental export leaves out the last minute's changes (zendesk-contacts.ts, and the book
  // reads from a minute before its cursor); the contact sync scenario runs a sync right after an
  // agent's edit, where production runs minutes apart, so here the export sees every change at once
  // (and the connector is configured so: exportLagSeconds 0). The minute itself is tested in
  // test/unit/zendesk-contact-book.test.ts.
  const fake = await startFakeZendesk({
    requestsPerMinute: PLAN_PER_MINUTE,
    searchLagMs: SEARCH_LAG_MS,
    exportExcludesMs: 0,
  });
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
          exportLagSeconds: 0,
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
          .filter(
            (u) =>
              u.active &&
              u.role === 'end-user' &&
              (toE164(u.phone, 'GB') === e164 || toE164(mobileOf(u), 'GB') === e164),
          )
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
    editContact: (crmId, changes) => {
      const u = fake.users().find((x) => String(x.id) === crmId);
      if (!u) throw new Error(`no Zendesk user ${crmId}`);
      const names = { ...splitName(u.name), ...pick(changes, ['firstName', 'lastName']) };
      if ('firstName' in changes || 'lastName' in changes)
        u.name = [names.firstName, names.lastName].filter(Boolean).join(' ');
      if (changes.email !== undefined) u.email = changes.email;
      if (changes.phone !== undefined) u.phone = changes.phone;
      if (changes.mobile !== undefined) u.user_fields.callsync_mobile = changes.mobile;
      if (changes.notes !== undefined) u.notes = changes.notes;
      // Zendesk's UI moves updated_at as its API does.
      fake.userChanged(u);
      return Promise.resolve();
    },
    heldContact: (crmId) => {
      const u = fake.users().find((x) => String(x.id) === crmId && x.active);
      return Promise.resolve(u ? heldUser(u) : null);
    },
    contactWrites: () => fake.userWrites(),
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
