// The two-way contact sync's state: links between platform contacts and CRM records, progress and
// cursor per account and CRM, and ambiguous matches (docs/contact-sync.md "Contact sync").
import type { ColumnType, Generated } from 'kysely';

type Timestamp = ColumnType<Date, Date | string, Date | string>;
type NullableTimestamp = ColumnType<Date | null, Date | string | null, Date | string | null>;
type Json<T> = ColumnType<T, string, string>;

/** A synced field's value per field name (ContactState), as JSON. */
export type StoredContactState = Record<string, string | null>;

/** One platform contact linked to one CRM record, with each side's state as last synced. */
export interface ContactLinksTable {
  account: string;
  /** The destination's identity (connectors/crm destinationIdOf: portal or org). */
  destination: string;
  platform_id: string;
  /** contact or lead. */
  crm_kind: string;
  crm_id: string;
  platform_state: Json<StoredContactState>;
  crm_state: Json<StoredContactState>;
  platform_hash: string;
  crm_hash: string;
  /** The side whose record was deleted (the other one kept and marked), or null. */
  deleted_side: string | null;
  linked_at: Generated<Date>;
  synced_at: Generated<Date>;
}

/** Where one account's sync with one CRM stands. */
export interface ContactSyncStateTable {
  account: string;
  /** The destination's identity (connectors/crm destinationIdOf: portal or org). */
  destination: string;
  /** initial until the first full sync finished, then incremental. */
  phase: string;
  /** CRM records modified from here on are read by the next run. */
  crm_cursor: NullableTimestamp;
  /** What the running (or last) run is doing: reading, matching, writing, done, failed. */
  stage: string;
  done: Generated<number>;
  total: Generated<number>;
  counters: Json<Record<string, number>>;
  last_error: string | null;
  run_started_at: NullableTimestamp;
  run_finished_at: NullableTimestamp;
  updated_at: Generated<Timestamp>;
}

/** A record that matched several on the other side and was left unlinked (nothing written). */
export interface ContactAmbiguitiesTable {
  account: string;
  /** The destination's identity (connectors/crm destinationIdOf: portal or org). */
  destination: string;
  /** The side of `record_id`: platform or crm. */
  side: string;
  record_id: string;
  candidates: Json<string[]>;
  reason: string;
  seen_at: Generated<Date>;
}
