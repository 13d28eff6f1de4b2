// Call summary per user.
import { streamCallSummary, type CallSummaryRecord } from '../../connectors/postgres/repositories/reports';
import { col, type ReportRow } from '../columns';
import { translate, type Culture } from '../culture';
import { mapRows, ratio, type ReportDefinition } from '../definition';

/** A user's row: answered rate is inbound answered / inbound; AHT is talk time / connected calls. */
export function callSummaryRow(r: CallSummaryRecord, culture: Culture): ReportRow {
  return [
    r.user_name ?? (r.user_id === null ? translate(culture, 'no_user') : `#${r.user_id}`),
    r.ext,
    r.calls_in,
    r.calls_out,
    r.answered_in,
    ratio(r.answered_in, r.calls_in),
    r.missed,
    r.talk_time,
    r.answered > 0 ? Math.round(r.talk_time / r.answered) : null,
  ];
}

export const callSummaryReport: ReportDefinition = {
  kind: 'call_summary',
  title: 'title_call_summary',
  columns: [
    col('user', 'text', 24),
    col('extension', 'text', 10),
    col('calls_in', 'integer'),
    col('calls_out', 'integer'),
    col('answered_in', 'integer'),
    col('answer_rate', 'percent'),
    col('missed', 'integer', 10),
    col('talk_time', 'duration'),
    col('avg_handle_time', 'duration'),
  ],
  rows: (db, q, _entry, culture) => mapRows(streamCallSummary(db, q), (r) => callSummaryRow(r, culture)),
  chart: 'all',
};
