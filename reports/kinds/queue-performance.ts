// Queue performance.
import {
  streamQueuePerformance,
  type QueuePerformanceRecord,
} from '../../connectors/postgres/repositories/reports';
import { col, type ReportRow } from '../columns';
import { translate } from '../culture';
import { mapRows, ratio, type ReportDefinition } from '../definition';

/** A queue's row: answered rate and service level are shares of the calls offered. */
export function queuePerformanceRow(r: QueuePerformanceRecord): ReportRow {
  return [
    r.queue,
    r.offered,
    r.answered,
    r.abandoned,
    ratio(r.answered, r.offered),
    ratio(r.within_service_level, r.offered),
    Math.round(r.avg_wait),
    r.max_wait,
  ];
}

export const queuePerformanceReport: ReportDefinition = {
  kind: 'queue_performance',
  title: 'title_queue_performance',
  columns: [
    col('queue', 'text', 22),
    col('offered', 'integer', 10),
    col('answered', 'integer', 10),
    col('abandoned', 'integer', 10),
    col('answer_rate', 'percent'),
    col('service_level', 'percent'),
    col('avg_wait', 'duration'),
    col('max_wait', 'duration'),
  ],
  rows: (db, q, entry) =>
    mapRows(streamQueuePerformance(db, q, entry.serviceLevelSeconds), queuePerformanceRow),
  chart: 'queue',
  note: (entry, culture) =>
    translate(culture, 'service_level_within', { seconds: entry.serviceLevelSeconds }),
};
