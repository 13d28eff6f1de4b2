// `callsync crm import`: the calls of an account's window read from the warehouse in call-id order,
// and the import's checkpoint per account and CRM destination.
import { sql, type Kysely } from 'kysely';
import type { CallEventRow, CrmImportCheckpointRow, Database } from '../tables';

/** The account and destination an import (and its checkpoint) belongs to. */
export interface CrmImportScope {
  account: string;
  destination: string;
}

/** Calls (distinct live ids) of the account that started in [since, until). */
export async function countImportCalls(
  db: Kysely<Database>,
  account: string,
  since: Date,
  until: Date,
): Promise<number> {
  const r = await db
    .selectFrom('cdrs')
    .select(sql<string>`count(distinct live_id)`.as('n'))
    .where('account', '=', account)
    .where('calldate', '>=', since)
    .where('calldate', '<', until)
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

/** Whether the warehouse holds any CDR of the account (else the import says to backfill first). */
export async function hasCdrs(db: Kysely<Database>, account: string): Promise<boolean> {
  const r = await db
    .selectFrom('cdrs')
    .select('id')
    .where('account', '=', account)
    .limit(1)
    .executeTakeFirst();
  return r !== undefined;
}

/** The next `limit` call ids (live ids) after `after`, ascending, of calls started in [since, until). */
export async function nextImportCallIds(
  db: Kysely<Database>,
  opts: { account: string; since: Date; until: Date; after: number | null; limit: number },
): Promise<number[]> {
  let q = db
    .selectFrom('cdrs')
    .select('live_id')
    .distinct()
    .where('account', '=', opts.account)
    .where('calldate', '>=', opts.since)
    .where('calldate', '<', opts.until)
    .where('live_id', 'is not', null);
  if (opts.after !== null) q = q.where('live_id', '>', opts.after);
  const rows = await q.orderBy('live_id').limit(opts.limit).execute();
  return rows.map((r) => Number(r.live_id));
}

/**
 * The raw records of these calls in `table`: every CDR leg, or every recording (in id order, so the
 * last one read is the newest).
 */
export function rawRecordsOfCalls(
  db: Kysely<Database>,
  table: 'cdrs' | 'recordings',
  account: string,
  callIds: readonly number[],
): Promise<{ live_id: number | null; raw: unknown }[]> {
  if (callIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom(table)
    .select(['live_id', 'raw'])
    .where('account', '=', account)
    .where('live_id', 'in', [...callIds])
    .orderBy('id')
    .execute();
}

/** The e-mail of each of these platform users that the warehouse knows. */
export async function userEmailsOf(
  db: Kysely<Database>,
  account: string,
  userIds: readonly number[],
): Promise<Map<number, string>> {
  if (userIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('users')
    .select(['id', 'email'])
    .where('account', '=', account)
    .where('id', 'in', [...userIds])
    .execute();
  return new Map(rows.filter((r) => r.email).map((r) => [Number(r.id), r.email!]));
}

/** The import's checkpoint, if one was started. */
export function getCrmImportCheckpoint(
  db: Kysely<Database>,
  scope: CrmImportScope,
): Promise<CrmImportCheckpointRow | undefined> {
  return db
    .selectFrom('crm_import_checkpoints')
    .selectAll()
    .where('account', '=', scope.account)
    .where('destination', '=', scope.destination)
    .executeTakeFirst();
}

/** Starts an import of [since, until) from its beginning (replacing a finished one's checkpoint). */
export async function startCrmImportCheckpoint(
  db: Kysely<Database>,
  scope: CrmImportScope,
  window: { since: Date; until: Date; total: number },
): Promise<void> {
  const values = {
    since: window.since,
    until: window.until,
    total: window.total,
    last_call_id: null,
    done: 0,
    created: 0,
    started_at: sql<Date>`now()`,
    updated_at: sql<Date>`now()`,
    finished_at: null,
  };
  await db
    .insertInto('crm_import_checkpoints')
    .values({ ...scope, ...values })
    .onConflict((oc) => oc.columns(['account', 'destination']).doUpdateSet(values))
    .execute();
}

/** Records a written page: the last call done and the counts. */
export async function advanceCrmImportCheckpoint(
  db: Kysely<Database>,
  scope: CrmImportScope,
  page: { lastCallId: number; done: number; created: number },
): Promise<void> {
  await db
    .updateTable('crm_import_checkpoints')
    .set((eb) => ({
      last_call_id: page.lastCallId,
      done: eb('done', '+', page.done),
      created: eb('created', '+', page.created),
      updated_at: sql<Date>`now()`,
    }))
    .where('account', '=', scope.account)
    .where('destination', '=', scope.destination)
    .execute();
}

/** Marks the import finished. */
export async function finishCrmImportCheckpoint(db: Kysely<Database>, scope: CrmImportScope): Promise<void> {
  await db
    .updateTable('crm_import_checkpoints')
    .set({ finished_at: sql<Date>`now()`, updated_at: sql<Date>`now()` } as never)
    .where('account', '=', scope.account)
    .where('destination', '=', scope.destination)
    .execute();
}

/** The timelines of these calls (each as callTimeline orders it), by call id. */
export async function callTimelinesOf(
  db: Kysely<Database>,
  account: string,
  callIds: readonly number[],
): Promise<Map<number, CallEventRow[]>> {
  const byCall = new Map<number, CallEventRow[]>();
  if (callIds.length === 0) return byCall;
  const rows = await db
    .selectFrom('call_events')
    .selectAll()
    .where('account', '=', account)
    .where('call_id', 'in', [...callIds])
    .orderBy('event_time')
    .orderBy('event_id')
    .execute();
  for (const r of rows) byCall.set(Number(r.call_id), [...(byCall.get(Number(r.call_id)) ?? []), r]);
  return byCall;
}

/** The keys pressed during each of these calls (as callDtmfDigits gives them), by call id. */
export async function callDtmfDigitsOf(
  db: Kysely<Database>,
  account: string,
  callIds: readonly number[],
): Promise<Map<number, string[]>> {
  const byCall = new Map<number, string[]>();
  if (callIds.length === 0) return byCall;
  const digits = sql<string>`detail->>'digits'`;
  const rows = await db
    .selectFrom('call_events')
    .select(['call_id', digits.as('digits')])
    .where('account', '=', account)
    .where('call_id', 'in', [...callIds])
    .where(digits, 'is not', null)
    .orderBy('event_time')
    .orderBy('recorded_at')
    .orderBy('event_id')
    .execute();
  for (const r of rows) byCall.set(Number(r.call_id), [...(byCall.get(Number(r.call_id)) ?? []), r.digits]);
  return byCall;
}
