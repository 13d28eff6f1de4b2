// The quarantine retry as the dashboard starts it: re-runs open quarantined records of one account's
// stream (some by id, or all of them) through the sync's own path, and says how each ended.
import { workflowRef } from './workflow-ref';

export interface QuarantineRetryInput {
  account: string;
  stream: string;
  /** These records; all of the stream's open ones when absent. */
  recordIds?: string[];
}

/** How one record's retry ended. */
export type QuarantineRetryOutcome =
  /** Read again (from the platform, or its stored raw record) and stored: it left the quarantine. */
  | 'stored'
  /** Still unreadable: it stays quarantined with the new reason. */
  | 'still-invalid'
  /** Not a sync stream's record (e.g. a report schedule): the sync cannot re-run it. */
  | 'not-retryable'
  /** Not (or no longer) quarantined. */
  | 'not-open';

export interface QuarantineRetryRecordResult {
  recordId: string;
  outcome: QuarantineRetryOutcome;
  /** Where the record was read from: the platform again, or the raw record kept in the quarantine. */
  source: 'platform' | 'raw' | null;
}

/** One batch of records, as the activity returns it: `after` is where the next batch starts. */
export interface QuarantineRetryBatch {
  results: QuarantineRetryRecordResult[];
  after: string | null;
}

export interface QuarantineRetryResult {
  stored: number;
  stillInvalid: number;
  notRetryable: number;
  notOpen: number;
  /** The first results (ids and outcomes only: reasons stay in the warehouse, out of histories). */
  results: QuarantineRetryRecordResult[];
}

/** Records per activity call. */
export const QUARANTINE_RETRY_BATCH = 100;

/** Results the workflow returns in full (its counts cover the rest). */
export const QUARANTINE_RETRY_RESULTS_KEPT = 200;

/** The signature of `workflows/quarantine-retry.ts`. */
export type QuarantineRetryWorkflow = (input: QuarantineRetryInput) => Promise<QuarantineRetryResult>;

/** Start the retry through this. */
export const quarantineRetryWorkflow = workflowRef<QuarantineRetryWorkflow>('quarantineRetry');

/** Workflow id of a retry: account and stream (no personal data), and a unique suffix. */
export function quarantineRetryWorkflowId(account: string, stream: string, unique: string): string {
  return `quarantine-retry-${account}-${stream}-${unique}`;
}
