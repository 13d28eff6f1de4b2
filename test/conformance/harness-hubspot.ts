// HubSpot for the CRM conformance suite: an OAuth app installed into the HubSpot test server's portal
// (test/fakes/hubspot-server.ts, at an OAuth app's documented 100 requests per rolling 10 seconds,
// https://developers.hubspot.com/docs/api/usage-details), the connector built by createCrmConnectors
// from a parsed config, behind a proxy that can lose an answer. What HubSpot holds is read from the
// test server's own state.
import { randomBytes } from 'node:crypto';
import type { CallsyncConfig } from '../../config/schema';
import type { CrmConnector } from '../../connectors/crm/crm-connector';
import { VendorTokenStore } from '../../connectors/crm/vendor-token-store';
import { hubspotAuthorizeUrl, installHubSpotApp } from '../../connectors/hubspot/oauth';
import { secretBoxFromConfig } from '../../lib/encryption-keys';
import { createCrmConnectors } from '../../runtime/crm';
import { startFakeHubSpot, type FakeObject } from '../fakes/hubspot-server';
import type { FakeEngagement } from '../fakes/hubspot-conversations';
import { createMigratedWarehouse } from '../integration/warehouse-db';
import { parseTestConfig } from '../support/test-config';
import { harnessAccount } from './conformance-fixtures';
import type { DestinationFeatures, DestinationHarness, HeldRecord } from './destination-harness';
import { startLossyProxy } from './lossy-proxy';

export const HUBSPOT_FEATURES: DestinationFeatures = {
  createContacts: true,
  owners: true,
  messages: true,
  outcomes: true,
  erasure: true,
  rateLimits: true,
  tokenExpiry: true,
  contactSync: true,
};

const APP = { clientId: 'conformance-app', clientSecret: 'conformance-secret' };
/** The test server's search sees a write after this long; the connector searches again after SEARCH_LAG_S. */
const SEARCH_LAG_MS = 400;
const SEARCH_LAG_S = 0.6;
/**
 * The lower tier tightenRateLimit moves the portal to (requests per rolling 10 seconds): the suite's
 * burst (a search and 30 creates) crosses it, and the connector's gate (95% of it, 23, per 10.5 s)
 * keeps two requests' margin for answers that arrive late on a busy machine.
 */
const TIGHT_PER_10_SECONDS = 25;
/** Where each kind's create goes (a single create, not a batch). */
const CREATES = {
  callLog: /^\/crm\/v3\/objects\/calls$/,
  task: /^\/crm\/v3\/objects\/tasks$/,
  message: /^\/crm\/v3\/objects\/(communications|notes)$/,
  contact: /^\/crm\/v3\/objects\/contacts$/,
} as const;

const digits = (phone: string | null | undefined) => (phone ?? '').replace(/\D/g, '');
/** The contact sync's fields as HubSpot's contact properties. */
const CONTACT_PROPERTY = {
  firstName: 'firstname',
  lastName: 'lastname',
  company: 'company',
  email: 'email',
  phone: 'phone',
  mobile: 'mobilephone',
} as const;
/** Every client write to contacts: single and batch creates and updates. */
const CONTACT_WRITE = /^\/crm\/v3\/objects\/contacts(\/batch\/(create|update)|\/\d+)?$/;

function heldObject(
  o: FakeObject | FakeEngagement,
  title: string,
  status: string | null,
  body: string,
): HeldRecord {
  return {
    crmId: o.id,
    key: o.properties.callsync_key ?? null,
    title,
    status,
    contactId: o.associations[0]?.toId ?? null,
    body,
  };
}

