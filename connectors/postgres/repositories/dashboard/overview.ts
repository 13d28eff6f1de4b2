// The dashboard's overview: per stream its last runs and quarantine, and the day's call follow-ups.
// Every query reads an index range (no count over a stream's table: those hold years of calls).
import { sql, type Kysely } from 'kysely';
import type { Database } from '../../tables';
import { mainCheckpoints, openQuarantineCounts } from '../stream-status';

export interface DashboardStreamRow {
  account: string;
  stream: string;
  /** The stream's main checkpoint cursor (its newest record is the data lag). */
  cursor: string | null;
  lastRun: {
    status: string;
    startedAt: Date;
    finishedAt: Date | null;
    records: number;
    error: string | null;
  } | null;
  lastSuccess: Date | null;
  /** Records per second of the last successful run that read any. */
  recordsPerSecond: number | null;
  quarantined: number;
}

/** One row per (account, stream) asked for. */
export async function dashboardStreams(
  db: Kysely<Database>,
  accounts: readonly string[],
  streams: readonly string[],
): Promise<DashboardStreamRow[]> {
  if (accounts.length === 0 || streams.length === 0) return [];
  // One index probe per (account, stream): the newest run of each kind of interest.
  const pairs = sql.join(accounts.flatMap((a) => streams.map((s) => sql`(${a}::text, ${s}::text)`)));
  const runs = await sql<{
    account: string;
    stream: string;
    status: string | null;
    started_at: Date | null;
    finished_at: Date | null;
    records: string | null;
    error: string | null;
    last_success: Date | null;
    rate: number | null;
  }>`
    select p.account, p.stream, l.status, l.started_at, l.finished_at, l.records, l.error,
           s.finished_at as last_success, r.rate
    from (values ${pairs}) as p(account, stream)
    left join lateral (
      select status, started_at, finished_at, records, error from sync_runs
      where account = p.account and stream = p.stream
      order by started_at desc limit 1) l on true
    left join lateral (
      select finished_at from sync_runs
      where account = p.account and stream = p.stream and status = 'succeeded' and kind = 'incremental'
      order by started_at desc limit 1) s on true
    left join lateral (
      select records / greatest(extract(epoch from finished_at - started_at), 0.001) as rate from sync_runs
      where account = p.account and stream = p.stream and status = 'succeeded' and records > 0
      order by started_at desc limit 1) r on true`.execute(db);
  const [quarantined, checkpoints] = await Promise.all([
    openQuarantineCounts(db, accounts),
    mainCheckpoints(db, accounts),
  ]);
  const k = (a: string, s: string) => `${a}\u0000${s}`;
  const q = new Map(quarantined.map((r) => [k(r.account, r.stream), r.n]));
  const c = new Map(checkpoints.map((r) => [k(r.account, r.stream), r.cursor]));
  return runs.rows.map((r) => ({
    account: r.account,
    stream: r.stream,
    cursor: c.get(k(r.account, r.stream)) ?? null,
    lastRun: r.started_at
      ? {
          status: r.status ?? 'running',
          startedAt: r.started_at,
          finishedAt: r.finished_at,
          records: Number(r.records ?? 0),
          error: r.error,
        }
      : null,
    lastSuccess: r.last_success,
    recordsPerSecond: r.rate === null ? null : Number(r.rate),
    quarantined: q.get(k(r.account, r.stream)) ?? 0,
  }));
}

export interface DayFollowUps {
  /** Call logs written to the CRM since `since`. */
  logged: number;
  /** Call follow-ups that gave up since `since` (call_failures of callLifecycle). */
  failed: number;
  /** Callback follow-ups that gave up since `since`. */
  callbackFailures: number;
  /** Callback tasks created since `since`. */
  callbackTasks: number;
}

/**
 * The day's call logs, tasks and failures (since the start of the day). Call logs and tasks are
 * counted in each account's configured destination (`destinations`: account → destinationIdOf), the
 * CRM its agents see: a call logged again after a move to another portal counts once.
 */
export async function dayFollowUps(
  db: Kysely<Database>,
  accounts: readonly string[],
  since: Date,
  destinations: Readonly<Record<string, string>>,
): Promise<DayFollowUps> {
  if (accounts.length === 0) return { logged: 0, failed: 0, callbackFailures: 0, callbackTasks: 0 };
  const [objects, failures] = await Promise.all([
    db
      .selectFrom('crm_objects')
      .select([
        sql<number>`count(*) filter (where kind = 'call_log')::int`.as('logged'),
        sql<number>`count(*) filter (where kind = 'task')::int`.as('tasks'),
      ])
      .where((eb) =>
        eb.or(
          accounts.map((a) => eb.and([eb('account', '=', a), eb('destination', '=', destinations[a] ?? '')])),
        ),
      )
      .where('kind', 'in', ['call_log', 'task'])
      .where('created_at', '>=', since)
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('call_failures')
      .select([
        sql<number>`count(*) filter (where workflow_type = 'callLifecycle')::int`.as('calls'),
        sql<number>`count(*) filter (where workflow_type = 'callback')::int`.as('callbacks'),
      ])
      .where('failed_at', '>=', since)
      .where('account', 'in', accounts)
      .executeTakeFirstOrThrow(),
  ]);
  return {
    logged: objects.logged,
    failed: failures.calls,
    callbackFailures: failures.callbacks,
    callbackTasks: objects.tasks,
  };
}

/** Report runs since `since` by status, and the latest few. */
export async function dayReportRuns(db: Kysely<Database>, accounts: readonly string[], since: Date) {
  if (accounts.length === 0) return { byStatus: [], latest: [] };
  const [byStatus, latest] = await Promise.all([
    db
      .selectFrom('report_runs')
      .select(['status', sql<number>`count(*)::int`.as('n')])
      .where('account', 'in', accounts)
      .where('created_at', '>=', since)
      .groupBy('status')
      .execute(),
    db
      .selectFrom('report_runs')
      .select(['account', 'schedule_id', 'period_label', 'status', 'created_at', 'finished_at', 'error'])
      .where('account', 'in', accounts)
      .orderBy('created_at', 'desc')
      .limit(5)
      .execute(),
  ]);
  return { byStatus, latest };
}
