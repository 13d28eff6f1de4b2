// The webhook inbox and the refused deliveries: the receiver's group-committed insert, the relay's
// claim and outcomes, and their retention. The hot statements are plain prepared SQL on a pg pool or
// client (kysely's compiler costs more than the statement at thousands of deliveries a second).
import type { Kysely } from 'kysely';
import type pg from 'pg';
import type { Database } from '../tables';

/** A pool, or a client inside a transaction. */
export type Queryable = Pick<pg.Pool | pg.PoolClient, 'query'>;

/** One delivery to store. */
export interface InboxEntry {
  account: string;
  eventId: string;
  eventName: string;
  callId: number | null;
  /** The JSON body as received (valid JSON: the receiver parsed it). */
  body: string;
  /** About an erased person: stored anonymised and already done, so the relay never sends it. */
  suppressed?: boolean;
}

/** An inbox row the relay claimed (body as JSON text, so its size is known). */
export interface InboxClaim {
  id: string;
  account: string;
  event_id: string;
  event_name: string;
  call_id: number | null;
  attempts: number;
  body: string;
}

// The bodies travel as one JSON array ($5) rather than a text[]: they are JSON texts already, so
// joining them costs nothing, where a text[] parameter escapes every quote of every body. ROWS FROM
// zips the arrays element by element.
// The suppression guard ($7, the newest erasure_suppressions id the writer has read; null for none):
// rows are inserted only when no suppression newer than that exists, checked in the same statement
// (one snapshot), so a delivery about a person erased since is never stored as it came. One round
// trip per commit; the rare stale answer makes the writer read the new suppressions and try again.
const INSERT_SQL = `
  WITH guard AS (SELECT coalesce(max(id), 0) AS newest FROM erasure_suppressions),
  ins AS (
    INSERT INTO webhook_inbox (account, event_id, event_name, call_id, body, status, done_at, last_error)
    SELECT a, e, n, c, b,
           CASE WHEN s THEN 'done' ELSE 'pending' END,
           CASE WHEN s THEN now() END,
           CASE WHEN s THEN 'suppressed: erased person (docs/privacy.md "Erasure")' END
      FROM ROWS FROM (
        unnest($1::text[]), unnest($2::text[]), unnest($3::text[]), unnest($4::bigint[]),
        jsonb_array_elements($5::jsonb), unnest($6::boolean[])
      ) AS t(a, e, n, c, b, s)
     WHERE $7::bigint IS NULL OR (SELECT newest FROM guard) <= $7::bigint
    ON CONFLICT (account, event_id) DO NOTHING
    RETURNING account, event_id
  )
  SELECT (SELECT newest FROM guard)::text AS newest, ins.account, ins.event_id
    FROM (SELECT 1) AS one LEFT JOIN ins ON true`;

const CLAIM_SQL = `
  SELECT id::text AS id, account, event_id, event_name, call_id, attempts, body::text AS body
    FROM webhook_inbox
   WHERE status = 'pending' AND next_attempt_at <= now()
   ORDER BY webhook_inbox.id
   LIMIT $1
   FOR UPDATE SKIP LOCKED`;

const DONE_SQL = `
  UPDATE webhook_inbox SET status = 'done', done_at = now(), last_error = NULL
   WHERE id = ANY($1::bigint[])`;

const RETRY_SQL = `
  UPDATE webhook_inbox AS w
     SET attempts = w.attempts + 1,
         last_error = f.error,
         next_attempt_at = now() + make_interval(secs => f.delay_ms / 1000.0)
    FROM unnest($1::bigint[], $2::text[], $3::double precision[]) AS f(id, error, delay_ms)
   WHERE w.id = f.id`;

const FAILED_SQL = `
  UPDATE webhook_inbox AS w
     SET status = 'failed', attempts = w.attempts + 1, last_error = f.error
    FROM unnest($1::bigint[], $2::text[]) AS f(id, error)
   WHERE w.id = f.id`;

// A call's events not on its timeline, relayed or still pending (the relay marks a row done after its
// signal went, so a signal can be in a workflow while its row is pending); not those that can never be
// relayed (failed), nor an erased person's (done with the suppression as their error).
const UNTAKEN_CALL_SQL = `
  SELECT w.body::text AS body
    FROM webhook_inbox AS w
   WHERE w.account = $1 AND w.call_id = $2
     AND (w.status = 'pending' OR (w.status = 'done' AND w.last_error IS NULL))
     AND NOT (w.event_id = ANY($4::text[]))
   ORDER BY w.id
   LIMIT $3`;

