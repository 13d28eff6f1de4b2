// Billing: one row per charged call.
import {
  billingCopyRowsQuery,
  billingCsvQuery,
  streamBilling,
  type BillingRecord,
} from '../../connectors/postgres/repositories/reports';
import { col, type ReportRow } from '../columns';
import { mapRows, type ReportDefinition } from '../definition';

/** A charged call's row. */
export function billingRow(r: BillingRecord): ReportRow {
  return [r.id, r.calldate, r.user, r.src, r.dst, r.destination, r.billsec, r.rate, r.charge];
}

export const billingReport: ReportDefinition = {
  kind: 'billing',
  title: 'title_billing',
  columns: [
    col('call_id', 'integer', 12),
    col('started_at', 'datetime', 18),
    col('user', 'text', 20),
    col('from', 'text', 16),
    col('to', 'text', 16),
    col('direction', 'text', 10),
    col('billsec', 'duration', 10),
    col('rate', 'money', 10),
    col('cost', 'money', 10),
  ],
  rows: (db, q) => mapRows(streamBilling(db, q), billingRow),
  csvQuery: billingCsvQuery,
  copyRowsQuery: billingCopyRowsQuery,
  chart: 'charged',
};
