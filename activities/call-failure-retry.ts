// Retrying a call follow-up that gave up (a CRM refusing, retries spent): the dashboard's Retry
// button and `callsync retry` start the call's lifecycle again, under the call's own workflow id,
// from its CDR. Exactly once, with the rest of callsync:
// - the failure row is claimed first (who, when), so two requests never both start a retry;
// - the start allows a new run only when the call's last run failed (ALLOW_DUPLICATE_FAILED_ONLY):
//   a run going on or a follow-up that completed is never started again, and the relay and the CDR
//   reconcile keep refusing to start a second lifecycle (REJECT_DUPLICATE), so late webhooks only
//   reach a retry while it runs (as signals; events are taken once by id);
// - the CRM write is keyed by the call (crm_objects), so the log the retry writes is the only one;
// - the retrying run writes how it ended on the row itself (finishCallRetry, or a new failure row
//   linked to it by recordCallFailure), whether or not anyone waits for it.
import { Context } from '@temporalio/activity';
import {
  WorkflowExecutionAlreadyStartedError,
  WorkflowIdReusePolicy,
  WorkflowNotFoundError,
  type Client,
} from '@temporalio/client';
import type { Kysely } from 'kysely';
import {
  claimCallFailureRetry,
  finishCallFailureRetry,
  latestCallFailure,
  releaseCallFailureRetry,
  setCallFailureRetryRun,
  unretriedCallFailures,
  type CallFailureRow,
  type Database,
} from '../connectors/postgres';
import { callLifecycleWorkflow, callWorkflowId } from '../contracts';
import type { ActivityDeps } from './deps';

/** What became of a retry request. */
export type CallRetryResult =
  /** A retry run started (workflow id and run id). */
  | { status: 'started'; failureId: string; workflowId: string; runId: string }
  /** The call's follow-up never failed: there is nothing to retry. */
  | { status: 'no-failure' }
  /** The failure was retried before (by whom, when, and how it ended: running until it ends). */
  | {
      status: 'already-retried';
      failureId: string;
      by: string | null;
      at: Date | null;
      outcome: 'running' | 'succeeded' | 'failed';
    }
  /** The call's last run did not fail (one is going on, or it completed): nothing was started. */
  | { status: 'not-failed'; failureId: string; workflowId: string; runStatus: string };

export interface CallRetryContext {
  db: Kysely<Database>;
  client: Client;
  taskQueue: string;
}

/** A retry claimed this long ago whose run was never named may be asked for again (its starter died). */
const STALE_CLAIM_MS = 2 * 60_000;

/** Whether a retry may be asked for: never claimed, or claimed by a starter that died before starting it. */
export function retryable(row: CallFailureRow, now = new Date()): boolean {
  if (row.retry_outcome !== null) return false;
  if (row.retry_requested_at === null) return true;
  return row.retry_run_id === null && now.getTime() - row.retry_requested_at.getTime() > STALE_CLAIM_MS;
}

/** Where a failure's retry stands, for people: null when it was never retried. */
export function retryState(row: CallFailureRow): 'running' | 'succeeded' | 'failed' | null {
  if (row.retry_outcome) return row.retry_outcome;
  return row.retry_requested_at ? 'running' : null;
}

/** Retries the latest failure of call `callId` of `account` for `by` (`cli:<user>`, `dashboard:<user>`). */
export async function retryCallFailure(
  ctx: CallRetryContext,
  req: { account: string; callId: number; by: string },
): Promise<CallRetryResult> {
  const row = await latestCallFailure(ctx.db, req.account, req.callId);
  if (!row) return { status: 'no-failure' };
  return retryFailureRow(ctx, row, req.by);
}

/** Retries every call of `accounts` whose latest failure (since `since`) was never retried. */
export async function retryUnretriedCallFailures(
  ctx: CallRetryContext,
  req: { accounts: readonly string[]; since?: Date | undefined; by: string },
): Promise<{ account: string; callId: number; result: CallRetryResult }[]> {
  const rows = await unretriedCallFailures(ctx.db, { accounts: req.accounts, since: req.since });
  const results = [];
  // One after the other: each retry is a CRM write on the vendor's rate-limited queue anyway.
  for (const row of rows)
    results.push({
      account: row.account,
      callId: Number(row.subject),
      result: await retryFailureRow(ctx, row, req.by),
    });
  return results;
}

async function retryFailureRow(
  ctx: CallRetryContext,
  row: CallFailureRow,
  by: string,
): Promise<CallRetryResult> {
  const already = (r: CallFailureRow): CallRetryResult => ({
    status: 'already-retried',
    failureId: r.id,
    by: r.retry_requested_by,
    at: r.retry_requested_at,
    outcome: retryState(r) ?? 'running',
  });
  // The claim decides (a stale one, whose starter died before starting the run, is taken again).
  if (!(await claimCallFailureRetry(ctx.db, { id: row.id, by, staleMs: STALE_CLAIM_MS }))) {
    const now = await latestCallFailure(ctx.db, row.account, Number(row.subject));
    return already(now?.id === row.id ? now : row);
  }
  const callId = Number(row.subject);
  const workflowId = callWorkflowId(row.account, callId);
  try {
    const handle = await ctx.client.workflow.start(callLifecycleWorkflow, {
      workflowId,
      taskQueue: ctx.taskQueue,
      // From the CDR: the call has ended; its timeline is in the warehouse already.
      args: [{ account: row.account, callId, fromCdr: true, retryOf: row.id }],
      workflowIdReusePolicy: WorkflowIdReusePolicy.ALLOW_DUPLICATE_FAILED_ONLY,
    });
    await setCallFailureRetryRun(ctx.db, { id: row.id, runId: handle.firstExecutionRunId });
    return { status: 'started', failureId: row.id, workflowId, runId: handle.firstExecutionRunId };
  } catch (err) {
    if (!(err instanceof WorkflowExecutionAlreadyStartedError)) {
      await releaseCallFailureRetry(ctx.db, row.id);
      throw err;
    }
    // The call's last run did not fail. A run going on is the one that retries it (the claim was
    // stale); a completed one already did the follow-up.
    const described = await ctx.client.workflow
      .getHandle(workflowId)
      .describe()
      .catch((e: unknown) => {
        if (e instanceof WorkflowNotFoundError) return undefined;
        throw e;
      });
    const runStatus = described?.status.name ?? 'UNKNOWN';
    if (described && runStatus === 'RUNNING')
      await setCallFailureRetryRun(ctx.db, { id: row.id, runId: described.runId });
    else if (described && runStatus === 'COMPLETED')
      await finishCallFailureRetry(ctx.db, { id: row.id, outcome: 'succeeded', runId: described.runId });
    else await releaseCallFailureRetry(ctx.db, row.id);
    return { status: 'not-failed', failureId: row.id, workflowId, runStatus };
  }
}

/** The activity a retrying run ends with. */
export function createCallRetryActivities(deps: ActivityDeps) {
  return {
    /** Writes on the retried failure's row that its retry run completed the follow-up. */
    async finishCallRetry(input: { failureId: string }): Promise<void> {
      const runId = Context.current().info.workflowExecution?.runId ?? 'unknown';
      await finishCallFailureRetry(deps.warehouse.db, { id: input.failureId, outcome: 'succeeded', runId });
    },
  };
}