/** The key of an inbox row in insertInboxRows' answer. */
export const inboxKey = (account: string, eventId: string): string => `${account}\u0000${eventId}`;

/**
 * Stores deliveries in one statement (one commit); an event already stored is left as it was.
 * Returns the keys (inboxKey) of the rows this statement inserted.
 */
/** What a guarded insert did: the keys of the rows it stored, or nothing because suppressions are newer. */
export type InboxInsert = { stale: false; inserted: Set<string> } | { stale: true; newest: string };

/**
 * Inserts deliveries (a redelivered event is skipped), unless a suppression newer than
 * `knownSuppression` exists (then nothing is stored: `stale`). `knownSuppression` null skips the guard.
 */
export async function insertInboxRows(
  q: Queryable,
  entries: readonly InboxEntry[],
  knownSuppression: string | null = null,
): Promise<InboxInsert> {
  const n = entries.length;
  const accounts = new Array<string>(n);
  const ids = new Array<string>(n);
  const names = new Array<string>(n);
  const calls = new Array<number | null>(n);
  const bodies = new Array<string>(n);
  const suppressed = new Array<boolean>(n);
  for (let i = 0; i < n; i++) {
    const e = entries[i] as InboxEntry;
    accounts[i] = e.account;
    ids[i] = e.eventId;
    names[i] = e.eventName;
    calls[i] = e.callId;
    bodies[i] = e.body;
    suppressed[i] = e.suppressed === true;
  }
  const res = await q.query<{ newest: string; account: string | null; event_id: string | null }>({
    name: 'webhook_inbox_insert',
    text: INSERT_SQL,
    values: [accounts, ids, names, calls, `[${bodies.join(',')}]`, suppressed, knownSuppression],
  });
  const newest = res.rows[0]?.newest ?? '0';
  if (knownSuppression !== null && BigInt(newest) > BigInt(knownSuppression)) return { stale: true, newest };
  const inserted = new Set<string>();
  for (const row of res.rows) if (row.account !== null) inserted.add(inboxKey(row.account, row.event_id!));
  return { stale: false, inserted };
}

/** Claims up to `limit` due pending rows in id order (inside the caller's transaction). */
export async function claimInboxRows(client: Queryable, limit: number): Promise<InboxClaim[]> {
  const { rows } = await client.query<InboxClaim>({
    name: 'webhook_inbox_claim',
    text: CLAIM_SQL,
    values: [limit],
  });
  return rows;
}

/** Marks rows relayed (or needing nothing). */
export async function markInboxDone(client: Queryable, ids: readonly string[]): Promise<void> {
  if (ids.length === 0) return;
  await client.query({ name: 'webhook_inbox_done', text: DONE_SQL, values: [ids] });
}

/** Leaves rows pending with their error, one more attempt, and a delay before the next. */
export async function scheduleInboxRetries(
  client: Queryable,
  retries: ReadonlyArray<{ id: string; error: string; delayMs: number }>,
): Promise<void> {
  if (retries.length === 0) return;
  await client.query(RETRY_SQL, [
    retries.map((r) => r.id),
    retries.map((r) => r.error),
    retries.map((r) => r.delayMs),
  ]);
}

/** Marks rows that can never be relayed, with why. */
export async function markInboxFailed(
  client: Queryable,
  failed: ReadonlyArray<{ id: string; error: string }>,
): Promise<void> {
  if (failed.length === 0) return;
  await client.query(FAILED_SQL, [failed.map((f) => f.id), failed.map((f) => f.error)]);
}

/** A refused delivery as it is kept (headers already redacted). */
export interface RejectedRow {
  account: string;
  reason: string;
  body: string;
  headers: Record<string, string | string[]>;
}

/** Longest body and reason kept of a refused delivery (a poison body can be large). */
export const REJECTED_BODY_MAX_CHARS = 64 * 1024;
const REJECTED_REASON_MAX_CHARS = 2_000;

