// Erasure of one person: the short-lived request, the record of each erasure, the suppression list.
import type { ColumnType, Generated, Selectable } from 'kysely';
import type { JsonValue } from './columns';

/** A running erasure's identifier, kept only while its workflow runs (keyed by the identifier's hash). */
export interface ErasureRequestsTable {
  subject_hash: string;
  kind: 'number' | 'email';
  /** The E.164 number or the lower-case e-mail. */
  subject: string;
  /** What the erasure found on its way (names, call ids), so a resumed run still knows them. */
  found: ColumnType<JsonValue, string | undefined, string>;
  created_at: Generated<Date>;
}
export type ErasureRequestRow = Selectable<ErasureRequestsTable>;

/** A report file an erasure deleted: its path (identifiers and names erased) and how to build it again. */
export interface RemovedFile {
  file: string;
  regenerate: string;
  /** The report run that wrote it, when one did (the erasure builds it again from the erased warehouse). */
  runId?: number;
  /** Built again by the erasure, from the erased warehouse. */
  rebuilt?: boolean;
}

/** One erasure: what and when, with counts per table and store; never the identifier itself. */
export interface ErasuresTable {
  id: Generated<string>;
  subject_hash: string;
  kind: string;
  workflow_id: string;
  /** running | done | failed */
  status: Generated<string>;
  counts: ColumnType<JsonValue, string | undefined, string>;
  error: string | null;
  /** Report files deleted because they could not be rewritten, with how to build each again. */
  removed_files: ColumnType<RemovedFile[], string | undefined, string>;
  requested_at: Generated<Date>;
  finished_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
}
export type ErasureRow = Selectable<ErasuresTable>;

/** A keyed hash of an erased identifier; syncs and webhooks anonymise what matches one. */
export interface ErasureSuppressionsTable {
  id: Generated<string>;
  /** number | email | tail | call */
  kind: string;
  hash: string;
  created_at: Generated<Date>;
}
