import type { Account, Row } from '../store/types';
import { buildLiveCalls, buildMediaSessions, buildStatements } from './activity';
import { callSchedule } from './call-schedule';
import { CallGenerator, type CallContext } from './calls';
import { buildContacts, buildUnknownCallers } from './contacts';
import { buildDirectory, type Directory } from './directory';
import { buildChats, buildFaxes, buildSms } from './messaging';
import { callingCode } from './phone-numbers';
import { hashSeed, Rng } from './prng';
import { IdCounters, PROFILES } from './profiles';
import { buildReportSchedules } from './report-schedules';
import { buildSettings, buildWidgets } from './settings';
import { buildTranscriptPool, buildVoicemailPool } from './transcripts';

const DAY = 86_400;
/** Seeded call history covers this many days before the clock's start. */
export const HISTORY_DAYS = 183;
/** The most recent seeded call starts this long before the clock's start. */
const HISTORY_GAP = 600;

/** A customer as the emulator presents it (/me and 403 checks). */
export interface CustomerInfo {
  id: number;
  name: string;
  domain: string;
  cc: string;
  cli: string;
  currency_iso: string;
  language: string;
  timezone: string;
  balance: number;
}

/** Everything generated from a seed: rows per customer and table, plus what later calls need. */
export interface SeedData {
  customers: CustomerInfo[];
  rows: Map<number, Record<string, Row[]>>;
  contexts: Map<number, CallContext>;
  accounts: Account[];
  /** Allocator state after seeding (live ids continue from it). */
  ids: IdCounters;
}

function rowsOf(map: Map<number, Record<string, Row[]>>, customerId: number): Record<string, Row[]> {
  let r = map.get(customerId);
  if (r === undefined) {
    r = {};
    map.set(customerId, r);
  }
  return r;
}

function merge(into: Record<string, Row[]>, more: Record<string, Row[]>): void {
  for (const [table, rows] of Object.entries(more)) (into[table] ??= []).push(...rows);
}

/** Generates the whole data set deterministically from `seed`. */
export function generateSeedData(opts: {
  seed: number;
  cdrs: number;
  nowMs: number;
  /** historyIdOffset of this run (0: the bases of profiles.ts). */
  historyIdOffset?: number;
}): SeedData {
  const seedRng = (label: string): Rng => new Rng(hashSeed(opts.seed, label));
  const ids = new IdCounters(opts.historyIdOffset ?? 0);
  const nowSec = Math.floor(opts.nowMs / 1000);
  const historyStart = nowSec - HISTORY_DAYS * DAY;
  const historyEnd = nowSec - HISTORY_GAP;
  const rows = new Map<number, Record<string, Row[]>>();
  const contexts = new Map<number, CallContext>();
  const directories: Directory[] = [];

  for (const profile of PROFILES) {
    const rng = seedRng(`customer:${profile.id}`);
    const out = rowsOf(rows, profile.id);
    const { directory, rows: dirRows } = buildDirectory(profile, rng, ids);
    directories.push(directory);
    merge(out, dirRows);
    const { contacts, rows: contactRows } = buildContacts(profile, directory.users, rng, ids, historyStart);
    out.contacts = contactRows;
    const widgets = buildWidgets(directory, rng, ids, historyStart - 60 * DAY);
    merge(out, widgets.rows);
    merge(out, buildSettings(directory, rng, ids, historyStart - 300 * DAY));
    out.reportschedules = buildReportSchedules(profile, rng, ids, opts.nowMs);
    const aiRng = seedRng(`ai:${profile.id}`);
    contexts.set(profile.id, {
      dir: directory,
      contacts,
      unknownCallers: buildUnknownCallers(profile, rng),
      transcripts: directory.users.map((u) =>
        buildTranscriptPool(aiRng, u.name, profile.name, profile.language, 6),
      ),
      voicemails: directory.users.map((u) => buildVoicemailPool(aiRng, u.name, profile.language, 4)),
      callMeBack: widgets.callMeBack,
      tracking: widgets.tracking,
      contactLastCall: new Array<string | undefined>(contacts.length),
      months: new Map(),
    });
  }

  generateHistory(opts, seedRng('calls'), ids, rows, contexts, historyStart, historyEnd);

  for (const dir of directories) {
    const id = dir.profile.id;
    const rng = seedRng(`activity:${id}`);
    const out = rowsOf(rows, id);
    const ctx = contexts.get(id);
    if (ctx === undefined) continue;
    for (const [i, row] of (out.contacts ?? []).entries()) {
      const last = ctx.contactLastCall[i];
      if (last !== undefined) row.last_call_at = last;
    }
    out.sms = buildSms(dir, ctx.contacts, rng, ids, historyStart, historyEnd);
    out.faxes = buildFaxes(dir, ctx.contacts, rng, ids, historyStart, historyEnd);
    merge(out, buildChats(dir, rng, ids, historyStart, historyEnd));
    merge(out, buildMediaSessions(dir, rng, ids, historyStart, historyEnd));
    out.statements = buildStatements(dir, ctx.months, ids, opts.nowMs);
    out.calls = buildLiveCalls(dir, ctx.contacts, rng, ids, nowSec, id === 1 ? 5 : 1);
  }

  return {
    customers: directories.map((d) => ({
      id: d.profile.id,
      name: d.profile.name,
      domain: d.profile.domain,
      cc: callingCode(d.profile.country),
      cli: d.mainNumber,
      currency_iso: d.profile.currency,
      language: d.profile.language,
      timezone: d.profile.timezone,
      balance: d.profile.id === 1 ? 1250.4 : 87.15,
    })),
    rows,
    contexts,
    accounts: buildAccounts(seedRng('secrets'), directories),
    ids,
  };
}

