// Queue performance: calls offered to each queue, answered, abandoned, service level within N
// seconds, average and longest wait. A queue call's wait is its ring time (duration - billsec).
import { sql, type Kysely } from 'kysely';
import type { Database } from '../../tables';
import { REPORT_STREAM_CHUNK, type ReportQuery } from './period';

export interface QueuePerformanceRecord {
  queue_id: string | null;
  queue: string | null;
  offered: number;
  answered: number;
  abandoned: number;
  /** Answered within the service-level threshold. */
  within_service_level: number;
  avg_wait: number;
  max_wait: number;
}

const WAIT = sql<number>`greatest(coalesce(c.duration, 0) - coalesce(c.billsec, 0), 0)`;

/** The query, one row per queue, ordered by queue name. */
export function queuePerformanceQuery(db: Kysely<Database>, q: ReportQuery, serviceLevelSeconds: number) {
  return db
    .selectFrom('cdrs as c')
    .leftJoin('queues as qu', (j) =>
      j.onRef('qu.account', '=', 'c.account').on(sql<boolean>`qu.id::text = c.dst_id`),
    )
    .where('c.account', '=', q.account)
    .where('c.calldate', '>=', q.from)
    .where('c.calldate', '<', q.to)
    .where('c.context', '=', 'QUEUE')
    .groupBy('c.dst_id')
    .select([
      'c.dst_id as queue_id',
      sql<string | null>`coalesce(max(qu.name), max(nullif(c.dst_name, '')), c.dst_id)`.as('queue'),
      sql<number>`count(*)::int`.as('offered'),
      sql<number>`count(*) filter (where c.type <> 'M' and c.disposition = 'CONNECTED')::int`.as('answered'),
      sql<number>`count(*) filter (where c.type = 'M')::int`.as('abandoned'),
      sql<number>`count(*) filter (where c.type <> 'M' and c.disposition = 'CONNECTED' and ${WAIT} <= ${serviceLevelSeconds})::int`.as(
        'within_service_level',
      ),
      sql<number>`coalesce(avg(${WAIT}), 0)::float8`.as('avg_wait'),
      sql<number>`coalesce(max(${WAIT}), 0)::bigint`.as('max_wait'),
    ])
    .orderBy(sql`2 asc nulls last`);
}

/** The queues' figures through a cursor. */
export function streamQueuePerformance(
  db: Kysely<Database>,
  q: ReportQuery,
  serviceLevelSeconds: number,
): AsyncIterable<QueuePerformanceRecord> {
  return queuePerformanceQuery(db, q, serviceLevelSeconds).stream(REPORT_STREAM_CHUNK);
}
