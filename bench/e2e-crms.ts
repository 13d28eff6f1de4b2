// The CRM test servers bench:e2e can write into, each enforcing its vendor's documented limits, and
// what the bench needs of each: the destination config, the calls it holds by callsync key, its
// request and refusal counts, and callers seeded as contacts.
import { startFakeHubSpot } from '../test/fakes/hubspot-server';
import { startFakeSalesforce } from '../test/fakes/salesforce-server';
import type { RecordedRequest } from '../test/fakes/hubspot-server';

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

/** Each `--crm` value and its test server. */
export const BENCH_CRMS: Readonly<Record<string, () => Promise<BenchCrm>>> = { hubspot, salesforce };
