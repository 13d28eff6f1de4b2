// `npm run bench:contacts -- --contacts 25000`: N platform contacts (in the emulator) and N HubSpot
// contacts (in the HubSpot test server, which enforces a Professional private app's limits: 190
// requests per rolling 10 s, 5 searches per second), 40% of them the same people with their numbers
// written differently (E.164 on the platform, national format in HubSpot). Measures the initial
// two-way sync (one run of sync/contacts against real PostgreSQL), then, after the run that reads
// callsync's own writes back, 1,000 changes on each side synced by one incremental run. The last
// stdout line is the result; progress goes to stderr.
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command } from 'commander';
import { z } from 'zod';
import { contactSyncConfigSchema } from '../config/contact-sync';
import { HubSpotConnector } from '../connectors/hubspot';
import { createPlatformClient } from '../connectors/platform';
import { createDatabase, loadContactLinks, migrateToLatest } from '../connectors/postgres';
import { startEmulator } from '../emulator';
import { runContactSync } from '../sync/contacts/engine';
import { startFakeHubSpot, type FakeHubSpot } from '../test/fakes/hubspot-server';
import { benchDatabase, Cleanups } from './bench-database';
import { runBenchmark } from './run';

const optionsSchema = z.object({
  contacts: z.coerce.number().int().min(10).max(200_000),
  changes: z.coerce.number().int().min(1),
});

const log = (message: string): void => void process.stderr.write(`[bench:contacts] ${message}\n`);

const PER_10S = 190;
const SEARCH_PER_S = 5;

/** The least time HubSpot's limits allow for these requests (whole windows after the first). */
function rateLimitBound(requests: number, searches: number): number {
  const general = requests > 0 ? Math.floor((requests - 1) / PER_10S) * 10 : 0;
  const search = searches > 0 ? Math.floor((searches - 1) / SEARCH_PER_S) : 0;
  return Math.max(general, search);
}

/** A London number (020 3xxx xxxx) or a UK mobile (07911 xxxxxx) by index, E.164 and national. */
function londonNumber(i: number) {
  const digits = String(3_000_0000 + i);
  return { e164: `+4420${digits}`, national: `020 ${digits.slice(0, 4)} ${digits.slice(4)}` };
}
function mobileNumber(i: number) {
  const digits = String(100_000 + i);
  return { e164: `+447911${digits}`, national: `07911 ${digits}` };
}

function counts(fake: FakeHubSpot, from: number) {
  const slice = fake.requests.slice(from);
  return {
    requests: slice.length,
    searches: slice.filter((r) => r.path.endsWith('/search')).length,
    limited: slice.filter((r) => r.status === 429).length,
  };
}

