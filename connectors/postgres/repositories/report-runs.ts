// Report runs (report_runs) and the report schedules they follow (report_schedules, synced from the
// platform): the exactly-once bookkeeping of report exports.
import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database, ReportRunRow, ReportRunStatus } from '../tables';

/** What a run is opened with: the schedule, its fixed period and the workflow opening it. */
export interface OpenReportRun {
  account: string;
  scheduleId: number;
  reportId: number | null;
  periodFrom: Date;
  periodTo: Date;
  periodLabel: string;
  timezone: string;
  format: string | null;
  workflowId: string;
  /** Run again even when the period already succeeded. */
  force: boolean;
}

/** The run, and whether this workflow should build it (false: it already succeeded and no force). */
export interface OpenedReportRun {
  run: ReportRunRow;
  proceed: boolean;
}

/**
 * Opens the run of a schedule and period, or finds it: keyed on (account, schedule_id, period_label),
 * so a retried or repeated run finds the run it repeats. A run that already succeeded is left alone
 * unless `force`; any other one is taken over by this workflow (queued again). The same workflow
 * opening it again (an activity retry) changes nothing.
 */
export async function openReportRun(db: Kysely<Database>, o: OpenReportRun): Promise<OpenedReportRun> {
  return db.transaction().execute(async (trx) => {
    const inserted = await trx
      .insertInto('report_runs')
      .values({
        account: o.account,
        schedule_id: o.scheduleId,
        report_id: o.reportId,
        period_from: o.periodFrom,
        period_to: o.periodTo,
        period_label: o.periodLabel,
        timezone: o.timezone,
        format: o.format,
        workflow_id: o.workflowId,
        attempts: 1,
        started_at: sql<Date>`now()`,
      })
      .onConflict((oc) => oc.columns(['account', 'schedule_id', 'period_label']).doNothing())
      .returningAll()
      .executeTakeFirst();
    if (inserted) return { run: inserted, proceed: true };
    const existing = await trx
      .selectFrom('report_runs')
      .selectAll()
      .where('account', '=', o.account)
      .where('schedule_id', '=', o.scheduleId)
      .where('period_label', '=', o.periodLabel)
      .forUpdate()
      .executeTakeFirstOrThrow();
    if (existing.workflow_id === o.workflowId && existing.status !== 'succeeded') {
      return { run: existing, proceed: true };
    }
    if (existing.status === 'succeeded' && !o.force) return { run: existing, proceed: false };
    const run = await trx
      .updateTable('report_runs')
      .set({
        status: 'queued',
        report_id: o.reportId,
        format: o.format,
        error: null,
        workflow_id: o.workflowId,
        attempts: sql<number>`attempts + 1`,
        started_at: sql<Date>`now()`,
        finished_at: null,
      })
      .where('id', '=', existing.id)
      .returningAll()
      .executeTakeFirstOrThrow();
    return { run, proceed: true };
  });
}

/** What a run's later steps record. */
export interface ReportRunUpdate {
  status?: ReportRunStatus;
  rows?: number;
  bytes?: number;
  checksum?: string;
  filePath?: string;
  error?: string | null;
}

/** Records a run's progress; a final status (succeeded, failed) also sets finished_at. */
export async function updateReportRun(
  db: Kysely<Database> | Transaction<Database>,
  id: number,
  u: ReportRunUpdate,
): Promise<void> {
  const final = u.status === 'succeeded' || u.status === 'failed';
  await db
    .updateTable('report_runs')
    .set({
      ...(u.status !== undefined ? { status: u.status } : {}),
      ...(u.rows !== undefined ? { rows: u.rows } : {}),
      ...(u.bytes !== undefined ? { bytes: u.bytes } : {}),
      ...(u.checksum !== undefined ? { checksum: u.checksum } : {}),
      ...(u.filePath !== undefined ? { file_path: u.filePath } : {}),
      ...(u.error !== undefined ? { error: u.error === null ? null : u.error.slice(0, 2000) } : {}),
      ...(final ? { finished_at: sql<Date>`now()` } : {}),
    })
    .where('id', '=', id)
    .execute();
}

/** One run by id. */
export async function getReportRun(db: Kysely<Database>, id: number): Promise<ReportRunRow | undefined> {
  return db.selectFrom('report_runs').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The latest run that wrote a file (by its absolute path), if any did. */
export async function reportRunByFile(
  db: Kysely<Database>,
  filePath: string,
): Promise<ReportRunRow | undefined> {
  return db
    .selectFrom('report_runs')
    .selectAll()
    .where('file_path', '=', filePath)
    .orderBy('id', 'desc')
    .executeTakeFirst();
}

/** Every run of a schedule, oldest period first. */
export async function listReportRuns(
  db: Kysely<Database>,
  account: string,
  scheduleId: number,
): Promise<ReportRunRow[]> {
  return db
    .selectFrom('report_runs')
    .selectAll()
    .where('account', '=', account)
    .where('schedule_id', '=', scheduleId)
    .orderBy('period_from')
    .orderBy('id')
    .execute();
}

/** The latest run (by creation) of each schedule of the given accounts. */
export async function latestReportRuns(
  db: Kysely<Database>,
  accounts: readonly string[],
): Promise<ReportRunRow[]> {
  if (accounts.length === 0) return [];
  return db
    .selectFrom('report_runs')
    .selectAll()
    .distinctOn(['account', 'schedule_id'])
    .where('account', 'in', accounts)
    .orderBy('account')
    .orderBy('schedule_id')
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
}

/** The most recent failed runs, newest first. */
export async function recentReportRunFailures(db: Kysely<Database>, limit = 20): Promise<ReportRunRow[]> {
  return db
    .selectFrom('report_runs')
    .selectAll()
    .where('status', '=', 'failed')
    .orderBy('finished_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}

/** One synced report schedule of an account. */
export async function getReportSchedule(db: Kysely<Database>, account: string, id: number) {
  return db
    .selectFrom('report_schedules')
    .selectAll()
    .where('account', '=', account)
    .where('id', '=', id)
    .executeTakeFirst();
}

/** Every synced report schedule of an account, by id. */
export async function listReportSchedules(db: Kysely<Database>, account: string) {
  return db.selectFrom('report_schedules').selectAll().where('account', '=', account).orderBy('id').execute();
}

/** The run a workflow opened (its progress, for `callsync reports run`). */
export async function reportRunOfWorkflow(
  db: Kysely<Database>,
  workflowId: string,
): Promise<ReportRunRow | undefined> {
  return db.selectFrom('report_runs').selectAll().where('workflow_id', '=', workflowId).executeTakeFirst();
}
