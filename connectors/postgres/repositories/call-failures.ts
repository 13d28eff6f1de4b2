// Call follow-ups that gave up, written by their workflows (through an activity) and read by status,
// the call page and the retry (activities/call-failure-retry.ts).
import { sql, type Kysely } from 'kysely';
import type { CallFailureRow, Database, NewCallFailureRow, RetryOutcome } from '../tables';

/** The workflow type of a call's follow-up (a callback's failures are `callback`). */
export const CALL_LIFECYCLE_TYPE = 'callLifecycle';

/**
 * Records a workflow run's failure; a retried write of the same run changes nothing. A run that was
 * itself a retry (`retry_of`) also closes the row it retried as failed, in the same transaction.
 */
export async function recordCallFailure(db: Kysely<Database>, row: NewCallFailureRow): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx
      .insertInto('call_failures')
      .values(row)
      .onConflict((oc) => oc.columns(['workflow_id', 'run_id']).doNothing())
      .execute();
    if (row.retry_of !== undefined && row.retry_of !== null)
      await finishCallFailureRetry(trx, { id: String(row.retry_of), outcome: 'failed', runId: row.run_id });
  });
}

/** The most recent failures, newest first. */
export async function recentCallFailures(db: Kysely<Database>, limit = 20): Promise<CallFailureRow[]> {
  return db
    .selectFrom('call_failures')
    .selectAll()
    .orderBy('failed_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}

/** A call's latest follow-up failure (its retry state with it), or undefined when it never failed. */
export async function latestCallFailure(
  db: Kysely<Database>,
  account: string,
  callId: number,
): Promise<CallFailureRow | undefined> {
  return db
    .selectFrom('call_failures')
    .selectAll()
    .where('account', '=', account)
    .where('workflow_type', '=', CALL_LIFECYCLE_TYPE)
    .where('subject', '=', String(callId))
    .orderBy('failed_at', 'desc')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
}

/** Each call's latest follow-up failure in `accounts` (failed since `since`, when given). */
function latestPerCall(db: Kysely<Database>, accounts: readonly string[], since?: Date) {
  return db
    .selectFrom('call_failures')
    .selectAll()
    .distinctOn(['account', 'subject'])
    .where('workflow_type', '=', CALL_LIFECYCLE_TYPE)
    .where('account', 'in', accounts)
    .$if(since !== undefined, (q) => q.where('failed_at', '>=', since!))
    .orderBy('account')
    .orderBy('subject')
    .orderBy('failed_at', 'desc')
    .orderBy('id', 'desc');
}

/**
 * Calls whose follow-up failed and was never retried (each call's latest failure), oldest first:
 * what `callsync retry --all-failed` retries.
 */
export async function unretriedCallFailures(
  db: Kysely<Database>,
  opts: { accounts: readonly string[]; since?: Date | undefined; limit?: number },
): Promise<CallFailureRow[]> {
  if (opts.accounts.length === 0) return [];
  const latest = latestPerCall(db, opts.accounts, opts.since).as('latest');
  return db
    .selectFrom(latest)
    .selectAll()
    .where('retry_requested_at', 'is', null)
    .orderBy('failed_at')
    .orderBy('id')
    .limit(opts.limit ?? 1000)
    .execute();
}

/**
 * Claims the retry of failure `id` for `by` (who and when are kept): returns false, changing
 * nothing, when it was already claimed, so two requests never both start a retry. A claim whose
 * starter died before naming the run may be taken again after `staleMs`.
 */
export async function claimCallFailureRetry(
  db: Kysely<Database>,
  req: { id: string; by: string; staleMs: number },
): Promise<boolean> {
  const updated = await db
    .updateTable('call_failures')
    .set({ retry_requested_at: sql<Date>`now()`, retry_requested_by: req.by })
    .where('id', '=', req.id)
    .where('retry_outcome', 'is', null)
    .where((eb) =>
      eb.or([
        eb('retry_requested_at', 'is', null),
        eb.and([
          eb('retry_run_id', 'is', null),
          eb('retry_requested_at', '<', sql<Date>`now() - make_interval(secs => ${req.staleMs / 1000})`),
        ]),
      ]),
    )
    .executeTakeFirst();
  return Number(updated.numUpdatedRows) > 0;
}

/** Names the run that retries failure `id` (the first name given stays). */
export async function setCallFailureRetryRun(
  db: Kysely<Database>,
  req: { id: string; runId: string },
): Promise<void> {
  await db
    .updateTable('call_failures')
    .set({ retry_run_id: sql<string>`coalesce(retry_run_id, ${req.runId})` })
    .where('id', '=', req.id)
    .execute();
}

/** Gives a claim back when its run could not be started, so the retry can be asked for again. */
export async function releaseCallFailureRetry(db: Kysely<Database>, id: string): Promise<void> {
  await db
    .updateTable('call_failures')
    .set({ retry_requested_at: null, retry_requested_by: null })
    .where('id', '=', id)
    .where('retry_run_id', 'is', null)
    .where('retry_outcome', 'is', null)
    .execute();
}

/**
 * How the retry of failure `id` ended, written by the retrying run itself (so it holds whether or
 * not anyone waits for it). Written once; the run id is filled in when the request's note has not
 * been (a run that ends before its starter wrote it down).
 */
export async function finishCallFailureRetry(
  db: Kysely<Database>,
  end: { id: string; outcome: RetryOutcome; runId: string },
): Promise<void> {
  await db
    .updateTable('call_failures')
    .set({
      retry_outcome: end.outcome,
      retry_finished_at: sql<Date>`now()`,
      retry_run_id: sql<string>`coalesce(retry_run_id, ${end.runId})`,
    })
    .where('id', '=', end.id)
    .where('retry_outcome', 'is', null)
    .execute();
}

/** One failure by its id. */
export async function callFailureById(db: Kysely<Database>, id: string): Promise<CallFailureRow | undefined> {
  return db.selectFrom('call_failures').selectAll().where('id', '=', id).executeTakeFirst();
}

/** A call's latest failure, with the CDR its dashboard page is keyed by (null while not synced). */
export type CallFailureListRow = CallFailureRow & { cdr_id: string | null };

/** Each call's latest follow-up failure, newest first (the dashboard's failures list). */
export async function latestCallFailures(
  db: Kysely<Database>,
  opts: { accounts: readonly string[]; limit: number },
): Promise<CallFailureListRow[]> {
  if (opts.accounts.length === 0) return [];
  const latest = latestPerCall(db, opts.accounts).as('f');
  return db
    .selectFrom(latest)
    .selectAll('f')
    .select(
      sql<string | null>`(select c.id::text from cdrs c where c.account = f.account
        and c.live_id = f.subject::bigint order by coalesce(c.is_root, true) desc, c.id limit 1)`.as(
        'cdr_id',
      ),
    )
    .orderBy('f.failed_at', 'desc')
    .orderBy('f.id', 'desc')
    .limit(opts.limit)
    .execute();
}
