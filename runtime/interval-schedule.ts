// One Temporal Schedule that runs a workflow every so often, kept in step with the config: created when
// wanted and missing, updated when its interval or task queue changed, deleted when no longer wanted.
// The per-account sweeps (transcription, contact sync, conversations) are each one of these.
import {
  ScheduleNotFoundError,
  ScheduleOverlapPolicy,
  type Client,
  type ScheduleOptionsStartWorkflowAction,
  type Workflow,
} from '@temporalio/client';

/** What applying a schedule did. */
export type ScheduleOutcome = 'created' | 'updated' | 'unchanged' | 'deleted' | 'absent';

export interface IntervalSchedule<W extends Workflow> {
  scheduleId: string;
  /** The interval in ms; null deletes the schedule (its part of the config is off). */
  every: number | null;
  action: ScheduleOptionsStartWorkflowAction<W>;
  /** Run once at creation instead of waiting a whole interval. */
  triggerImmediately?: boolean;
}

/** Creates, updates or deletes one interval schedule to match `want`. Overlapping runs are skipped. */
export async function applyIntervalSchedule<W extends Workflow>(
  client: Client,
  want: IntervalSchedule<W>,
): Promise<ScheduleOutcome> {
  const handle = client.schedule.getHandle(want.scheduleId);
  const current = await handle.describe().catch((err: unknown) => {
    if (err instanceof ScheduleNotFoundError) return undefined;
    throw err;
  });
  const { every, action } = want;
  if (every === null) {
    if (current) await handle.delete();
    return current ? 'deleted' : 'absent';
  }
  if (!current) {
    await client.schedule.create({
      scheduleId: want.scheduleId,
      spec: { intervals: [{ every }] },
      action,
      policies: { overlap: ScheduleOverlapPolicy.SKIP },
      ...(want.triggerImmediately ? { state: { triggerImmediately: true } } : {}),
    });
    return 'created';
  }
  const intervals = current.spec.intervals ?? [];
  if (
    intervals.length === 1 &&
    intervals[0]?.every === every &&
    current.action.taskQueue === action.taskQueue
  )
    return 'unchanged';
  await handle.update((prev) => ({ ...prev, spec: { intervals: [{ every }] }, action }));
  return 'updated';
}
