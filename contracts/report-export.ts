// The report export workflow as report schedules, the CLI and tests see it: ids in, a run id and
// counts out (the schedule's e-mails, credentials and rows stay out of workflow histories).
import { defineSearchAttributeKey, SearchAttributeType } from '@temporalio/common';
import { workflowRef } from './workflow-ref';

/** Prefix of every Temporal Schedule (and scheduled workflow id) of a report schedule. */
export const REPORT_SCHEDULE_PREFIX = 'report-';

/** The Temporal Schedule id of a platform report schedule: `report-<account>-<id>`. */
export function reportScheduleId(account: string, scheduleId: number): string {
  return `${REPORT_SCHEDULE_PREFIX}${account}-${scheduleId}`;
}

/** A period asked for by hand: `2026-10` (month), `2026-W40` (week), `2026-10-05` (day), or from/to dates. */
export type ReportPeriodRequest = { period: string } | { from: string; to: string };

export interface ReportExportInput {
  account: string;
  /** The platform's report schedule id. */
  scheduleId: number;
  /** Ad-hoc runs: the period to cover; scheduled runs cover the period before their scheduled time. */
  period?: ReportPeriodRequest;
  /** Run again even when the period already succeeded. */
  force?: boolean;
}

/** What one run did. */
export interface ReportExportResult {
  /** report_runs.id. */
  runId: number;
  periodLabel: string;
  /** built: a file was built and delivered; already-done: the period had succeeded (no force); failed. */
  outcome: 'built' | 'already-done' | 'failed';
  rows: number | null;
  bytes: number | null;
  deliveries: number;
  error?: string;
}

/** Input of the activity that opens (or finds) the run of a schedule and period. */
export interface OpenReportRunInput extends ReportExportInput {
  /** The run's scheduled time (ISO): TemporalScheduledStartTime, else the workflow's start. */
  scheduledAt: string;
  workflowId: string;
}

/** The opened run. */
export interface OpenReportRunResult {
  runId: number;
  periodLabel: string;
  /** False when the period already succeeded and no force was given. */
  proceed: boolean;
  rows: number | null;
  bytes: number | null;
}

/** The signature of `workflows/report-export.ts`. */
export type ReportExportWorkflow = (input: ReportExportInput) => Promise<ReportExportResult>;

/** Start or schedule a report export through this. */
export const reportExportWorkflow = workflowRef<ReportExportWorkflow>('reportExport');

/** When a scheduled run was due: the search attribute Temporal Schedules set on the workflows they start. */
export const SCHEDULED_START_TIME = defineSearchAttributeKey(
  'TemporalScheduledStartTime',
  SearchAttributeType.DATETIME,
);
