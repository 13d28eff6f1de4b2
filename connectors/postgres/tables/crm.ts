// CRM state: the key → CRM id mapping, and the built-in CRM destination's tables.
import type { ColumnType, Generated, Insertable, Selectable, Updateable } from 'kysely';

type Timestamp = ColumnType<Date, Date | string, Date | string>;
type NullableTimestamp = ColumnType<Date | null, Date | string | null, Date | string | null>;

/**
 * Kinds of CRM object callsync creates and maps: call logs, callback tasks, contacts, SMS and voice
 * messages logged on contacts, and `outcome` (the CRM outcome last written back to a call's CDR).
 */
export type CrmObjectKind = 'call_log' | 'task' | 'contact' | 'sms' | 'voicemail' | 'outcome';

/** One CRM object callsync created: (destination, kind, source_key) is unique. */
export interface CrmObjectsTable {
  account: string;
  /**
   * The destination's identity (connectors/crm destinationIdOf: `hubspot:<token id>`,
   * `salesforce:<instance URL>`, `builtin`); the type alone in rows not claimed yet (crm_destination_claims).
   */
  destination: string;
  kind: CrmObjectKind;
  /** callsync's idempotency key (e.g. `<account>:<call_id>`). */
  source_key: string;
  crm_id: string;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}
export type CrmObjectRow = Selectable<CrmObjectsTable>;
export type NewCrmObjectRow = Insertable<CrmObjectsTable>;

/** Contacts the built-in destination created for unknown callers. */
export interface BuiltinContactsTable {
  id: Generated<number>;
  account: string;
  /** E.164. */
  phone: string;
  name: string | null;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}
export type BuiltinContactRow = Selectable<BuiltinContactsTable>;

/** Call logs of the built-in destination: one per call key, updated in place. */
export interface BuiltinCallLogsTable {
  id: Generated<number>;
  account: string;
  key: string;
  title: string;
  direction: string;
  status: string;
  started_at: Timestamp;
  duration_seconds: number;
  from_number: string | null;
  to_number: string | null;
  user_email: string | null;
  contact_id: string | null;
  contact_kind: string | null;
  contact_name: string | null;
  recording_url: string | null;
  summary: string | null;
  transcript_excerpt: string | null;
  sentiment: string | null;
  body: Generated<string>;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}
export type BuiltinCallLogRow = Selectable<BuiltinCallLogsTable>;
export type NewBuiltinCallLogRow = Insertable<BuiltinCallLogsTable>;
export type BuiltinCallLogUpdate = Updateable<BuiltinCallLogsTable>;

/** Callback tasks of the built-in destination. */
export interface BuiltinTasksTable {
  id: Generated<number>;
  account: string;
  key: string;
  subject: string;
  body: string;
  /** open | closed */
  status: string;
  due_at: Timestamp;
  caller_number: string;
  assignee_email: string | null;
  contact_id: string | null;
  contact_kind: string | null;
  contact_name: string | null;
  closed_at: NullableTimestamp;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}
export type BuiltinTaskRow = Selectable<BuiltinTasksTable>;
export type NewBuiltinTaskRow = Insertable<BuiltinTasksTable>;

/** The built-in CRM's SMS and voice messages, logged on the contact. */
export interface BuiltinMessagesTable {
  id: Generated<number>;
  account: string;
  /** `<account>:sms:<id>` or `<account>:voicemail:<id>`. */
  key: string;
  /** sms | voicemail */
  channel: string;
  /** inbound | outbound */
  direction: string;
  at: Timestamp;
  from_number: string | null;
  to_number: string | null;
  title: string;
  body: string;
  user_email: string | null;
  contact_id: string;
  contact_kind: string;
  contact_name: string | null;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}
export type BuiltinMessageRow = Selectable<BuiltinMessagesTable>;
export type NewBuiltinMessageRow = Insertable<BuiltinMessagesTable>;

/** Which destination an account's type-only rows (written before mappings had identities) were given. */
export interface CrmDestinationClaimsTable {
  account: string;
  /** The destination type the old rows held (`hubspot`, `salesforce`). */
  type: string;
  /** The identity they hold now: the account's configured destination when they were claimed. */
  destination: string;
  /** How many rows were claimed (every table). */
  rows: number;
  claimed_at: Generated<Date>;
}
