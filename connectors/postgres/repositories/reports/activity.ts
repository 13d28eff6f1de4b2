// Activity by the other party's number (country) and by the company's number (DDI). Countries come
// from libphonenumber in the report layer, so SQL sums per distinct external number (far fewer rows
// than calls) and the caller folds them by country. Internal and test calls are left out.
import { sql, type Kysely } from 'kysely';
import type { Database } from '../../tables';
import { REPORT_STREAM_CHUNK, type ReportQuery } from './period';

/** Figures of one group of calls (one external number, or one DDI). */
export interface ActivityRecord {
  key: string | null;
  calls_in: number;
  calls_out: number;
  answered: number;
  talk_time: number;
  cost: number;
}

const EXTERNAL = sql<boolean>`coalesce(c.context, '') not in ('USER_LOCAL', 'TEST_CALL')`;

/**
 * The company number of a call: the caller id presented on a call out (`"Name" <+44…>`), the
 * tracking number the platform notes on a tracked call, or the dialled number of a call in when it
 * is a full number (calls to an extension do not say which DDI they came in on).
 */
const DDI = sql<string | null>`coalesce(
  case when c.type = 'O' then substring(c.clid from '<([^>]+)>') end,
  substring(c.info from 'Call tracking: (\\S+)'),
  case when c.type <> 'O' and c.dst ~ '^\\+?[0-9]{7,}$' then c.dst end
)`;

const EXTERNAL_NUMBER = sql<string | null>`case when c.type = 'O' then c.dst else c.src end`;

function activityQuery(db: Kysely<Database>, q: ReportQuery, key: typeof DDI) {
  return db
    .selectFrom('cdrs as c')
    .where('c.account', '=', q.account)
    .where('c.calldate', '>=', q.from)
    .where('c.calldate', '<', q.to)
    .where(EXTERNAL)
    .groupBy(sql`1`)
    .select([
      key.as('key'),
      sql<number>`count(*) filter (where c.type in ('I', 'M'))::int`.as('calls_in'),
      sql<number>`count(*) filter (where c.type = 'O')::int`.as('calls_out'),
      sql<number>`count(*) filter (where c.disposition = 'CONNECTED')::int`.as('answered'),
      sql<number>`coalesce(sum(c.billsec) filter (where c.disposition = 'CONNECTED'), 0)::bigint`.as(
        'talk_time',
      ),
      sql<number>`coalesce(sum(c.charge), 0)::numeric(14, 4)`.as('cost'),
    ])
    .orderBy(sql`1 asc nulls last`);
}

/** Figures per external number (the caller of a call in, the callee of a call out). */
export function streamActivityByNumber(db: Kysely<Database>, q: ReportQuery): AsyncIterable<ActivityRecord> {
  return activityQuery(db, q, EXTERNAL_NUMBER).stream(REPORT_STREAM_CHUNK);
}

/** Figures per company number (DDI); calls whose DDI is not recorded have a null key. */
export function streamActivityByDdi(db: Kysely<Database>, q: ReportQuery): AsyncIterable<ActivityRecord> {
  return activityQuery(db, q, DDI).stream(REPORT_STREAM_CHUNK);
}