async function main(): Promise<Record<string, unknown>> {
  const program = new Command()
    .option('--contacts <n>', 'contacts on each side', '25000')
    .option('--changes <n>', 'changes on each side after the initial sync', '1000');
  program.parse(process.argv);
  const opts = optionsSchema.parse(program.opts());
  const n = opts.contacts;
  const shared = Math.floor(n * 0.4);
  const changes = Math.min(opts.changes, shared);
  const cleanups = new Cleanups();
  const scratch = mkdtempSync(join(tmpdir(), 'bench-contacts-'));
  cleanups.push(async () => rmSync(scratch, { recursive: true, force: true }));
  try {
    const url = await benchDatabase({
      name: 'bench_contacts',
      scratch,
      settings: [],
      describe: 'defaults',
      log,
      cleanups,
    });
    const database = createDatabase(url);
    cleanups.push(() => database.close());
    await migrateToLatest(database.db);

    const emulator = await startEmulator({ port: 0, seed: 1, cdrs: 10 });
    cleanups.push(() => emulator.close());
    const customer = emulator.admin.customer_id;
    const contacts = emulator.store.tables.contacts;
    contacts.removeAll(customer);
    const fake = await startFakeHubSpot();
    cleanups.push(() => fake.close());

    log(`seeding ${n} platform and ${n} HubSpot contacts (${shared} the same people)`);
    const platformIds: number[] = [];
    const hubspotIds: string[] = [];
    for (let i = 0; i < n; i++) {
      // People 0..shared-1 are on both sides; the platform's others and HubSpot's others differ.
      const tel = londonNumber(i);
      const row = contacts.insert(customer, {
        first_name: `First${i}`,
        last_name: `Last${i}`,
        email: `person${i}@example.com`,
        tel: tel.e164,
        mobile: '',
        company: `Company ${i % 97}`,
        created_at: '2026-11-01 12:00:00',
        notes: '',
      });
      platformIds.push(Number(row.id));
      const j = i < shared ? i : n + i;
      const crmTel = i < shared ? tel : mobileNumber(j);
      hubspotIds.push(
        fake.seedContact({
          firstname: `First${j}`,
          lastname: `Last${j}`,
          email: `Person${j}@Example.com`,
          [i < shared ? 'phone' : 'mobilephone']: crmTel.national,
          company: `Company ${j % 97}`,
        }),
      );
    }

    const platform = createPlatformClient({
      baseUrl: emulator.baseUrl,
      credentials: { type: 'apiKey', userId: emulator.admin.user_id, apiKey: emulator.admin.api_key },
      requestsPerSecond: 2000,
      pageSize: 5000,
    });
    const connector = new HubSpotConnector({
      type: 'hubspot',
      accessToken: fake.token,
      basePath: fake.url,
      requestsPer10Seconds: PER_10S,
      searchLagSeconds: 5,
      searchRequestsPerSecond: SEARCH_PER_S,
      taskPriority: 'HIGH',
    });
    const book = connector.contactBook({ country: 'GB' });
    await book.prepare();
    const scope = { account: 'bench', destination: 'hubspot' };
    const config = { ...contactSyncConfigSchema.parse({ enabled: true }), every: 300_000 };
    const run = () => runContactSync({ db: database.db, platform, book, config, country: 'GB', scope });

    log('initial sync');
    let mark = fake.requests.length;
    let t = performance.now();
    const initial = await run();
    const initialS = (performance.now() - t) / 1000;
    const initialCalls = counts(fake, mark);
    log(`initial: ${JSON.stringify(initial)} in ${initialS.toFixed(1)} s, ${JSON.stringify(initialCalls)}`);

    // The next run reads the initial run's writes back (HubSpot's search, 200 a page) and writes nothing.
    mark = fake.requests.length;
    t = performance.now();
    const readBack = await run();
    log(
      `read-back: ${JSON.stringify(readBack)} in ${((performance.now() - t) / 1000).toFixed(1)} s, ${JSON.stringify(counts(fake, mark))}`,
    );

    log(`${changes} changes on each side`);
    for (let i = 0; i < changes; i++) {
      await platform.settings.contacts.update(platformIds[i]!, { first_name: `Changed${i}` });
      fake.updateContact(hubspotIds[shared - 1 - i]!, { company: `New Co ${i}` });
    }
    mark = fake.requests.length;
    t = performance.now();
    const incremental = await run();
    const incrementalS = (performance.now() - t) / 1000;
    log(
      `incremental: ${JSON.stringify(incremental)} in ${incrementalS.toFixed(1)} s, ${JSON.stringify(counts(fake, mark))}`,
    );
    const quiet = await run();
    log(`quiet: ${JSON.stringify(quiet)}`);

    const echoWrites =
      readBack.updatedInCrm +
      readBack.updatedOnPlatform +
      readBack.createdInCrm +
      readBack.createdOnPlatform +
      Math.max(0, incremental.updatedInCrm - changes) +
      Math.max(0, incremental.updatedOnPlatform - changes) +
      quiet.updatedInCrm +
      quiet.updatedOnPlatform;

    // Every person once on each side, the shared ones linked to each other.
    const crmKeys = new Set<string>();
    let crmDuplicates = 0;
    for (const o of fake.objects('contacts')) {
      const key = o.properties.email?.toLowerCase() ?? o.id;
      if (crmKeys.has(key)) crmDuplicates++;
      crmKeys.add(key);
    }
    const platformKeys = new Set<string>();
    let platformDuplicates = 0;
    for await (const c of platform.settings.contacts.list({ limit: 5000 })) {
      const key = c.email?.toLowerCase() ?? String(c.id);
      if (platformKeys.has(key)) platformDuplicates++;
      platformKeys.add(key);
    }
    const links = await loadContactLinks(database.db, scope);
    const linked = new Map(links.map((l) => [l.platformId, l.crmId]));
    let unmatched = 0;
    for (let i = 0; i < shared; i++) if (linked.get(String(platformIds[i])) !== hubspotIds[i]) unmatched++;
    log(
      `unmatched shared people: ${unmatched}; links: ${links.length}; load average ${loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}`,
    );
    if (unmatched > 0) throw new Error(`${unmatched} of the ${shared} shared people were not linked`);

    const bound = rateLimitBound(initialCalls.requests, initialCalls.searches);
    return {
      bench: 'contacts',
      contacts: n,
      initial_s: Number(initialS.toFixed(2)),
      api_calls: initialCalls.requests,
      rate_limit_bound_s: bound,
      ratio_to_bound: bound > 0 ? Number((initialS / bound).toFixed(3)) : null,
      incremental_s: Number(incrementalS.toFixed(2)),
      echo_writes: echoWrites,
      duplicates: crmDuplicates + platformDuplicates,
      http_429: fake.counters.limited,
    };
  } finally {
    await cleanups.run(log);
  }
}

runBenchmark('bench:contacts', main);
