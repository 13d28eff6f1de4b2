// `callsync crm import`: an account's past calls (CDRs already in the warehouse) logged into its CRM
// through the same exactly-once path as live calls: the same call log (buildCallLog, keyed
// `<account>:<call id>`), the same mapping table and key locks (batch-upsert.ts), the same vendor
// rate limits (the connector's limiters, shared with every worker through PostgreSQL). A call
// already logged (by live traffic or an earlier import) is skipped without a request, so a second
// run writes nothing; a checkpoint per account and destination lets an interrupted run resume.
import type { Kysely } from 'kysely';
import type { CountryCode } from 'libphonenumber-js';
import { crmRulesOf } from '../config/account-settings';
import type { CallsyncConfig } from '../config/schema';
import { upsertCallLogBatch } from '../connectors/crm/batch-upsert';
import { buildCallLog, summarizeCdr } from '../connectors/crm/call-log';
import { CrmBatchers } from '../connectors/crm/crm-batchers';
import {
  destinationIdOf,
  type CallLog,
  type CrmConnector,
  type CrmContact,
} from '../connectors/crm/crm-connector';
import { ivrChoices, ivrRouteText } from '../connectors/crm/ivr-route';
import { getMappings } from '../connectors/crm/mapping';
import { chooseContact } from '../connectors/crm/match';
import { upsertCallLog } from '../connectors/crm/upsert';
import { cdrSchema, monitorSchema, type Cdr, type Monitor } from '../connectors/platform';
import {
  advanceCrmImportCheckpoint,
  callDtmfDigitsOf,
  callTimelinesOf,
  countImportCalls,
  finishCrmImportCheckpoint,
  getCrmImportCheckpoint,
  hasCdrs,
  nextImportCallIds,
  rawRecordsOfCalls,
  startCrmImportCheckpoint,
  userEmailsOf,
  type CrmImportScope,
  type Database,
} from '../connectors/postgres';
import type { ContactLookup } from './contact-lookup';

/** Where an import stands, after each page. */
export interface CrmImportProgress {
  /** Calls of the window looked at (this run and the runs it resumes). */
  done: number;
  total: number;
  /** Call logs this run created in the CRM. */
  created: number;
  /** Calls this run found already logged (live traffic or an earlier run) and skipped. */
  alreadyLogged: number;
  /** Calls whose log the CRM refused (bad input), each alone; the rest of their page is written. */
  failed: number;
  elapsedMs: number;
  /** Calls looked at per second by this run. */
  callsPerSecond: number;
}

export interface CrmImportSummary extends CrmImportProgress {
  account: string;
  since: string;
  until: string;
  /** Whether this run went on from an interrupted one's checkpoint. */
  resumed: boolean;
}

/** The account has no CDRs in the warehouse: the import has nothing to read. */
export class NoCdrsError extends Error {
  override readonly name = 'NoCdrsError';
}

export interface CrmImportOptions {
  db: Kysely<Database>;
  config: CallsyncConfig;
  account: string;
  crm: CrmConnector;
  lookup: ContactLookup;
  since: Date;
  until: Date;
  /** Calls per page (default: the CRM's batch size, else 100). */
  pageSize?: number;
  onProgress?: (p: CrmImportProgress) => void;
  /** Stops between pages (the checkpoint holds what was written); the summary says how far it got. */
  signal?: AbortSignal;
}

/** Pages read ahead of the one being written. */
const READ_AHEAD_PAGES = 3;

/** The leg that describes a call, as the live path picks it (activities/call-cdr.ts): talk time, then latest. */
export function callLegOf(legs: readonly Cdr[]): Cdr | undefined {
  return [...legs].sort((a, b) => (b.billsec ?? 0) - (a.billsec ?? 0) || b.id - a.id)[0];
}