export async function createHubSpotHarness(): Promise<DestinationHarness> {
  const account = 'acme';
  const fake = await startFakeHubSpot({
    searchLagMs: SEARCH_LAG_MS,
    limits: { per10Seconds: 100 },
    oauth: APP,
  });
  const proxy = await startLossyProxy(fake.url);
  const warehouse = await createMigratedWarehouse('conformance_hubspot');
  const encryption = { keys: [{ id: 'k1', key: randomBytes(32).toString('base64') }], activeKeyId: 'k1' };
  const configFor = (requestsPer10Seconds: number): CallsyncConfig =>
    parseTestConfig({
      accounts: [harnessAccount(account)],
      crm: {
        destination: {
          type: 'hubspot',
          basePath: proxy.url,
          requestsPer10Seconds,
          searchLagSeconds: SEARCH_LAG_S,
          // HubSpot's documented 5 searches a second per portal (the connector keeps one below it).
          searchRequestsPerSecond: 5,
          oauth: {
            ...APP,
            redirectUrl: 'https://callsync.example.com/dashboard/hubspot/callback',
            scopes: ['crm.objects.contacts.write', 'crm.objects.calls.write'],
            authorizeUrl: `${fake.url}/oauth/authorize`,
          },
        },
      },
      temporal: { encryption },
      logLevel: 'silent',
    });
  const config = configFor(100);
  const d = config.crm.destination;
  if (d.type !== 'hubspot' || !d.oauth) throw new Error('the harness config is not a HubSpot OAuth app');
  // The install: HubSpot's consent page redirects back with a code, which callsync trades for tokens.
  const consent = await fetch(hubspotAuthorizeUrl(d.oauth, 'conformance'), { redirect: 'manual' });
  const code = new URL(consent.headers.get('location')!).searchParams.get('code')!;
  const store = new VendorTokenStore(warehouse.db, secretBoxFromConfig(config.temporal));
  await installHubSpotApp(store, account, { basePath: d.basePath, oauth: d.oauth }, code);
  let connector: CrmConnector = createCrmConnectors(config, warehouse.db)(account);
  await connector.prepare!();

  const owners = new Map<string, string>();
  const ownerOf = (email: string) => {
    let id = owners.get(email);
    if (id === undefined) owners.set(email, (id = fake.seedOwner(email)));
    return id;
  };
  const messageTitle = (html: string | null | undefined) => /<b>(.*?)<\/b>/.exec(html ?? '')?.[1] ?? '';
  const asAgent = { authorization: `Bearer ${fake.token}`, 'content-type': 'application/json' };

  return {
    name: 'HubSpot',
    features: HUBSPOT_FEATURES,
    get connector() {
      return connector;
    },
    db: warehouse.db,
    account,
    seedContact: async (c) => {
      const words = c.name.split(' ');
      const props: Record<string, string> = { lastname: words.at(-1)!, phone: c.phones[0] ?? '' };
      if (words.length > 1) props.firstname = words.slice(0, -1).join(' ');
      if (c.phones[1]) props.mobilephone = c.phones[1];
      if (c.ownerEmail) props.hubspot_owner_id = ownerOf(c.ownerEmail);
      return fake.seedContact(props, c.updatedAt);
    },
    callLogs: async () =>
      fake
        .objects('calls')
        .map((o) =>
          heldObject(
            o,
            o.properties.hs_call_title ?? '',
            o.properties.hs_call_status ?? null,
            o.properties.hs_call_body ?? '',
          ),
        ),
    tasks: async () =>
      fake
        .objects('tasks')
        .map((o) =>
          heldObject(
            o,
            o.properties.hs_task_subject ?? '',
            o.properties.hs_task_status ?? null,
            o.properties.hs_task_body ?? '',
          ),
        ),
    messages: async () => [
      ...fake.engagements('communications').map((e) => {
        const body = e.properties.hs_communication_body ?? '';
        return heldObject(e, messageTitle(body), e.properties.hs_communication_channel_type ?? null, body);
      }),
      ...fake.engagements('notes').map((e) => {
        const body = e.properties.hs_note_body ?? '';
        return heldObject(e, messageTitle(body), null, body);
      }),
    ],
    contactsWithPhone: async (e164) =>
      fake
        .objects('contacts')
        .filter(
          (o) =>
            digits(o.properties.phone) === digits(e164) || digits(o.properties.mobilephone) === digits(e164),
        )
        .map((o) =>
          heldObject(o, [o.properties.firstname, o.properties.lastname].filter(Boolean).join(' '), null, ''),
        ),
    loseNextAnswer: (kind) => proxy.loseNext((method, path) => method === 'POST' && CREATES[kind].test(path)),
    setOutcome: async (crmId, label) => {
      // An agent picks the outcome in HubSpot's UI, which writes through the same API.
      const list = (await (
        await fetch(`${fake.url}/calling/v1/dispositions`, { headers: asAgent })
      ).json()) as { id: string; label: string }[];
      const value = list.find((x) => x.label === label)?.id;
      if (value === undefined) throw new Error(`HubSpot has no call outcome labelled ${label}`);
      const res = await fetch(`${fake.url}/crm/v3/objects/calls/${crmId}`, {
        method: 'PATCH',
        headers: asAgent,
        body: JSON.stringify({ properties: { hs_call_disposition: value } }),
      });
      if (res.status !== 200) throw new Error(`setting the outcome answered ${res.status}`);
      // HubSpot's search (outcomes are read through it) sees the change a moment later.
      await new Promise((r) => setTimeout(r, SEARCH_LAG_MS + 50));
    },
    editContact: async (crmId, changes) => {
      const props: Record<string, string | null> = {};
      for (const [field, property] of Object.entries(CONTACT_PROPERTY)) {
        const value = changes[field as keyof typeof CONTACT_PROPERTY];
        if (value !== undefined) props[property] = value;
      }
      fake.updateContact(crmId, props);
    },
    heldContact: async (crmId) => {
      const o = fake.objects('contacts').find((c) => c.id === crmId);
      if (!o) return null;
      return Object.fromEntries(
        Object.entries(CONTACT_PROPERTY).map(([field, property]) => [field, o.properties[property] ?? null]),
      );
    },
    contactWrites: () =>
      fake.requests
        .filter((r) => r.status < 300 && r.method !== 'GET' && CONTACT_WRITE.test(r.path))
        .reduce(
          (n, r) => n + (r.path.includes('/batch/') ? (r.body as { inputs: unknown[] }).inputs.length : 1),
          0,
        ),
    expireTokens: () => {
      for (const token of fake.oauth!.issued()) fake.oauth!.expire(token);
    },
    tooManyRequests: () => fake.counters.limited,
    tightenRateLimit: () => {
      // The portal moves to a lower tier, and callsync is configured for it (a limit of its own
      // counts from zero, as a new row of rate slots).
      fake.setRateLimit(TIGHT_PER_10_SECONDS);
      connector = createCrmConnectors(configFor(TIGHT_PER_10_SECONDS), warehouse.db)(account);
    },
    dispose: async () => {
      await proxy.close();
      await fake.close();
      await warehouse.dispose();
    },
  };
}
