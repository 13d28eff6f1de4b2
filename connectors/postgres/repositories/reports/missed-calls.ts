// Missed calls, one row each, with whether and when the caller was called back: the first call out
// to the caller's number after the miss (by any user), the callback's auto-dial, and the callback
// task that covered the miss (closed when the caller was reached).
import { sql, type Kysely } from 'kysely';
import type { Database } from '../../tables';
import { REPORT_STREAM_CHUNK, userName, type ReportQuery } from './period';

export interface MissedCallRecord {
  id: number;
  calldate: Date;
  caller: string | null;
  caller_name: string | null;
  called: string | null;
  agent: string | null;
  /** Seconds the caller waited (ring time). */
  wait_time: number;
  callback_at: Date | null;
  callback_by: string | null;
  dialled_at: Date | null;
  task_closed_at: Date | null;
}

/** The query, in call order. */
export function missedCallsQuery(db: Kysely<Database>, q: ReportQuery) {
  return db
    .selectFrom('cdrs as c')
    .leftJoin('users as u', (j) => j.onRef('u.account', '=', 'c.account').onRef('u.id', '=', 'c.user_id'))
    .leftJoinLateral(
      (eb) =>
        eb
          .selectFrom('cdrs as o')
          .leftJoin('users as ou', (j) =>
            j.onRef('ou.account', '=', 'o.account').onRef('ou.id', '=', 'o.user_id'),
          )
          .whereRef('o.account', '=', 'c.account')
          .whereRef('o.dst', '=', 'c.src')
          .where('o.type', '=', 'O')
          .whereRef('o.calldate', '>', 'c.calldate')
          .orderBy('o.calldate')
          .limit(1)
          .select(['o.calldate', userName(sql.ref('ou.first_name'), sql.ref('ou.last_name')).as('by')])
          .as('cb'),
      (j) => j.onTrue(),
    )
    .leftJoinLateral(
      (eb) =>
        eb
          .selectFrom('callback_dials as d')
          .whereRef('d.account', '=', 'c.account')
          .whereRef('d.number', '=', 'c.src')
          .whereRef('d.placed_at', '>', 'c.calldate')
          .select((e) => e.fn.min('d.placed_at').as('placed_at'))
          .as('dial'),
      (j) => j.onTrue(),
    )
    .leftJoinLateral(
      (eb) =>
        eb
          .selectFrom('builtin_tasks as t')
          .whereRef('t.account', '=', 'c.account')
          .whereRef('t.caller_number', '=', 'c.src')
          // The task open at the miss (one open task per caller) or opened for it.
          .where((e) => e.or([e('t.closed_at', 'is', null), e('t.closed_at', '>', e.ref('c.calldate'))]))
          .orderBy('t.created_at')
          .limit(1)
          .select('t.closed_at')
          .as('task'),
      (j) => j.onTrue(),
    )
    .where('c.account', '=', q.account)
    .where('c.calldate', '>=', q.from)
    .where('c.calldate', '<', q.to)
    .where('c.type', '=', 'M')
    .select([
      'c.id',
      sql<Date>`c.calldate`.as('calldate'),
      'c.src as caller',
      'c.src_name as caller_name',
      sql<string | null>`coalesce(nullif(c.dst_name, ''), c.dst)`.as('called'),
      userName(sql.ref('u.first_name'), sql.ref('u.last_name')).as('agent'),
      sql<number>`greatest(coalesce(c.duration, 0) - coalesce(c.billsec, 0), 0)::bigint`.as('wait_time'),
      sql<Date | null>`cb.calldate`.as('callback_at'),
      sql<string | null>`cb.by`.as('callback_by'),
      sql<Date | null>`dial.placed_at`.as('dialled_at'),
      sql<Date | null>`task.closed_at`.as('task_closed_at'),
    ])
    .orderBy('c.calldate')
    .orderBy('c.id');
}

/** The missed calls through a cursor. */
export function streamMissedCalls(db: Kysely<Database>, q: ReportQuery): AsyncIterable<MissedCallRecord> {
  return missedCallsQuery(db, q).stream(REPORT_STREAM_CHUNK);
}
