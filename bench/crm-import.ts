// `npm run bench:crm-import -- --calls 5000`: N past calls (CDRs in PostgreSQL, a fifth of the callers
// known HubSpot contacts) imported into the HubSpot test server, which enforces a Professional private
// app's limits (190 requests per rolling 10 s, 5 searches per second), through the product's wiring
// (createActivityDeps: vendor limits shared in PostgreSQL, and `runCrmImport`, what `callsync crm
// import` runs). Compares calls per second with the most the vendor's limits allow for the requests
// the import needed, and checks each call was logged exactly once. The last stdout line is the result;
// progress goes to stderr.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command } from 'commander';
import { z } from 'zod';
import { contactLookupOf } from '../activities/contact-lookup';
import { runCrmImport } from '../activities/crm-import';
import { progressLine } from '../cli/commands/crm';
import { parseConfig } from '../config/load';
import { cdrSchema } from '../connectors/platform';
import { upsertPage } from '../connectors/postgres';
import { silentLogger } from '../lib/logger';
import { createActivityDeps } from '../runtime/activity-deps';
import { harnessEncryption } from '../test/integration/sync-harness';
import { PROFESSIONAL_LIMITS, startFakeHubSpot } from '../test/fakes/hubspot-server';
import { benchDatabase, Cleanups } from './bench-database';
import { runBenchmark } from './run';

const optionsSchema = z.object({ calls: z.coerce.number().int().min(100).max(200_000) });

const log = (message: string): void => void process.stderr.write(`[bench:crm-import] ${message}\n`);

const PER_SECOND = PROFESSIONAL_LIMITS.per10Seconds / 10;
const SEARCH_PER_SECOND = PROFESSIONAL_LIMITS.searchPerSecond;

const platformTime = (ms: number) => new Date(ms).toISOString().slice(0, 19).replace('T', ' ');
const callerOf = (i: number) => `+4420${String(70_000_000 + i)}`;

/**
 * The most calls per second HubSpot's limits allow for an import that needed `requests` requests
 * (`searches` of them searches) for `calls` calls, in steady state: each limit alone, the tighter wins.
 */
function vendorBound(calls: number, requests: number, searches: number): number {
  const general = requests > 0 ? (calls / requests) * PER_SECOND : Infinity;
  const search = searches > 0 ? (calls / searches) * SEARCH_PER_SECOND : Infinity;
  return Math.min(general, search);
}

async function main(): Promise<Record<string, unknown>> {
  const program = new Command().option('--calls <n>', 'past calls to import', '5000');
  program.parse(process.argv);
  const { calls } = optionsSchema.parse(program.opts());
  const cleanups = new Cleanups();
  const scratch = mkdtempSync(join(tmpdir(), 'bench-crm-import-'));
  cleanups.push(async () => rmSync(scratch, { recursive: true, force: true }));
  try {
    const url = await benchDatabase({
      name: 'bench_crm_import',
      scratch,
      settings: [],
      describe: 'defaults',
      log,
      cleanups,
    });
    const fake = await startFakeHubSpot();
    cleanups.push(() => fake.close());
    const config = parseConfig({
      // A local bench setup: its secrets inline.
      allowInlineSecrets: true,
      accounts: [
        {
          name: 'bench',
          platform: {
            baseUrl: 'http://127.0.0.1:9/v1.1/voipstudio',
            credentials: { type: 'apiKey', userId: 1, apiKey: 'unused' },
          },
        },
      ],
      database: { url },
      temporal: { encryption: harnessEncryption() },
      crm: {
        destination: {
          type: 'hubspot',
          accessToken: fake.token,
          basePath: fake.url,
          requestsPer10Seconds: PROFESSIONAL_LIMITS.per10Seconds,
          searchRequestsPerSecond: SEARCH_PER_SECOND,
        },
      },
      logLevel: 'silent',
    });
    const deps = await createActivityDeps(config, url, silentLogger);
    cleanups.push(() => deps.close());

    log(`seeding ${calls} calls (CDRs) and ${Math.floor(calls / 5)} HubSpot contacts`);
    const now = Date.now();
    for (let start = 0; start < calls; start += 2000) {
      const records = [];
      for (let i = start; i < Math.min(calls, start + 2000); i++) {
        const raw = {
          id: 1_000_000 + i,
          live_id: 500_000 + i,
          type: i % 3 === 0 ? 'O' : 'I',
          calldate: platformTime(now - (calls - i) * 60_000),
          src: i % 3 === 0 ? '600' : callerOf(i),
          dst: i % 3 === 0 ? callerOf(i) : '600',
          billsec: i % 4 === 0 ? 0 : 20 + (i % 300),
          disposition: i % 4 === 0 ? 'NO ANSWER' : 'ANSWERED',
        };
        records.push({ record: cdrSchema.parse(raw), raw });
      }
      await upsertPage(deps.warehouse.pool, { stream: 'cdrs', account: 'bench', records });
    }
    for (let i = 0; i < calls; i += 5) fake.seedContact({ firstname: `Caller${i}`, phone: callerOf(i) });

    const mark = fake.requests.length;
    let lastLine = 0;
    const summary = await runCrmImport({
      db: deps.warehouse.db,
      config: deps.config,
      account: 'bench',
      crm: deps.crm('bench'),
      lookup: contactLookupOf(deps),
      since: new Date(now - 90 * 86_400_000),
      until: new Date(now + 1000),
      onProgress: (p) => {
        if (Date.now() - lastLine < 2000 && p.done < p.total) return;
        lastLine = Date.now();
        log(progressLine('bench', p));
      },
    });
    const sent = fake.requests.slice(mark);
    const searches = sent.filter((r) => r.path.endsWith('/search')).length;
    const seconds = summary.elapsedMs / 1000;
    const searchTimes = sent.filter((r) => r.path.endsWith('/search')).map((r) => r.at);
    // The connector paces searches at one under HubSpot's limit (4/s): the gap that sets the pace.
    if (searchTimes.length > 1)
      log(
        `${searchTimes.length} searches, ${((searchTimes.at(-1)! - searchTimes[0]!) / (searchTimes.length - 1)).toFixed(0)} ms apart on average`,
      );
    const keys = fake.objects('calls').map((o) => o.properties.callsync_key);
    const duplicates = keys.length - new Set(keys).size;
    const missing = calls - new Set(keys).size;
    if (missing !== 0) throw new Error(`${missing} of ${calls} calls were not logged`);
    const again = await runCrmImport({
      db: deps.warehouse.db,
      config: deps.config,
      account: 'bench',
      crm: deps.crm('bench'),
      lookup: contactLookupOf(deps),
      since: new Date(now - 90 * 86_400_000),
      until: new Date(now + 1000),
    });
    log(`second run: ${again.created} new, ${again.alreadyLogged} already logged`);
    const bound = vendorBound(calls, sent.length, searches);
    return {
      bench: 'crm_import',
      calls,
      seconds: Number(seconds.toFixed(2)),
      calls_per_second: Number((calls / seconds).toFixed(1)),
      vendor_bound_per_second: Number(bound.toFixed(1)),
      ratio_to_bound: Number((calls / seconds / bound).toFixed(3)),
      api_requests: sent.length,
      searches,
      duplicates,
      second_run_new: again.created,
      http_429: fake.counters.limited,
    };
  } finally {
    await cleanups.run(log);
  }
}

runBenchmark('bench:crm-import', main);
