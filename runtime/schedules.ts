// One Temporal Schedule per (account, stream) runs syncStream at the stream's interval; this file makes
// the schedules in Temporal match the configuration, and runs one sync on demand.
import {
  ScheduleNotFoundError,
  ScheduleOverlapPolicy,
  WorkflowIdConflictPolicy,
  type Client,
  type ScheduleDescription,
  type ScheduleOptionsStartWorkflowAction,
  type ScheduleUpdateOptions,
} from '@temporalio/client';
import type { CallsyncConfig } from '../config/schema';
import { STREAMS, streamDefinition } from '../sync/streams';
import {
  syncStreamWorkflow,
  type SyncStreamInput,
  type SyncStreamWorkflow,
  type SyncSummary,
} from '../contracts';

/** Prefix of every schedule (and scheduled workflow id) this module owns. */
export const SCHEDULE_PREFIX = 'sync-';

/** A missed run is caught up only this long after its time; later, the next interval brings the stream up to date. */
const CATCHUP_WINDOW_MS = 60_000;

/** The schedule (and workflow) id of one stream of one account. */
export function scheduleId(account: string, stream: string): string {
  return `${SCHEDULE_PREFIX}${account}-${stream}`;
}

/** What a schedule should look like. */
export interface DesiredSchedule {
  id: string;
  account: string;
  stream: string;
  intervalMs: number;
}

/** The schedules the configuration asks for: every account × configured stream (all streams when none). */
export function desiredSchedules(config: CallsyncConfig): DesiredSchedule[] {
  const streams = config.sync.streams ?? Object.keys(STREAMS);
  return config.accounts.flatMap((account) =>
    streams.map((stream) => {
      const kind = streamDefinition(stream).kind;
      return {
        id: scheduleId(account.name, stream),
        account: account.name,
        stream,
        intervalMs: kind === 'history' ? config.sync.historyInterval : config.sync.settingsInterval,
      };
    }),
  );
}

export interface ApplySchedulesResult {
  created: string[];
  updated: string[];
  deleted: string[];
  unchanged: string[];
}

function action(
  d: DesiredSchedule,
  taskQueue: string,
): ScheduleOptionsStartWorkflowAction<SyncStreamWorkflow> {
  const input: SyncStreamInput = { account: d.account, stream: d.stream };
  return {
    type: 'startWorkflow',
    workflowType: syncStreamWorkflow,
    workflowId: d.id,
    taskQueue,
    args: [input],
  };
}

function differs(current: ScheduleDescription, d: DesiredSchedule, taskQueue: string): boolean {
  const intervals = current.spec.intervals ?? [];
  const a = current.action;
  return (
    intervals.length !== 1 ||
    intervals[0]?.every !== d.intervalMs ||
    (current.spec.calendars ?? []).length > 0 ||
    a.workflowType !== syncStreamWorkflow.name ||
    a.taskQueue !== taskQueue ||
    a.workflowId !== d.id ||
    JSON.stringify(a.args) !== JSON.stringify([{ account: d.account, stream: d.stream }]) ||
    current.policies.overlap !== ScheduleOverlapPolicy.SKIP
  );
}

/**
 * Creates, updates and deletes `sync-*` schedules so Temporal matches the configuration. New
 * schedules run once at once (`triggerImmediately`), so a fresh warehouse fills without waiting.
 */
export async function applySchedules(
  client: Client,
  config: CallsyncConfig,
  opts: { triggerImmediately?: boolean } = {},
): Promise<ApplySchedulesResult> {
  const taskQueue = config.temporal.taskQueue;
  const result: ApplySchedulesResult = { created: [], updated: [], deleted: [], unchanged: [] };
  const desired = desiredSchedules(config);
  const wanted = new Set(desired.map((d) => d.id));

  for (const d of desired) {
    const handle = client.schedule.getHandle(d.id);
    let current: ScheduleDescription | undefined;
    try {
      current = await handle.describe();
    } catch (err) {
      if (!(err instanceof ScheduleNotFoundError)) throw err;
    }
    if (!current) {
      await client.schedule.create({
        scheduleId: d.id,
        spec: { intervals: [{ every: d.intervalMs }] },
        action: action(d, taskQueue),
        policies: { overlap: ScheduleOverlapPolicy.SKIP, catchupWindow: CATCHUP_WINDOW_MS },
        state: { triggerImmediately: opts.triggerImmediately ?? true },
      });
      result.created.push(d.id);
    } else if (differs(current, d, taskQueue)) {
      await handle.update(
        (prev): ScheduleUpdateOptions<ScheduleOptionsStartWorkflowAction<SyncStreamWorkflow>> => ({
          ...prev,
          spec: { intervals: [{ every: d.intervalMs }] },
          action: action(d, taskQueue),
          policies: {
            ...prev.policies,
            overlap: ScheduleOverlapPolicy.SKIP,
            catchupWindow: CATCHUP_WINDOW_MS,
          },
        }),
      );
      result.updated.push(d.id);
    } else {
      result.unchanged.push(d.id);
    }
  }

  for await (const summary of client.schedule.list()) {
    if (summary.scheduleId.startsWith(SCHEDULE_PREFIX) && !wanted.has(summary.scheduleId)) {
      await client.schedule.getHandle(summary.scheduleId).delete();
      result.deleted.push(summary.scheduleId);
    }
  }
  return result;
}

/**
 * Runs one sync of a stream now and returns its summary. With a schedule, the schedule is
 * triggered (its SKIP policy applies: a running sync is joined, not doubled); without one, the
 * workflow is started directly as `sync-<account>-<stream>-manual`.
 */
export async function triggerSync(
  client: Client,
  config: CallsyncConfig,
  account: string,
  stream: string,
  opts: { timeoutMs?: number } = {},
): Promise<SyncSummary> {
  streamDefinition(stream);
  const handle = client.schedule.getHandle(scheduleId(account, stream));
  let before: ScheduleDescription | undefined;
  try {
    before = await handle.describe();
  } catch (err) {
    if (!(err instanceof ScheduleNotFoundError)) throw err;
  }
  if (!before) {
    const input: SyncStreamInput = { account, stream };
    const wf = await client.workflow.start(syncStreamWorkflow, {
      taskQueue: config.temporal.taskQueue,
      workflowId: `${scheduleId(account, stream)}-manual`,
      workflowIdConflictPolicy: WorkflowIdConflictPolicy.USE_EXISTING,
      args: [input],
    });
    return wf.result();
  }

  const seen = new Set(before.info.recentActions.map((a) => a.action.workflow.workflowId));
  await handle.trigger(ScheduleOverlapPolicy.SKIP);
  // The schedule starts the workflow asynchronously: wait for it to show up (or for the running one
  // the trigger was skipped for).
  const deadline = Date.now() + (opts.timeoutMs ?? 15_000);
  for (;;) {
    const now = await handle.describe();
    const started =
      now.info.recentActions.map((a) => a.action.workflow).find((w) => !seen.has(w.workflowId)) ??
      now.info.runningActions[0]?.workflow ??
      before.info.runningActions[0]?.workflow;
    if (started) {
      return client.workflow.getHandle<SyncStreamWorkflow>(started.workflowId).result();
    }
    if (Date.now() > deadline) {
      throw new Error(`schedule ${handle.scheduleId} was triggered but started no workflow`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
}
