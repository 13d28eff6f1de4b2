// Report runs: the exactly-once record of each report export (one per schedule and period).
import type { ColumnType, Generated, Insertable, Selectable } from 'kysely';

/** queued: recorded; building: the file is being written; delivering: sent to its channels. */
export type ReportRunStatus = 'queued' | 'building' | 'delivering' | 'succeeded' | 'failed';

type Time = ColumnType<Date, Date | string, Date | string>;
type MaybeTime = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;

/** One export of one report schedule for one period. */
export interface ReportRunsTable {
  id: Generated<number>;
  account: string;
  /** The platform's report schedule id. */
  schedule_id: number;
  report_id: number | null;
  /** The period the report covers: [period_from, period_to). */
  period_from: Time;
  period_to: Time;
  /** `2026-10-05` (day), `2026-W40` (ISO week), `2026-10` (month) or `<from>..<to>` (ad hoc). */
  period_label: string;
  /** The schedule's IANA time zone, in which the period's days begin. */
  timezone: string;
  /** csv, xlsx or pdf. */
  format: string | null;
  status: ColumnType<ReportRunStatus, ReportRunStatus | undefined, ReportRunStatus>;
  rows: number | null;
  bytes: number | null;
  /** sha256 of the file, hex. */
  checksum: string | null;
  file_path: string | null;
  error: string | null;
  /** The workflow that last worked on the run. */
  workflow_id: string | null;
  /** Workflow runs that opened this run (a repeat without force does not count). */
  attempts: ColumnType<number, number | undefined, number>;
  created_at: Generated<Date>;
  started_at: MaybeTime;
  finished_at: MaybeTime;
}
export type ReportRunRow = Selectable<ReportRunsTable>;
export type NewReportRunRow = Insertable<ReportRunsTable>;
