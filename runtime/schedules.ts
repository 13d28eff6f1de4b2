// One sync loop per account (workflows/account-sync.ts) reads every configured stream at its
// interval; this file makes the running loops match the configuration (started, reconfigured,
// stopped), removes the per-stream Schedules of earlier versions, and runs one sync on demand.
import {
  WorkflowExecutionAlreadyStartedError,
  WorkflowIdConflictPolicy,
  WorkflowNotFoundError,
  type Client,
} from '@temporalio/client';
import type { CallsyncConfig } from '../config/schema';
import { STREAMS, streamDefinition } from '../sync/streams';
import {
  accountSyncWorkflow,
  accountSyncWorkflowId,
  configureLoopSignal,
  syncNowUpdate,
  syncStreamWorkflow,
  type LoopStream,
  type SyncStreamInput,
  type SyncSummary,
} from '../contracts';

/**
 * Prefix of the per-stream Schedules (`sync-<account>-<stream>`) earlier versions made: every one
 * left is deleted, the loops read those streams now. The loops' own ids (`sync-<account>`) share it.
 */
export const SCHEDULE_PREFIX = 'sync-';

/** What an account's loop should look like. */
export interface DesiredLoop {
  id: string;
  account: string;
  streams: LoopStream[];
}

/** The loops the configuration asks for: one per account, with every configured stream (all when none). */
export function desiredLoops(config: CallsyncConfig): DesiredLoop[] {
  const streams = config.sync.streams ?? Object.keys(STREAMS);
  return config.accounts.map((account) => ({
    id: accountSyncWorkflowId(account.name),
    account: account.name,
    streams: streams.map((stream) => ({
      stream,
      everyMs:
        streamDefinition(stream).kind === 'history'
          ? config.sync.historyInterval
          : config.sync.settingsInterval,
    })),
  }));
}

export interface ApplySchedulesResult {
  /** Loops started. */
  created: string[];
  /** Loops told new streams or intervals. */
  updated: string[];
  /** Loops of accounts no longer configured (stopped), and per-stream Schedules of earlier versions. */
  deleted: string[];
  unchanged: string[];
}

const sameStreams = (a: readonly LoopStream[], b: readonly LoopStream[]) =>
  JSON.stringify([...a].sort((x, y) => x.stream.localeCompare(y.stream))) ===
  JSON.stringify([...b].sort((x, y) => x.stream.localeCompare(y.stream)));

/**
 * Starts, reconfigures and stops account sync loops so Temporal matches the configuration, and
 * deletes the per-stream `sync-*` Schedules of earlier versions. A new loop reads every stream at once
 * (`triggerImmediately`, the default), so a fresh warehouse fills without waiting.
 */
export async function applySchedules(
  client: Client,
  config: CallsyncConfig,
  opts: { triggerImmediately?: boolean } = {},
): Promise<ApplySchedulesResult> {
  const result: ApplySchedulesResult = { created: [], updated: [], deleted: [], unchanged: [] };
  const desired = desiredLoops(config);
  for (const d of desired) {
    try {
      await client.workflow.start(accountSyncWorkflow, {
        workflowId: d.id,
        taskQueue: config.temporal.taskQueue,
        args: [
          {
            account: d.account,
            streams: d.streams,
            ...(opts.triggerImmediately === false ? { startLater: true } : {}),
          },
        ],
        workflowIdConflictPolicy: WorkflowIdConflictPolicy.FAIL,
        // What it follows, readable without a worker (the loop keeps it current when reconfigured).
        memo: { streams: d.streams },
      });
      result.created.push(d.id);
      continue;
    } catch (err) {
      if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
    }
    const handle = client.workflow.getHandle(d.id);
    const following = (await handle.describe()).memo?.streams as LoopStream[] | undefined;
    if (following && sameStreams(following, d.streams)) result.unchanged.push(d.id);
    else {
      await handle.signal(configureLoopSignal, d.streams);
      result.updated.push(d.id);
    }
  }

  const wanted = new Set(desired.map((d) => d.id));
  const running = client.workflow.list({
    query: `WorkflowType = '${accountSyncWorkflow.name}' AND ExecutionStatus = 'Running'`,
  });
  for await (const w of running) {
    if (wanted.has(w.workflowId)) continue;
    // An account removed from the configuration: its loop ends (a turn in flight is cancelled).
    await client.workflow.getHandle(w.workflowId).cancel();
    result.deleted.push(w.workflowId);
  }
  for await (const summary of client.schedule.list()) {
    if (summary.scheduleId.startsWith(SCHEDULE_PREFIX)) {
      await client.schedule.getHandle(summary.scheduleId).delete();
      result.deleted.push(summary.scheduleId);
    }
  }
  return result;
}

/**
 * Runs one sync of a stream now and returns its summary. With the account's loop running, the loop
 * reads it in its next turn (at once; a turn of that stream already running is followed by a fresh
 * one); without one, the workflow is started directly as `sync-<account>-<stream>-manual`.
 */
export async function triggerSync(
  client: Client,
  config: CallsyncConfig,
  account: string,
  stream: string,
): Promise<SyncSummary> {
  streamDefinition(stream);
  try {
    return await client.workflow
      .getHandle(accountSyncWorkflowId(account))
      .executeUpdate(syncNowUpdate, { args: [{ stream }] });
  } catch (err) {
    if (!(err instanceof WorkflowNotFoundError) && !isStreamNotInLoop(err)) throw err;
  }
  const input: SyncStreamInput = { account, stream };
  const wf = await client.workflow.start(syncStreamWorkflow, {
    taskQueue: config.temporal.taskQueue,
    workflowId: `${accountSyncWorkflowId(account)}-${stream}-manual`,
    workflowIdConflictPolicy: WorkflowIdConflictPolicy.USE_EXISTING,
    args: [input],
  });
  return wf.result();
}

/** The loop's validator refused the stream (not configured for the account). */
function isStreamNotInLoop(err: unknown): boolean {
  for (let e: unknown = err; e instanceof Error; e = e.cause)
    if (e.message.includes('is not synced by this account')) return true;
  return false;
}
