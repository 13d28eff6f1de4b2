// Calls per local day or hour of the period, for the charts of reports over time. Buckets are
// local times in the schedule's zone (AT TIME ZONE), so a day is the local calendar day even on the
// 23- and 25-hour days of a clock change.
import { sql, type Kysely } from 'kysely';
import type { Database } from '../../tables';
import type { ReportQuery } from './period';

/** Which calls a chart counts. */
export type CallFilter = 'all' | 'missed' | 'queue' | 'charged' | 'recorded';

/** One bar: a local day (`2026-10-25`) or hour (`2026-10-25 01:00`), and its calls. */
export interface CallsBucket {
  bucket: string;
  calls: number;
}

const FILTERS: Record<CallFilter, ReturnType<typeof sql<boolean>>> = {
  all: sql<boolean>`coalesce(c.context, '') <> 'TEST_CALL'`,
  missed: sql<boolean>`c.type = 'M'`,
  queue: sql<boolean>`c.context = 'QUEUE'`,
  charged: sql<boolean>`c.charge > 0`,
  recorded: sql<boolean>`exists (select 1 from recordings r where r.account = c.account and r.live_id = c.live_id)`,
};

/** Calls per local bucket, oldest first; buckets without calls are absent. */
export async function callsOverTime(
  db: Kysely<Database>,
  q: ReportQuery,
  unit: 'day' | 'hour',
  filter: CallFilter,
): Promise<CallsBucket[]> {
  const pattern = unit === 'day' ? 'YYYY-MM-DD' : 'YYYY-MM-DD HH24:00';
  const local = sql`c.calldate at time zone ${q.timezone}`;
  return db
    .selectFrom('cdrs as c')
    .where('c.account', '=', q.account)
    .where('c.calldate', '>=', q.from)
    .where('c.calldate', '<', q.to)
    .where(FILTERS[filter])
    .groupBy(sql`1`)
    .select([
      sql<string>`to_char(date_trunc(${unit}, ${local}), ${pattern})`.as('bucket'),
      sql<number>`count(*)::int`.as('calls'),
    ])
    .orderBy(sql`1`)
    .execute();
}
