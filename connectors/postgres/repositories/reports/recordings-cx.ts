// Recordings with sentiment and CX score per agent: the recordings of calls in the period (joined
// to their CDR by live id), with the transcript's sentiment counts and CX scores.
import { sql, type Kysely } from 'kysely';
import type { Database } from '../../tables';
import { REPORT_STREAM_CHUNK, userName, type ReportQuery } from './period';

export interface RecordingsCxRecord {
  user_id: number | null;
  agent: string | null;
  recordings: number;
  transcribed: number;
  avg_cx: number | null;
  min_cx: number | null;
  positive: number;
  neutral: number;
  negative: number;
}

/** The query, one row per agent, ordered by name. */
export function recordingsCxQuery(db: Kysely<Database>, q: ReportQuery) {
  return db
    .selectFrom('recordings as r')
    .innerJoin('cdrs as c', (j) =>
      j.onRef('c.account', '=', 'r.account').onRef('c.live_id', '=', 'r.live_id'),
    )
    .leftJoin('users as u', (j) => j.onRef('u.account', '=', 'c.account').onRef('u.id', '=', 'c.user_id'))
    .where('r.account', '=', q.account)
    .where('c.calldate', '>=', q.from)
    .where('c.calldate', '<', q.to)
    .groupBy(['c.user_id', 'u.first_name', 'u.last_name'])
    .select([
      'c.user_id',
      userName(sql.ref('u.first_name'), sql.ref('u.last_name')).as('agent'),
      sql<number>`count(distinct r.id)::int`.as('recordings'),
      sql<number>`count(distinct r.id) filter (where coalesce(r.transcript, '') <> '')::int`.as(
        'transcribed',
      ),
      sql<number | null>`avg(r.cx_score)::float8`.as('avg_cx'),
      sql<number | null>`min(r.cx_score)`.as('min_cx'),
      sql<number>`count(distinct r.id) filter (where lower(r.sentiment) = 'positive')::int`.as('positive'),
      sql<number>`count(distinct r.id) filter (where lower(r.sentiment) = 'neutral')::int`.as('neutral'),
      sql<number>`count(distinct r.id) filter (where lower(r.sentiment) = 'negative')::int`.as('negative'),
    ])
    .orderBy(sql`2 asc nulls last`)
    .orderBy('c.user_id');
}

/** The agents' figures through a cursor. */
export function streamRecordingsCx(db: Kysely<Database>, q: ReportQuery): AsyncIterable<RecordingsCxRecord> {
  return recordingsCxQuery(db, q).stream(REPORT_STREAM_CHUNK);
}
