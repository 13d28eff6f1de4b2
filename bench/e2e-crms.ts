// The CRM test servers bench:e2e can write into, each enforcing its vendor's documented limits, and
// what the bench needs of each: the destination config, the calls it holds by callsync key, its
// request and refusal counts, and callers seeded as contacts.
import { startFakeHubSpot } from '../test/fakes/hubspot-server';
import { startFakeSalesforce } from '../test/fakes/salesforce-server';
import { startFakePipedrive } from '../test/fakes/pipedrive-server';
import { keyOf } from '../connectors/pipedrive/records';
import { startFakeZendesk } from '../test/fakes/zendesk-server';
import { startFakeZoho } from '../test/fakes/zoho-server';
import type { RecordedRequest } from '../test/fakes/hubspot-server';
import { startFakeDynamics } from '../test/fakes/dynamics-server';
import { trustTestCertificate } from '../test/fakes/dynamics-tls';

export interface BenchCrm {
  /** `crm.destination` of the bench's config. */
  destination: Record<string, unknown>;
  /** Requests answered so far, and those refused for a rate or daily limit (429 and the like). */
  counters: { requests: number; limited: number };
  requests: readonly Pick<RecordedRequest, 'method' | 'path' | 'status'>[];
  /** callsync's keys (`<account>:<call id>`) of the call logs the CRM holds, one per log. */
  callLogKeys(): unknown[];
  /** A caller the CRM knows (calls are matched to, and logged on, its contact); returns its CRM id. */
  seedContact(phone: string, i: number): string;
  close(): Promise<void>;
}

async function hubspot(): Promise<BenchCrm> {
  // A Professional private app's limits (190 per 10 s, 5 searches/s); search lags a second.
  const fake = await startFakeHubSpot();
  return {
    destination: {
      type: 'hubspot',
      accessToken: fake.token,
      basePath: fake.url,
      requestsPer10Seconds: 190,
      searchRequestsPerSecond: 5,
    },
    counters: fake.counters,
    requests: fake.requests,
    callLogKeys: () => fake.objects('calls').map((o) => o.properties.callsync_key),
    seedContact: (phone, i) => fake.seedContact({ phone, firstname: 'Caller', lastname: String(i) }),
    close: () => fake.close(),
  };
}

async function salesforce(): Promise<BenchCrm> {
  // An org whose search index lags a second behind writes.
  const fake = await startFakeSalesforce({ searchIndexDelayMs: 1000 });
  return {
    destination: { type: 'salesforce', instanceUrl: fake.url, accessToken: fake.token },
    counters: fake.counters,
    requests: fake.requests,
    callLogKeys: () =>
      fake
        .records('Task')
        .filter((r) => r.fields.TaskSubtype === 'Call')
        .map((r) => r.fields.CallObject),
    seedContact: (phone, i) =>
      fake.seed('Contact', { FirstName: 'Caller', LastName: String(i), Phone: phone }),
    close: () => fake.close(),
  };
}

async function zendesk(): Promise<BenchCrm> {
  // An Enterprise plan's 700 requests a minute; callsync configured for 600 of them.
  const fake = await startFakeZendesk({ requestsPerMinute: 700 });
  return {
    destination: {
      type: 'zendesk',
      subdomain: fake.subdomain,
      baseUrl: fake.url,
      auth: { type: 'api-token', email: fake.admin.email, apiToken: fake.admin.apiToken },
      requestsPerMinute: 600,
    },
    counters: fake.counters,
    requests: fake.requests,
    callLogKeys: () =>
      fake
        .tickets()
        .filter((t) => t.tags.includes('callsync_call'))
        .map((t) => t.external_id),
    seedContact: (phone, i) => String(fake.seedUser({ name: `Caller ${i}`, phone }).id),
    close: () => fake.close(),
  };
}

async function pipedrive(): Promise<BenchCrm> {
  // A company on the Professional plan with ten seats (its daily token budget), an API token's
  // burst of 20 requests per 2 seconds (callsync keeps 95% of it).
  const fake = await startFakePipedrive({ dailyTokens: 10 * 30_000 });
  return {
    destination: { type: 'pipedrive', companyDomain: 'bench', apiUrl: fake.url, apiToken: fake.apiToken },
    counters: fake.counters,
    requests: fake.requests,
    // Call logs and callbacks are both activities of type call; a callback's key names it.
    callLogKeys: () =>
      [...fake.state.activities.values()]
        .filter((a) => !a.is_deleted && a.type === 'call')
        .map((a) => keyOf(a.note))
        .filter((k) => k !== null && !k.includes(':callback:')),
    seedContact: (phone, i) => String(fake.seedPerson({ name: `Caller ${i}`, phones: [phone] })),
    close: () => fake.close(),
  };
}

async function dynamics(): Promise<BenchCrm> {
  // Dataverse's service protection limits (6,000 requests per 5 minutes per user, 52 at once), over
  // https with a test certificate this process trusts (MSAL takes https authorities only).
  trustTestCertificate();
  const fake = await startFakeDynamics();
  return {
    destination: {
      type: 'dynamics',
      url: fake.url,
      authorityHost: fake.url,
      tenantId: fake.tenantId,
      clientId: fake.clientId,
      clientSecret: fake.clientSecret,
    },
    counters: fake.limits.counters,
    requests: fake.requests,
    callLogKeys: () =>
      fake
        .rows('phonecalls')
        .filter((r) => r.category === 'callsync call')
        .map((r) => r.subcategory),
    seedContact: (phone, i) =>
      fake.seedContact({ firstname: 'Caller', lastname: String(i), telephone1: phone }),
    close: () => fake.close(),
  };
}

async function zoho(): Promise<BenchCrm> {
  // An Enterprise org: 20 concurrent requests, a day's credits for this many calls; callsync keeps
  // its own concurrency under the org's.
  const client = { clientId: '1000.BENCH', clientSecret: 'bench-secret', refreshToken: '1000.bench' };
  const fake = await startFakeZoho({ client, concurrency: 20, creditsPerDay: 1_000_000 });
  return {
    destination: {
      type: 'zoho',
      dataCentre: 'eu',
      ...client,
      orgId: 'org20012345',
      apiUrl: fake.url,
      accountsUrl: fake.url,
      maxConcurrentRequests: 15,
    },
    counters: fake.counters,
    requests: fake.requests,
    callLogKeys: () => fake.records.all('Calls').map((r) => r.fields.Callsync_Key),
    seedContact: (phone, i) =>
      fake.records.seed('Contacts', { First_Name: 'Caller', Last_Name: String(i), Phone: phone }).id,
    close: () => fake.close(),
  };
}

/** Each `--crm` value and its test server. */
export const BENCH_CRMS: Readonly<Record<string, () => Promise<BenchCrm>>> = {
  hubspot,
  salesforce,
  zendesk,
  pipedrive,
  dynamics,
  zoho,
};