/** Imports the account's calls of [since, until) into its CRM (or resumes an interrupted import). */
export async function runCrmImport(opts: CrmImportOptions): Promise<CrmImportSummary> {
  const { db, account, crm } = opts;
  const scope: CrmImportScope = { account, destination: destinationIdOf(crm) };
  const country = opts.config.crm.defaultCountry as CountryCode;
  const rules = crmRulesOf(opts.config, account);
  const baseUrl = opts.config.accounts.find((a) => a.name === account)?.platform.baseUrl;
  const pageSize = opts.pageSize ?? crm.batch?.maxBatch ?? 100;

  const saved = await getCrmImportCheckpoint(db, scope);
  const resumed = saved !== undefined && saved.finished_at === null;
  let since = opts.since;
  let until = opts.until;
  let after: number | null = null;
  let doneBefore = 0;
  let total: number;
  if (resumed) {
    since = new Date(saved.since);
    until = new Date(saved.until);
    after = saved.last_call_id === null ? null : Number(saved.last_call_id);
    doneBefore = saved.done;
    total = saved.total;
  } else {
    if (!(await hasCdrs(db, account)))
      throw new NoCdrsError(
        `account "${account}" has no CDRs in PostgreSQL: run \`callsync backfill --stream cdrs --from <date> --account ${account}\` first`,
      );
    total = await countImportCalls(db, account, since, until);
    await startCrmImportCheckpoint(db, scope, { since, until, total });
  }

  const started = performance.now();
  const p = { done: doneBefore, created: 0, alreadyLogged: 0, failed: 0 };
  const progress = (): CrmImportProgress => {
    const elapsedMs = performance.now() - started;
    const thisRun = p.done - doneBefore;
    return {
      ...p,
      total,
      elapsedMs,
      callsPerSecond: elapsedMs > 0 ? Math.round((thisRun / elapsedMs) * 100_000) / 100 : 0,
    };
  };
  // The page in flight when a run stopped may have reached the CRM without its mappings: the first
  // page of a resumed run searches the CRM for its keys before creating (upsert.ts's mayExist).
  let mayExist = resumed;
  // Pages are read ahead (their ids in order, then, concurrently, their mappings, call logs and
  // contact searches) while the oldest is written: the vendor's search rate, not the round trips,
  // sets the pace. The checkpoint still moves page by page, in order.
  const prepare = (ids: number[]) => {
    const built = (async () => {
      const mapped = await getMappings(
        db,
        scope.destination,
        'call_log',
        ids.map((id) => `${account}:${id}`),
      );
      const todo = ids.filter((id) => !mapped.has(`${account}:${id}`));
      return { todo, logs: await buildLogs(opts, todo, country, rules, baseUrl) };
    })();
    // Awaited when its turn comes; a failure meanwhile is not an unhandled rejection.
    built.catch(() => undefined);
    return { ids, built };
  };
  const queue: ReturnType<typeof prepare>[] = [];
  let cursor = after;
  let exhausted = false;
  try {
    for (;;) {
      if (opts.signal?.aborted) break;
      while (queue.length < READ_AHEAD_PAGES && !exhausted) {
        const ids = await nextImportCallIds(db, { account, since, until, after: cursor, limit: pageSize });
        if (ids.length === 0) exhausted = true;
        else {
          cursor = ids[ids.length - 1]!;
          queue.push(prepare(ids));
        }
      }
      const page = queue.shift();
      if (!page) {
        await finishCrmImportCheckpoint(db, scope);
        break;
      }
      // A page read ahead can still meet a call logged meanwhile (live traffic): the upsert re-reads
      // every mapping under its lock, so it updates that one instead of creating a second.
      const { todo, logs } = await page.built;
      const written = await writeLogs(db, crm, scope.destination, logs, mayExist);
      mayExist = false;
      const last = page.ids[page.ids.length - 1]!;
      p.created += written.created;
      p.failed += written.failed;
      p.alreadyLogged += page.ids.length - todo.length + written.recovered;
      p.done += page.ids.length;
      await advanceCrmImportCheckpoint(db, scope, {
        lastCallId: last,
        done: page.ids.length,
        created: written.created,
      });
      opts.onProgress?.(progress());
    }
  } finally {
    // Pages read ahead and not written are dropped (a resumed run reads them again); their queries
    // end before the caller closes the database.
    await Promise.allSettled(queue.map((q) => q.built));
  }
  return {
    account,
    since: since.toISOString(),
    until: until.toISOString(),
    resumed,
    ...progress(),
  };
}

type Rules = ReturnType<typeof crmRulesOf>;

