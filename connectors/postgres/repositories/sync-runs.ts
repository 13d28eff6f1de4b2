// Sync runs: one row per execution of a stream sync, for status pages and lag.
import { sql, type Kysely } from 'kysely';
import type { Database, SyncRunRow } from '../tables';

export type SyncRunKind = 'incremental' | 'backfill' | (string & Record<never, never>);
export type SyncRunStatus = 'running' | 'succeeded' | 'failed' | 'cancelled';

export interface SyncRunStart {
  account: string;
  stream: string;
  kind: SyncRunKind;
  /** The Temporal workflow id; a retried start with the same id returns the open run. */
  workflowId?: string | null;
}

export interface SyncRunOutcome {
  status: Exclude<SyncRunStatus, 'running'>;
  records: number;
  errors: number;
  /** A short description of the failure (no secrets). */
  error?: string | null;
  /** How far the data was behind at the end, in seconds (history streams' incremental runs). */
  dataLagSeconds?: number | null;
}

/** Opens a run and returns its id; idempotent per open (account, stream, kind, workflowId). */
export async function startSyncRun(db: Kysely<Database>, run: SyncRunStart): Promise<number> {
  const row = await db
    .insertInto('sync_runs')
    .values({ account: run.account, stream: run.stream, kind: run.kind, workflow_id: run.workflowId ?? null })
    .onConflict((oc) =>
      oc
        .columns(['account', 'stream', 'kind', 'workflow_id'])
        .where(sql<boolean>`finished_at is null and workflow_id is not null`)
        .doUpdateSet((eb) => ({ workflow_id: eb.ref('excluded.workflow_id') })),
    )
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** Records a running sync's totals so far (absolute numbers, so a retry writes the same). */
export async function recordSyncRunProgress(
  db: Kysely<Database>,
  id: number,
  totals: { records: number; errors: number },
): Promise<void> {
  await db
    .updateTable('sync_runs')
    .set({ records: totals.records, errors: totals.errors })
    .where('id', '=', id)
    .where('finished_at', 'is', null)
    .execute();
}

/** Closes a run; finishing it again keeps the first end time. True when the run exists. */
export async function finishSyncRun(
  db: Kysely<Database>,
  id: number,
  outcome: SyncRunOutcome,
): Promise<boolean> {
  const result = await db
    .updateTable('sync_runs')
    .set({
      finished_at: sql<Date>`coalesce(finished_at, now())`,
      status: outcome.status,
      records: outcome.records,
      errors: outcome.errors,
      error: outcome.error ?? null,
      ...(outcome.dataLagSeconds !== undefined ? { data_lag_seconds: outcome.dataLagSeconds } : {}),
    })
    .where('id', '=', id)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** The latest run of each (account, stream), optionally of one account. */
export async function latestSyncRuns(db: Kysely<Database>, account?: string): Promise<SyncRunRow[]> {
  let query = db
    .selectFrom('sync_runs')
    .selectAll()
    .distinctOn(['account', 'stream'])
    .orderBy('account')
    .orderBy('stream')
    .orderBy('started_at', 'desc')
    .orderBy('id', 'desc');
  if (account !== undefined) query = query.where('account', '=', account);
  return query.execute();
}

/** One run by id. */
export async function getSyncRun(db: Kysely<Database>, id: number): Promise<SyncRunRow | undefined> {
  return db.selectFrom('sync_runs').selectAll().where('id', '=', id).executeTakeFirst();
}
