// The Temporal Schedule that runs webhook retention (config server.retention): one per deployment,
// kept in step with the configured interval like the sync schedules.
import {
  ScheduleNotFoundError,
  ScheduleOverlapPolicy,
  type Client,
  type ScheduleOptionsStartWorkflowAction,
} from '@temporalio/client';
import type { CallsyncConfig } from '../config/schema';
import {
  WEBHOOK_RETENTION_SCHEDULE_ID,
  webhookRetentionWorkflow,
  type WebhookRetentionWorkflow,
} from '../contracts';

function action(taskQueue: string): ScheduleOptionsStartWorkflowAction<WebhookRetentionWorkflow> {
  return {
    type: 'startWorkflow',
    workflowType: webhookRetentionWorkflow,
    workflowId: WEBHOOK_RETENTION_SCHEDULE_ID,
    taskQueue,
    args: [],
  };
}

/** Creates the retention schedule, or updates it when its interval or task queue changed. */
export async function applyRetentionSchedule(
  client: Client,
  config: CallsyncConfig,
): Promise<'created' | 'updated' | 'unchanged'> {
  const every = config.server.retention.every;
  const taskQueue = config.temporal.taskQueue;
  const handle = client.schedule.getHandle(WEBHOOK_RETENTION_SCHEDULE_ID);
  try {
    const current = await handle.describe();
    const intervals = current.spec.intervals ?? [];
    if (intervals.length === 1 && intervals[0]?.every === every && current.action.taskQueue === taskQueue) {
      return 'unchanged';
    }
    await handle.update((prev) => ({
      ...prev,
      spec: { intervals: [{ every }] },
      action: action(taskQueue),
    }));
    return 'updated';
  } catch (err) {
    if (!(err instanceof ScheduleNotFoundError)) throw err;
  }
  await client.schedule.create({
    scheduleId: WEBHOOK_RETENTION_SCHEDULE_ID,
    spec: { intervals: [{ every }] },
    action: action(taskQueue),
    policies: { overlap: ScheduleOverlapPolicy.SKIP },
  });
  return 'created';
}
