// Billing: one row per charged call of the period, in call order. The benchmark runs the same query
// through PostgreSQL's COPY as the baseline, so it is built once here.
import { sql, type Kysely } from 'kysely';
import type { Database } from '../../tables';
import {
  dateTimeText,
  durationText,
  integerText,
  moneyText,
  plainText,
  type CsvTextFormat,
} from './csv-text';
import { REPORT_STREAM_CHUNK, userName, type ReportQuery } from './period';

export interface BillingRecord {
  id: number;
  calldate: Date;
  user: string | null;
  src: string | null;
  dst: string | null;
  destination: string | null;
  billsec: number | null;
  rate: number | null;
  charge: number;
}

/** The query: charged calls (charge > 0) of the period, ordered by start then id. */
export function billingQuery(db: Kysely<Database>, q: ReportQuery) {
  return db
    .selectFrom('cdrs as c')
    .leftJoin('users as u', (j) => j.onRef('u.account', '=', 'c.account').onRef('u.id', '=', 'c.user_id'))
    .where('c.account', '=', q.account)
    .where('c.calldate', '>=', q.from)
    .where('c.calldate', '<', q.to)
    .where('c.charge', '>', 0)
    .select([
      'c.id',
      sql<Date>`c.calldate`.as('calldate'),
      userName(sql.ref('u.first_name'), sql.ref('u.last_name')).as('user'),
      'c.src',
      'c.dst',
      'c.destination',
      'c.billsec',
      'c.rate',
      sql<number>`c.charge`.as('charge'),
    ])
    .orderBy('c.calldate')
    .orderBy('c.id');
}

/** The charged calls through a cursor. */
export function streamBilling(db: Kysely<Database>, q: ReportQuery): AsyncIterable<BillingRecord> {
  return billingQuery(db, q).stream(REPORT_STREAM_CHUNK);
}

/** The billing rows with every cell already text in a culture (for COPY … TO STDOUT as CSV). */
export function billingCsvQuery(db: Kysely<Database>, q: ReportQuery, f: CsvTextFormat) {
  return db
    .selectFrom('cdrs as c')
    .leftJoin('users as u', (j) => j.onRef('u.account', '=', 'c.account').onRef('u.id', '=', 'c.user_id'))
    .where('c.account', '=', q.account)
    .where('c.calldate', '>=', q.from)
    .where('c.calldate', '<', q.to)
    .where('c.charge', '>', 0)
    .select([
      integerText(sql.ref('c.id')).as('id'),
      dateTimeText(sql.ref('c.calldate'), f).as('calldate'),
      plainText(userName(sql.ref('u.first_name'), sql.ref('u.last_name'))).as('user'),
      plainText(sql.ref('c.src')).as('src'),
      plainText(sql.ref('c.dst')).as('dst'),
      plainText(sql.ref('c.destination')).as('destination'),
      durationText(sql.ref('c.billsec')).as('billsec'),
      moneyText(sql.ref('c.rate'), f).as('rate'),
      moneyText(sql.ref('c.charge'), f).as('charge'),
    ])
    .orderBy('c.calldate')
    .orderBy('c.id');
}

/**
 * The billing rows as raw typed values for a COPY text row source, cells in billingRow's order;
 * instants as epoch milliseconds (no timestamp text to parse).
 */
export function billingCopyRowsQuery(db: Kysely<Database>, q: ReportQuery) {
  return db
    .selectFrom('cdrs as c')
    .leftJoin('users as u', (j) => j.onRef('u.account', '=', 'c.account').onRef('u.id', '=', 'c.user_id'))
    .where('c.account', '=', q.account)
    .where('c.calldate', '>=', q.from)
    .where('c.calldate', '<', q.to)
    .where('c.charge', '>', 0)
    .select([
      'c.id',
      sql<number>`(extract(epoch from c.calldate) * 1000)::bigint`.as('calldate'),
      userName(sql.ref('u.first_name'), sql.ref('u.last_name')).as('user'),
      'c.src',
      'c.dst',
      'c.destination',
      'c.billsec',
      'c.rate',
      'c.charge',
    ])
    .orderBy('c.calldate')
    .orderBy('c.id');
}
