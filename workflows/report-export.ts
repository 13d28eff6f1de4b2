import {
  ActivityFailure,
  ApplicationFailure,
  log,
  proxyActivities,
  workflowInfo,
} from '@temporalio/workflow';
import type { Activities } from '../activities';
import { SCHEDULED_START_TIME, type ReportExportInput, type ReportExportResult } from '../contracts';
import { REPORT_ACTIVITIES, REPORT_DELIVERY_ACTIVITIES } from '../contracts/activity-options';

const { openReportRun, buildReportRun, finishReportRun } = proxyActivities<Activities>(REPORT_ACTIVITIES);
const { deliverReportDrive, deliverReportEmail, deliverReportSheets } =
  proxyActivities<Activities>(REPORT_DELIVERY_ACTIVITIES);

/** The failure's own message (an activity failure wraps the activity's error). */
function reason(err: unknown): string {
  const cause = err instanceof ActivityFailure ? err.cause : err;
  const failure =
    cause instanceof ApplicationFailure && cause.type ? `${cause.type}: ${cause.message}` : undefined;
  return (failure ?? (cause instanceof Error ? cause.message : String(cause))).slice(0, 1000);
}

/**
 * Exports one report schedule for one period: fixes the period from the run's scheduled time (a
 * retry or a replay sees the same time), opens its report_runs row (a period that already succeeded
 * is left alone unless forced), builds the file, delivers it (Drive, e-mail, Sheets), and closes the
 * run. A failure is recorded with its reason on the run before the workflow fails.
 */
export async function reportExport(input: ReportExportInput): Promise<ReportExportResult> {
  const info = workflowInfo();
  const scheduledAt = info.typedSearchAttributes.get(SCHEDULED_START_TIME) ?? info.startTime;
  const opened = await openReportRun({
    ...input,
    scheduledAt: scheduledAt.toISOString(),
    workflowId: info.workflowId,
  });
  const base = { runId: opened.runId, periodLabel: opened.periodLabel };
  if (!opened.proceed) {
    log.info('report period already exported', { ...base });
    return { ...base, outcome: 'already-done', rows: opened.rows, bytes: opened.bytes, deliveries: 0 };
  }
  try {
    const built = await buildReportRun({ runId: opened.runId });
    // Each channel delivers once per run (report_deliveries); a forced re-run delivers anew, once.
    // Drive first, so a report too large to attach is e-mailed as the link of that same upload. A
    // channel that fails for good does not stop the others; the run then fails with its reasons.
    const delivery = {
      runId: opened.runId,
      ...(input.force ? { generation: info.firstExecutionRunId } : {}),
    };
    let deliveries = 0;
    const failures: string[] = [];
    for (const deliver of [deliverReportDrive, deliverReportEmail, deliverReportSheets]) {
      try {
        if ((await deliver(delivery)).state !== 'skipped') deliveries += 1;
      } catch (err) {
        failures.push(reason(err));
      }
    }
    if (failures.length > 0) {
      throw ApplicationFailure.nonRetryable(failures.join('; '), 'ReportDeliveryFailed');
    }
    await finishReportRun({ runId: opened.runId, status: 'succeeded' });
    return { ...base, outcome: 'built', rows: built.rows, bytes: built.bytes, deliveries };
  } catch (err) {
    await finishReportRun({ runId: opened.runId, status: 'failed', error: reason(err) });
    throw err;
  }
}
