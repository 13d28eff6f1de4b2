// Companies onboarded at run time, and the progress of importing an account's past calls into its CRM.
import type { ColumnType, Generated, Selectable } from 'kysely';

type Timestamp = ColumnType<Date, Date | string, Date | string>;

/** An account added with `callsync accounts add`: its configuration sealed (SecretBox), never in clear. */
export interface StoredAccountsTable {
  name: string;
  sealed_config: string;
  created_at: Generated<Date>;
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>;
  /** From a sequence: raised on every add and change, so processes notice by max(version). */
  version: ColumnType<number, never, never>;
}
export type StoredAccountRow = Selectable<StoredAccountsTable>;

/** How far `callsync crm import` got for one account and CRM destination. */
export interface CrmImportCheckpointsTable {
  account: string;
  destination: string;
  since: Timestamp;
  until: Timestamp;
  /** The last call (live id) done, in ascending order; null before the first. */
  last_call_id: ColumnType<number | null, number | null, number | null>;
  done: ColumnType<number, number | undefined, number>;
  created: ColumnType<number, number | undefined, number>;
  total: number;
  started_at: ColumnType<Date, Date | string | undefined, Date | string>;
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>;
  finished_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
}
export type CrmImportCheckpointRow = Selectable<CrmImportCheckpointsTable>;
