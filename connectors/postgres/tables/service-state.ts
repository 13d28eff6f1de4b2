// The sync service's own state: checkpoints, quarantined records and sync runs.
import type { ColumnType, Generated, Insertable, Selectable, Updateable } from 'kysely';
import type { JsonValue } from './columns';

type NullableTimestamp = ColumnType<Date | null, Date | string | null, Date | string | null>;

/** Where a stream's sync stands, per account; `scope` lets a backfill window keep its own cursor. */
export interface SyncCheckpointsTable {
  account: string;
  stream: string;
  scope: Generated<string>;
  cursor: string | null;
  updated_at: Generated<Date>;
}
export type SyncCheckpointRow = Selectable<SyncCheckpointsTable>;
export type NewSyncCheckpointRow = Insertable<SyncCheckpointsTable>;
export type SyncCheckpointUpdate = Updateable<SyncCheckpointsTable>;

/** Records that could not be understood or stored, kept with the reason so the sync goes on. */
export interface QuarantinedRecordsTable {
  account: string;
  stream: string;
  record_id: string;
  reason: string;
  raw: ColumnType<JsonValue | null, string | null, string | null>;
  first_seen_at: Generated<Date>;
  last_seen_at: Generated<Date>;
  /** Set when the record was retried successfully or dismissed. */
  resolved_at: NullableTimestamp;
  /** When the dashboard last retried it, and how that ended (stored, still-invalid, not-retryable). */
  last_retry_at: NullableTimestamp;
  last_retry_outcome: string | null;
}
export type QuarantinedRecordRow = Selectable<QuarantinedRecordsTable>;
export type NewQuarantinedRecordRow = Insertable<QuarantinedRecordsTable>;
export type QuarantinedRecordUpdate = Updateable<QuarantinedRecordsTable>;

/** One execution of a stream sync (incremental or backfill). */
export interface SyncRunsTable {
  id: Generated<number>;
  account: string;
  stream: string;
  kind: string;
  workflow_id: string | null;
  started_at: Generated<Date>;
  finished_at: NullableTimestamp;
  status: Generated<string>;
  records: Generated<number>;
  errors: Generated<number>;
  error: string | null;
  /** How far the data was behind (newest record to the run's end), in seconds; history streams only. */
  data_lag_seconds: number | null;
}
export type SyncRunRow = Selectable<SyncRunsTable>;
export type NewSyncRunRow = Insertable<SyncRunsTable>;
export type SyncRunUpdate = Updateable<SyncRunsTable>;
