// How `callsync reports …` and `callsync status` show report schedules and runs (pure formatting).
import { DateTime } from 'luxon';
import type { ReportDeliveryRow, ReportRunRow } from '../../connectors/postgres';

/** One line of `callsync reports list`. */
export interface ReportScheduleView {
  account: string;
  id: number;
  name: string;
  reportId: number | null;
  timezone: string;
  /** Next action time of its Temporal Schedule, or null (paused, ended, not mirrored). */
  nextRun: Date | null;
  /** active, paused, not mirrored, or `quarantined: <reason>`. */
  state: string;
  lastRun: Pick<ReportRunRow, 'id' | 'period_label' | 'status' | 'finished_at' | 'error'> | null;
}

/** An instant as local time in a zone, with its UTC offset (e.g. `2026-11-24 07:00 +00:00`). */
export function localTime(at: Date, timezone: string): string {
  const d = DateTime.fromJSDate(at, { zone: timezone });
  return d.isValid ? d.toFormat('yyyy-MM-dd HH:mm ZZ') : at.toISOString();
}

function table(header: string[], cells: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((c) => (c[i] ?? '').length)));
  return [header, ...cells]
    .map((line) =>
      line
        .map((c, i) => c.padEnd(widths[i]!))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

function lastRunText(r: ReportScheduleView['lastRun']): string {
  if (!r) return 'never';
  const error = r.status === 'failed' && r.error ? `: ${r.error.slice(0, 80)}` : '';
  return `#${r.id} ${r.period_label} ${r.status}${error}`;
}

/** The `reports list` table: each schedule with its next run in its own time zone and its last run. */
export function formatReportSchedules(rows: readonly ReportScheduleView[]): string {
  if (rows.length === 0) return 'no report schedules synced yet (they arrive with the report_schedules sync)';
  return table(
    ['ACCOUNT', 'ID', 'NAME', 'REPORT', 'TIME ZONE', 'NEXT RUN (LOCAL)', 'STATE', 'LAST RUN'],
    rows.map((r) => [
      r.account,
      String(r.id),
      r.name,
      r.reportId === null ? '-' : String(r.reportId),
      r.timezone,
      r.nextRun ? localTime(r.nextRun, r.timezone) : '-',
      r.state,
      lastRunText(r.lastRun),
    ]),
  );
}

/** `reports show`: one run, field by field, then its deliveries (channel, target, state, id). */
export function formatReportRun(
  run: ReportRunRow,
  deliveries: readonly Pick<
    ReportDeliveryRow,
    'channel' | 'target' | 'state' | 'external_id' | 'error'
  >[] = [],
): string {
  const when = (d: Date | null) => (d ? `${d.toISOString()} (${localTime(d, run.timezone)})` : '-');
  const fields: [string, string][] = [
    ['run', String(run.id)],
    ['account', run.account],
    ['schedule', String(run.schedule_id)],
    ['report', run.report_id === null ? '-' : String(run.report_id)],
    [
      'period',
      `${run.period_label} [${run.period_from.toISOString()}, ${run.period_to.toISOString()}) ${run.timezone}`,
    ],
    ['format', run.format ?? '-'],
    ['status', run.status],
    ['rows', run.rows === null ? '-' : String(run.rows)],
    ['bytes', run.bytes === null ? '-' : String(run.bytes)],
    ['checksum', run.checksum ? `sha256:${run.checksum}` : '-'],
    ['file', run.file_path ?? '-'],
    ['error', run.error ?? '-'],
    ['workflow', run.workflow_id ?? '-'],
    ['attempts', String(run.attempts)],
    ['started', when(run.started_at)],
    ['finished', when(run.finished_at)],
  ];
  for (const d of deliveries) {
    const detail = d.external_id ?? d.error ?? '';
    fields.push(['delivery', `${d.channel} ${d.target} ${d.state}${detail ? ` ${detail}` : ''}`]);
  }
  const width = Math.max(...fields.map(([k]) => k.length));
  return fields.map(([k, v]) => `${k.padEnd(width)}  ${v}`).join('\n');
}

/** The report section of `callsync status`: latest run per schedule, failures, quarantined schedules. */
export function formatReportStatus(
  latest: readonly ReportRunRow[],
  failures: readonly ReportRunRow[],
  quarantined: readonly { account: string; record_id: string; reason: string }[],
): string {
  const parts: string[] = [];
  if (latest.length > 0) {
    parts.push(
      `\nREPORT RUNS (latest per schedule; table report_runs)\n${table(
        ['ACCOUNT', 'SCHEDULE', 'RUN', 'PERIOD', 'STATUS', 'ROWS', 'FINISHED'],
        latest.map((r) => [
          r.account,
          String(r.schedule_id),
          String(r.id),
          r.period_label,
          r.status,
          r.rows === null ? '-' : String(r.rows),
          r.finished_at ? r.finished_at.toISOString() : '-',
        ]),
      )}`,
    );
  }
  if (failures.length > 0) {
    parts.push(
      [
        `\nFAILED REPORT RUNS (latest ${failures.length})`,
        ...failures.map(
          (r) =>
            `${r.finished_at?.toISOString() ?? '-'}  ${r.account}  schedule ${r.schedule_id}  run ${r.id}  ${r.period_label}: ${r.error ?? 'failed'}`,
        ),
      ].join('\n'),
    );
  }
  if (quarantined.length > 0) {
    parts.push(
      [
        `\nQUARANTINED REPORT SCHEDULES (${quarantined.length}; not run until fixed on the platform)`,
        ...quarantined.map((q) => `${q.account}  schedule ${q.record_id}: ${q.reason}`),
      ].join('\n'),
    );
  }
  return parts.join('\n');
}