function cut(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}… [truncated, ${text.length} characters]`;
}

/** Keeps a refused delivery, truncated where it is long; text cannot hold NUL, so it is spelled out. */
export async function insertRejected(db: Kysely<Database>, row: RejectedRow): Promise<void> {
  const clean = (s: string): string => s.replaceAll('\u0000', '\\u0000');
  const headers: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(row.headers)) {
    headers[clean(name)] = Array.isArray(value)
      ? value.map((v) => cut(clean(v), REJECTED_REASON_MAX_CHARS))
      : cut(clean(value), REJECTED_REASON_MAX_CHARS);
  }
  await db
    .insertInto('webhook_rejected')
    .values({
      account: cut(clean(row.account), 200),
      reason: cut(clean(row.reason), REJECTED_REASON_MAX_CHARS),
      body: cut(clean(row.body), REJECTED_BODY_MAX_CHARS),
      headers: JSON.stringify(headers),
    })
    .execute();
}

/** What a retention pass deleted. */
export interface WebhookPurgeResult {
  inbox: number;
  rejected: number;
}

/**
 * Deletes done inbox rows relayed before `doneBefore` and refused deliveries received before
 * `rejectedBefore`, at most `batch` of each (call again until less than `batch` come back). Pending
 * and failed rows are never deleted: they still need the relay or a person.
 */
export async function purgeWebhooks(
  db: Kysely<Database>,
  opts: { doneBefore: Date; rejectedBefore: Date; batch: number },
): Promise<WebhookPurgeResult> {
  const inbox = await db
    .deleteFrom('webhook_inbox')
    .where(
      'id',
      'in',
      db
        .selectFrom('webhook_inbox')
        .select('id')
        .where('status', '=', 'done')
        .where('done_at', '<', opts.doneBefore)
        .limit(opts.batch),
    )
    .executeTakeFirst();
  const rejected = await db
    .deleteFrom('webhook_rejected')
    .where(
      'id',
      'in',
      db
        .selectFrom('webhook_rejected')
        .select('id')
        .where('received_at', '<', opts.rejectedBefore)
        .limit(opts.batch),
    )
    .executeTakeFirst();
  return { inbox: Number(inbox.numDeletedRows), rejected: Number(rejected.numDeletedRows) };
}

/** Rows waiting for the relay and the age of the oldest, in seconds (0 when none waits); for metrics. */
export async function inboxBacklog(q: Queryable): Promise<{ pending: number; oldestAgeSeconds: number }> {
  // Reads the partial index of pending rows; the relay keeps it short.
  const { rows } = await q.query<{ pending: number; age: number | null }>(
    `SELECT count(*)::int AS pending, extract(epoch FROM now() - min(received_at))::float8 AS age
       FROM webhook_inbox WHERE status = 'pending'`,
  );
  return { pending: rows[0]?.pending ?? 0, oldestAgeSeconds: Math.max(0, rows[0]?.age ?? 0) };
}

/**
 * The stored bodies (JSON text, in arrival order, at most `limit`) of a call's events, relayed or
 * pending, other than those `taken` (the event ids its workflow has): what it was sent but never took
 * in. Not "not on its timeline": a workflow task that the server refused (a hand-over racing a
 * signal) may have saved events to the timeline that the run it handed over to never got.
 */
export async function relayedUntakenCallEvents(
  q: Queryable,
  account: string,
  callId: number,
  taken: readonly string[],
  limit: number,
): Promise<string[]> {
  const { rows } = await q.query<{ body: string }>({
    name: 'webhook_inbox_untaken_call',
    text: UNTAKEN_CALL_SQL,
    values: [account, callId, limit, taken],
  });
  return rows.map((r) => r.body);
}

/** Which of `callIds` the receiver stored events for (their lifecycles were started by webhooks). */
export async function callIdsWithInboxEvents(
  q: Queryable,
  account: string,
  callIds: readonly number[],
): Promise<number[]> {
  if (callIds.length === 0) return [];
  const { rows } = await q.query<{ call_id: string }>({
    name: 'webhook_inbox_announced_calls',
    text: `SELECT DISTINCT call_id FROM webhook_inbox WHERE account = $1 AND call_id = ANY($2::bigint[])`,
    values: [account, callIds],
  });
  return rows.map((r) => Number(r.call_id));
}
