// Quarantined records: records that could not be understood or stored, kept with the reason and
// the raw record, so the sync goes on and the record can be retried later.
import { sql, type Kysely } from 'kysely';
import { toJsonText } from '../json-text';
import type { Database } from '../tables';

export interface QuarantineEntry {
  account: string;
  stream: string;
  /** The record's id as text; for a record without a usable id, any stable key (e.g. a hash). */
  recordId: string;
  reason: string;
  /** The record as received. */
  raw: unknown;
}

export interface QuarantineFilter {
  account?: string;
  stream?: string;
  /** Include entries already resolved (default false). */
  includeResolved?: boolean;
}

// PostgreSQL text cannot hold NUL; a reason quoting a bad value must not fail the insert.
const clean = (s: string): string => s.replace(/\0/g, '');

/**
 * The upsert that quarantines records: idempotent on (account, stream, record_id); a record seen
 * again gets the latest reason and raw record and is open again. Duplicates in `entries` keep the last.
 */
export function addQuarantinedQuery(db: Kysely<Database>, entries: readonly QuarantineEntry[]) {
  const byKey = new Map<string, QuarantineEntry>();
  for (const e of entries) byKey.set(JSON.stringify([e.account, e.stream, e.recordId]), e);
  const values = [...byKey.values()].map((e) => ({
    account: e.account,
    stream: e.stream,
    record_id: clean(e.recordId),
    reason: clean(e.reason),
    raw: toJsonText(e.raw) ?? null,
  }));
  return db
    .insertInto('quarantined_records')
    .values(values)
    .onConflict((oc) =>
      oc.columns(['account', 'stream', 'record_id']).doUpdateSet((eb) => ({
        reason: eb.ref('excluded.reason'),
        raw: eb.ref('excluded.raw'),
        last_seen_at: sql<Date>`now()`,
        resolved_at: null,
      })),
    );
}

/** Quarantines one or more records. */
export async function addQuarantined(
  db: Kysely<Database>,
  entries: QuarantineEntry | readonly QuarantineEntry[],
): Promise<void> {
  const list = Array.isArray(entries)
    ? (entries as readonly QuarantineEntry[])
    : [entries as QuarantineEntry];
  if (list.length > 0) await addQuarantinedQuery(db, list).execute();
}

function filtered(db: Kysely<Database>, filter: QuarantineFilter) {
  let query = db.selectFrom('quarantined_records');
  if (filter.account !== undefined) query = query.where('account', '=', filter.account);
  if (filter.stream !== undefined) query = query.where('stream', '=', filter.stream);
  if (!filter.includeResolved) query = query.where('resolved_at', 'is', null);
  return query;
}

/** Quarantined records, most recently seen first. */
export async function listQuarantined(
  db: Kysely<Database>,
  filter: QuarantineFilter & { limit?: number; offset?: number } = {},
) {
  return filtered(db, filter)
    .selectAll()
    .orderBy('last_seen_at', 'desc')
    .orderBy('record_id')
    .limit(filter.limit ?? 100)
    .offset(filter.offset ?? 0)
    .execute();
}

/** How many records are quarantined (open ones unless includeResolved). */
export async function countQuarantined(db: Kysely<Database>, filter: QuarantineFilter = {}): Promise<number> {
  const row = await filtered(db, filter)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Marks a quarantined record resolved (retried successfully or dismissed); true when it was open. */
export async function resolveQuarantined(
  db: Kysely<Database>,
  key: { account: string; stream: string; recordId: string },
): Promise<boolean> {
  const result = await db
    .updateTable('quarantined_records')
    .set({ resolved_at: sql<Date>`now()` })
    .where('account', '=', key.account)
    .where('stream', '=', key.stream)
    .where('record_id', '=', key.recordId)
    .where('resolved_at', 'is', null)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Open quarantined records of an account's stream: the given ids, or (with `after`) the next in id order. */
export async function openQuarantinedBatch(
  db: Kysely<Database>,
  key: { account: string; stream: string },
  select: { recordIds: readonly string[] } | { after: string | null; limit: number },
) {
  let query = db
    .selectFrom('quarantined_records')
    .select(['record_id', 'raw'])
    .where('account', '=', key.account)
    .where('stream', '=', key.stream)
    .where('resolved_at', 'is', null)
    .orderBy('record_id');
  if ('recordIds' in select) {
    if (select.recordIds.length === 0) return [];
    query = query.where('record_id', 'in', [...select.recordIds]);
  } else {
    if (select.after !== null) query = query.where('record_id', '>', select.after);
    query = query.limit(select.limit);
  }
  return query.execute();
}

/** Notes a retry's outcome on a quarantined record (resolving it when the record was stored). */
export async function markQuarantineRetried(
  db: Kysely<Database>,
  key: { account: string; stream: string; recordId: string },
  outcome: string,
  resolved: boolean,
): Promise<void> {
  await db
    .updateTable('quarantined_records')
    .set({
      last_retry_at: sql<Date>`now()`,
      last_retry_outcome: outcome,
      ...(resolved ? { resolved_at: sql<Date>`coalesce(resolved_at, now())` } : {}),
    })
    .where('account', '=', key.account)
    .where('stream', '=', key.stream)
    .where('record_id', '=', key.recordId)
    .execute();
}
