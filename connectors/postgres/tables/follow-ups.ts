// State of calls' follow-ups that is not a CRM object: failures recorded by the workflows, auto-dial
// attempts, and the latest call that reached each caller.
import type { ColumnType, Generated, Insertable, Selectable } from 'kysely';

/** A call or callback workflow whose activity failed for good (one row per workflow run). */
export interface CallFailuresTable {
  id: Generated<string>;
  account: string;
  workflow_id: string;
  run_id: string;
  /** callLifecycle or callback. */
  workflow_type: string;
  /** The call id, or the caller's number for a callback. */
  subject: string;
  /** The activity that gave up (logCall, upsertCallbackTask, placeCallback, …). */
  activity: string;
  /** The failure's type name (CrmBadRequestError, RateLimitedError, …). */
  failure_type: string;
  message: string;
  /** Why Temporal stopped retrying (NON_RETRYABLE_FAILURE, MAXIMUM_ATTEMPTS_REACHED, TIMEOUT). */
  retry_state: string | null;
  failed_at: Generated<Date>;
  /** The failure (id) whose retry this run was; null for a first failure. */
  retry_of: ColumnType<string | null, string | number | null | undefined, string | number | null>;
  /** Who asked for a retry (`dashboard:<user>`, `cli:<user>`) and when; null: not retried. */
  retry_requested_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  retry_requested_by: ColumnType<string | null, string | null | undefined, string | null>;
  /** The run that retried it. */
  retry_run_id: ColumnType<string | null, string | null | undefined, string | null>;
  /** How the retry ended: succeeded (the follow-up completed) or failed (a newer row says why). */
  retry_outcome: ColumnType<RetryOutcome | null, RetryOutcome | null | undefined, RetryOutcome | null>;
  retry_finished_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
}

/** How a retried call follow-up ended. */
export type RetryOutcome = 'succeeded' | 'failed';
export type CallFailureRow = Selectable<CallFailuresTable>;
export type NewCallFailureRow = Insertable<CallFailuresTable>;

/** One auto-dial attempt (POST /calls), recorded before the request is sent. */
export interface CallbackDialsTable {
  /** `<workflow id>/<run id>#<attempt n>`: one row per dial attempt of a callback run. */
  attempt_key: string;
  account: string;
  number: string;
  /** Calls to the number (live ids) the platform had before this attempt: not this attempt's call. */
  known_call_ids: ColumnType<string[], number[], number[]>;
  /** The call this attempt placed, once known. */
  call_id: ColumnType<string | null, number | null, number | null>;
  requested_at: Generated<Date>;
  placed_at: ColumnType<Date | null, Date | string | null, Date | string | null>;
  /** When this attempt's POST /calls was last sent (set just before sending); null: never sent. */
  sent_at: ColumnType<Date | null, Date | string | null, Date | string | null>;
  /**
   * The newest start (platform time) of the calls to the number before this attempt: a retry reads
   * only the calls from then on. Null when the number had none (or for attempts from before).
   */
  calls_since: ColumnType<Date | null, Date | string | null, Date | string | null>;
}
export type CallbackDialRow = Selectable<CallbackDialsTable>;

/**
 * Per account and caller, the latest-starting call that reached them. `caller_key` is the keyed hash
 * of the number (lib/caller-key.ts), as in callback workflow ids: no number in clear.
 */
export interface CallerReachesTable {
  account: string;
  caller_key: string;
  /** The reaching call's start (the platform's calldate). */
  reached_at: ColumnType<Date, Date | string, Date | string>;
  call_id: ColumnType<number, number, number>;
  updated_at: Generated<Date>;
}
export type CallerReachRow = Selectable<CallerReachesTable>;
