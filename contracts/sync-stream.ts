// The incremental sync workflow as schedules, the CLI and tests see it, and the plain data its
// activities pass back (no records: ids, cursors, counts).
import { workflowRef } from './workflow-ref';

/**
 * Where a read of a stream stands. Reads are keyset reads: pages of the records with `id > afterId`,
 * ascending by id, within `since <= cursor field < until` where those are set.
 */
export interface SyncCursor {
  /** Lower bound of the cursor field (`YYYY-MM-DD HH:MM:SS`), or null for no bound. */
  since: string | null;
  /** Upper bound (exclusive) for bounded reads such as backfill windows. */
  until: string | null;
  /** Pages this read has committed, plus one (1-based; part of a page's position). */
  page: number;
  /** Largest cursor value committed so far. */
  max: string | null;
  /** Records of this read with ids up to this one are committed: the next page is `id > afterId`. */
  afterId: number;
  /** Largest id committed so far, by this read and the ones before it in the same scope. */
  maxId?: number;
  /**
   * Immutable streams read by id: `[epoch ms, maxId]` when each recent run ended. The next run
   * reads after the largest id committed at least `sync.lateArrival` before it starts.
   */
  ended?: [number, number][];
  /**
   * A stream's first read (its whole history) of CDRs: the newest id when it began. Records with
   * larger ids were written while callsync watched, so their calls are in flight and reconciled as
   * an incremental read's are; the history before is not.
   */
  watchedAfterId?: number;
  /** The read reached its end (the next run starts a new one). */
  done?: true;
}

export interface SyncStreamInput {
  account: string;
  stream: string;
  /** Carried over continue-as-new. */
  carried?: { pages: number; records: number; quarantined: number; runId: number };
  /** Carried over continue-as-new once the pages are read: where the audio archive stands. */
  archive?: SyncArchiveCarried;
  /** Audio archive activities per run before the workflow continues as new (tests set it low). */
  archiveCallsPerRun?: number;
  /** Audio files per archive activity (tests set it low). */
  archiveBatch?: number;
}

/** The archive's state handed from run to run. */
export interface SyncArchiveCarried {
  /** Files archived so far. */
  archived: number;
  /** The backlog goes on after this id. */
  afterId?: number;
  /** Why reading the stream's pages failed: the workflow fails with it once the archive is done. */
  failure?: string;
}

/** What one sync run did. */
export interface SyncSummary {
  pages: number;
  records: number;
  quarantined: number;
  audioArchived: number;
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

export interface SyncPagesInput extends SyncPageInput {
  /** Pages are read one after another until the read ends or this much time has passed. */
  budgetMs: number;
}

/** What a run of pages did, summed; a retried attempt goes on from its last heartbeat's sums. */
export interface SyncPagesResult extends SyncPageResult {
  pages: number;
}

/** The signature of `workflows/sync-stream.ts`. */
export type SyncStreamWorkflow = (input: SyncStreamInput) => Promise<SyncSummary>;

/** Start or schedule a stream's sync through this. */
export const syncStreamWorkflow = workflowRef<SyncStreamWorkflow>('syncStream');
