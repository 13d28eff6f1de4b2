// Plain data passed between the sync workflows and activities (no records: ids, cursors, counts).

/** Where an incremental read stands: pages before `page` of the filter `cursor >= since` are committed. */
export interface SyncCursor {
  /** Lower bound of the cursor field (`YYYY-MM-DD HH:MM:SS`), or null for the whole collection. */
  since: string | null;
  /** Upper bound (exclusive) for bounded reads such as backfill windows. */
  until: string | null;
  /** Next page to read (1-based). */
  page: number;
  /** Largest cursor value committed so far. */
  max: string | null;
  /** The read reached its end (the next run starts from `max`). */
  done?: true;
}

export interface SyncStreamInput {
  account: string;
  stream: string;
  /** Carried over continue-as-new. */
  carried?: { pages: number; records: number; quarantined: number; runId: number };
}

export interface SyncPageInput {
  account: string;
  stream: string;
  /** Checkpoint scope: '' for the stream's incremental cursor, `window:<from>/<to>` for backfill windows. */
  scope: string;
}

export interface SyncPageResult {
  records: number;
  inserted: number;
  updated: number;
  quarantined: number;
  /** The cursor after this page; `done` when the read reached its end. */
  cursor: SyncCursor;
  done: boolean;
}

export interface BackfillInput {
  account: string;
  stream: string;
  /** Start of the range, `YYYY-MM-DD` or `YYYY-MM-DD HH:MM:SS` (UTC). */
  from: string;
  /** End of the range (exclusive); now when omitted. */
  to?: string;
  /** Window length in ms; from config when omitted. */
  windowMs?: number;
  /** Windows run at once; from config when omitted. */
  parallelism?: number;
}

export interface BackfillWindowInput {
  account: string;
  stream: string;
  from: string;
  to: string;
  /** Parent workflow to report progress to. */
  parentId?: string;
  carried?: { records: number; quarantined: number };
}

export interface BackfillProgress {
  windowsTotal: number;
  windowsDone: number;
  records: number;
  quarantined: number;
  startedAt: number;
  recordsPerSecond: number;
  done: boolean;
}
