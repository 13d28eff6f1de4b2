// Recordings with sentiment and CX score per agent.
import { streamRecordingsCx, type RecordingsCxRecord } from '../../connectors/postgres/repositories/reports';
import { col, type ReportRow } from '../columns';
import { translate, type Culture } from '../culture';
import { mapRows, ratio, type ReportDefinition } from '../definition';

/** An agent's row: the positive share is of the recordings whose sentiment is known. */
export function recordingsCxRow(r: RecordingsCxRecord, culture: Culture): ReportRow {
  const rated = r.positive + r.neutral + r.negative;
  return [
    r.agent ?? (r.user_id === null ? translate(culture, 'no_user') : `#${r.user_id}`),
    r.recordings,
    r.transcribed,
    r.avg_cx === null ? null : Math.round(r.avg_cx * 10) / 10,
    r.min_cx,
    r.positive,
    r.neutral,
    r.negative,
    ratio(r.positive, rated),
  ];
}

export const recordingsCxReport: ReportDefinition = {
  kind: 'recordings_cx',
  title: 'title_recordings_cx',
  columns: [
    col('agent', 'text', 22),
    col('recordings', 'integer', 11),
    col('transcribed', 'integer', 11),
    col('avg_cx', 'decimal', 11),
    col('min_cx', 'integer', 11),
    col('positive', 'integer', 9),
    col('neutral', 'integer', 9),
    col('negative', 'integer', 9),
    col('positive_share', 'percent', 11),
  ],
  rows: (db, q, _entry, culture) => mapRows(streamRecordingsCx(db, q), (r) => recordingsCxRow(r, culture)),
  chart: 'recorded',
};