/** The call logs of these calls, as the live path would write them now. */
async function buildLogs(
  opts: CrmImportOptions,
  callIds: readonly number[],
  country: CountryCode,
  rules: Rules,
  baseUrl: string | undefined,
): Promise<CallLog[]> {
  const { db, account } = opts;
  if (callIds.length === 0) return [];
  const legs = new Map<number, Cdr[]>();
  for (const row of await rawRecordsOfCalls(db, 'cdrs', account, callIds)) {
    const cdr = cdrSchema.safeParse(row.raw);
    if (!cdr.success || row.live_id === null) continue;
    const id = Number(row.live_id);
    legs.set(id, [...(legs.get(id) ?? []), cdr.data]);
  }
  const recordings = new Map<number, Monitor>();
  for (const row of await rawRecordsOfCalls(db, 'recordings', account, callIds)) {
    const m = monitorSchema.safeParse(row.raw);
    if (m.success && row.live_id !== null) recordings.set(Number(row.live_id), m.data);
  }
  const calls = callIds.flatMap((id) => {
    const cdr = callLegOf(legs.get(id) ?? []);
    return cdr ? [{ id, cdr }] : [];
  });
  const emails = await userEmailsOf(db, account, [
    ...new Set(calls.map((c) => c.cdr.user_id).filter((u): u is number => typeof u === 'number')),
  ]);
  const contacts = await matchContacts(
    opts,
    calls.map((c) => summarizeCdr(c.cdr, country).externalNumber),
    rules,
  );
  const ids = calls.map((c) => c.id);
  const [timelines, digits] = await Promise.all([
    callTimelinesOf(db, account, ids),
    callDtmfDigitsOf(db, account, ids),
  ]);
  const logs: CallLog[] = [];
  for (const { id, cdr } of calls) {
    const recording = recordings.get(id) ?? null;
    const number = summarizeCdr(cdr, country).externalNumber;
    logs.push(
      buildCallLog({
        account,
        callId: id,
        cdr,
        recording,
        recordingUrl: recording && baseUrl ? `${baseUrl}/monitors/${recording.id}.mp3` : null,
        userEmail: cdr.user_id ? (emails.get(cdr.user_id) ?? null) : null,
        contact: number ? (contacts.get(number) ?? null) : null,
        defaultCountry: country,
        ivrDigits: (digits.get(id) ?? []).join(''),
        ivrRoute: ivrRouteText(ivrChoices(timelines.get(id) ?? [])),
      }),
    );
  }
  return logs;
}

/**
 * The contact of each number: the contact cache first (as live calls), then one batch search for
 * the page's misses where the CRM has one. Unknown callers get no contact created by an import.
 */
async function matchContacts(
  opts: CrmImportOptions,
  numbers: readonly (string | null)[],
  rules: Rules,
): Promise<Map<string, CrmContact | null>> {
  const distinct = [...new Set(numbers.filter((n): n is string => n !== null))];
  const found = new Map<string, CrmContact | null>();
  if (distinct.length === 0) return found;
  const { crm, lookup, account } = opts;
  // The page's cache misses gathered into batch searches, as a worker's lookups are (crm-batchers.ts).
  const batchers = crm.batch
    ? new CrmBatchers(opts.db, destinationIdOf(crm), crm.batch, {
        batchWaitMs: 0,
        lookupWaitMs: opts.config.crm.lookupWait,
      })
    : undefined;
  const search = (n: string): Promise<CrmContact[]> =>
    batchers ? batchers.lookups.submit(n) : crm.findContactsByPhone(n);
  const results = await Promise.all(distinct.map((n) => lookup.candidates(account, crm, n, search)));
  distinct.forEach((n, i) => found.set(n, chooseContact(results[i]!.contacts, rules.matchRule, null)));
  return found;
}

/** Writes a page's logs exactly once each: one batch request where the CRM has them. */
async function writeLogs(
  db: Kysely<Database>,
  crm: CrmConnector,
  destination: string,
  logs: readonly CallLog[],
  mayExist: boolean,
): Promise<{ created: number; recovered: number; failed: number }> {
  const r = { created: 0, recovered: 0, failed: 0 };
  if (logs.length === 0) return r;
  if (crm.batch) {
    const results = await upsertCallLogBatch(
      db,
      destination,
      crm.batch,
      logs.map((item) => ({ item, mayExist })),
    );
    for (const res of results.values()) {
      if (res instanceof Error) r.failed++;
      else if (res.outcome === 'created') r.created++;
      else r.recovered++;
    }
    return r;
  }
  for (const log of logs) {
    const res = await upsertCallLog(db, crm, log, { mayExist });
    if (res.outcome === 'created') r.created++;
    else r.recovered++;
  }
  return r;
}
