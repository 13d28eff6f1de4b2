// Call summary per user: calls in and out, inbound answered rate, talk time, average handle time.
import { sql, type Kysely } from 'kysely';
import type { Database } from '../../tables';
import { REPORT_STREAM_CHUNK, userName, type ReportQuery } from './period';

/** One user's figures over the period (test calls left out). */
export interface CallSummaryRecord {
  user_id: number | null;
  user_name: string | null;
  ext: string | null;
  calls_in: number;
  calls_out: number;
  answered_in: number;
  missed: number;
  /** Calls connected in either direction. */
  answered: number;
  /** Seconds connected, summed. */
  talk_time: number;
}

/** The query, ordered by user name. */
export function callSummaryQuery(db: Kysely<Database>, q: ReportQuery) {
  return db
    .selectFrom('cdrs as c')
    .leftJoin('users as u', (j) => j.onRef('u.account', '=', 'c.account').onRef('u.id', '=', 'c.user_id'))
    .where('c.account', '=', q.account)
    .where('c.calldate', '>=', q.from)
    .where('c.calldate', '<', q.to)
    .where('c.context', 'is distinct from', 'TEST_CALL')
    .groupBy(['c.user_id', 'u.first_name', 'u.last_name', 'u.ext'])
    .select([
      'c.user_id',
      userName(sql.ref('u.first_name'), sql.ref('u.last_name')).as('user_name'),
      'u.ext',
      sql<number>`count(*) filter (where c.type in ('I', 'M'))::int`.as('calls_in'),
      sql<number>`count(*) filter (where c.type = 'O')::int`.as('calls_out'),
      sql<number>`count(*) filter (where c.type = 'I' and c.disposition = 'CONNECTED')::int`.as(
        'answered_in',
      ),
      sql<number>`count(*) filter (where c.type = 'M')::int`.as('missed'),
      sql<number>`count(*) filter (where c.disposition = 'CONNECTED')::int`.as('answered'),
      sql<number>`coalesce(sum(c.billsec) filter (where c.disposition = 'CONNECTED'), 0)::bigint`.as(
        'talk_time',
      ),
    ])
    .orderBy(sql`2 asc nulls last`)
    .orderBy('c.user_id');
}

/** The users' figures through a cursor. */
export function streamCallSummary(db: Kysely<Database>, q: ReportQuery): AsyncIterable<CallSummaryRecord> {
  return callSummaryQuery(db, q).stream(REPORT_STREAM_CHUNK);
}