/** Months of CDRs for all customers, in one time-ordered stream so ids ascend with calldate. */
function generateHistory(
  opts: { cdrs: number },
  rng: Rng,
  ids: IdCounters,
  rows: Map<number, Record<string, Row[]>>,
  contexts: Map<number, CallContext>,
  from: number,
  to: number,
): void {
  const main = Math.max(0, Math.floor(opts.cdrs));
  const small = Math.min(300, Math.ceil(main * 0.05));
  const total = main + small;
  const times = callSchedule(rng, total, from, to);
  // Floyd's sampling: which of the calls belong to the small customer.
  const smallCalls = new Uint8Array(total);
  for (let j = total - small; j < total; j++) {
    const t = rng.int(0, j);
    if (smallCalls[t] === 1) smallCalls[j] = 1;
    else smallCalls[t] = 1;
  }
  const gen = new CallGenerator(rng, ids);
  const [first, second] = PROFILES;
  const targets = [first, second].map((p) => {
    const out = rowsOf(rows, p?.id ?? 0);
    const ctx = contexts.get(p?.id ?? 0);
    const sink = (table: string, row: Row): void => {
      (out[table] ??= []).push(row);
    };
    return { ctx, sink };
  });
  for (let i = 0; i < total; i++) {
    const target = targets[smallCalls[i] ?? 0];
    if (target?.ctx === undefined) continue;
    const start = times[i] ?? from;
    const maxDuration = to + HISTORY_GAP - 60 - start;
    gen.call(target.ctx, start, target.sink, maxDuration < 4000 ? { maxDuration } : {});
  }
}

/** Logins: each customer's admin, and a second Acme user with e-mailed two-factor codes. */
function buildAccounts(rng: Rng, dirs: readonly Directory[]): Account[] {
  const accounts: Account[] = [];
  for (const dir of dirs) {
    const logins = dir.profile.id === 1 ? dir.users.slice(0, 2) : dir.users.slice(0, 1);
    for (const [i, u] of logins.entries()) {
      accounts.push({
        email: u.email,
        password: `${dir.profile.name.split(' ')[0] ?? 'Emu'}-${rng.hex(6)}-${rng.hex(6)}!`,
        user_id: u.id,
        customer_id: dir.profile.id,
        two_factor: i === 1 ? 'E' : 'D',
        api_key: rng.hex(40),
      });
    }
  }
  return accounts;
}
