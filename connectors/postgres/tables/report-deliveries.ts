// Deliveries of finished reports: the exactly-once record of each e-mail, Drive file and sheet.
import type { ColumnType, Generated, Insertable, Selectable } from 'kysely';
import type { JsonValue } from './columns';

/** Where a report goes. */
export type DeliveryChannel = 'email' | 'drive' | 'sheets';

/** pending: recorded; sending: about to send (or sent, unconfirmed); sent: confirmed; failed: for good. */
export type DeliveryState = 'pending' | 'sending' | 'sent' | 'failed';

/** One delivery of one report run to one target (recipients, a Drive folder, a spreadsheet). */
export interface ReportDeliveriesTable {
  id: Generated<string>;
  /** report_runs.id (bigint, read back as a decimal string). */
  run_id: ColumnType<string, string | number, string | number>;
  channel: DeliveryChannel;
  /** The normalised recipients, the folder id or the spreadsheet key. */
  target: string;
  /** Deterministic key of this delivery: the .eml name, the Drive appProperties value. */
  delivery_key: string;
  state: ColumnType<DeliveryState, DeliveryState | undefined, DeliveryState>;
  /** SMTP Message-ID, Drive file id, or spreadsheet id. */
  external_id: string | null;
  /** Drive webViewLink, the sheet's URL with its range. */
  external_url: string | null;
  detail: ColumnType<JsonValue | null, string | null, string | null>;
  attempts: ColumnType<number, number | undefined, number>;
  error: string | null;
  created_at: Generated<Date>;
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>;
  sent_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
}
export type ReportDeliveryRow = Selectable<ReportDeliveriesTable>;
export type NewReportDeliveryRow = Insertable<ReportDeliveriesTable>;
