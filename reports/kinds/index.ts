// Every report kind's definition.
import type { ReportKind } from '../catalogue';
import type { ReportDefinition } from '../definition';
import { activityByCountryReport, activityByDdiReport } from './activity';
import { billingReport } from './billing';
import { callSummaryReport } from './call-summary';
import { missedCallsReport } from './missed-calls';
import { queuePerformanceReport } from './queue-performance';
import { recordingsCxReport } from './recordings-cx';

export const REPORT_DEFINITIONS: Readonly<Record<ReportKind, ReportDefinition>> = {
  call_summary: callSummaryReport,
  missed_calls: missedCallsReport,
  activity_by_country: activityByCountryReport,
  queue_performance: queuePerformanceReport,
  recordings_cx: recordingsCxReport,
  activity_by_ddi: activityByDdiReport,
  billing: billingReport,
};
