// Missed calls, with callbacks.
import { streamMissedCalls, type MissedCallRecord } from '../../connectors/postgres/repositories/reports';
import { col, type ReportRow } from '../columns';
import { mapRows, type ReportDefinition } from '../definition';

/** The earlier of two instants, either of which may be missing. */
export function earliest(a: Date | null, b: Date | null): Date | null {
  if (a === null) return b;
  if (b === null) return a;
  return a.getTime() <= b.getTime() ? a : b;
}

/** A missed call's row: called back when a call out to the caller or an auto-dial followed it. */
export function missedCallRow(r: MissedCallRecord): ReportRow {
  const calledBackAt = earliest(r.callback_at, r.dialled_at);
  return [
    r.calldate,
    r.caller,
    r.caller_name || null,
    r.called,
    r.agent,
    r.wait_time,
    calledBackAt !== null,
    calledBackAt,
    calledBackAt !== null && calledBackAt === r.callback_at ? r.callback_by : null,
    r.task_closed_at,
  ];
}

export const missedCallsReport: ReportDefinition = {
  kind: 'missed_calls',
  title: 'title_missed_calls',
  columns: [
    col('missed_at', 'datetime', 18),
    col('caller', 'text', 16),
    col('caller_name', 'text', 18),
    col('called', 'text', 16),
    col('agent', 'text', 18),
    col('wait_time', 'duration', 9),
    col('called_back', 'boolean', 10),
    col('called_back_at', 'datetime', 18),
    col('callback_by', 'text', 18),
    col('task_closed_at', 'datetime', 18),
  ],
  rows: (db, q) => mapRows(streamMissedCalls(db, q), missedCallRow),
  chart: 'missed',
};
