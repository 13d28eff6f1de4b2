// The Temporal Schedules of the transcription sweep (config transcription.google): one per account,
// every `transcription.google.every`, kept in step with the config like the sync schedules; removed
// when the block is gone.
import {
  ScheduleNotFoundError,
  ScheduleOverlapPolicy,
  type Client,
  type ScheduleOptionsStartWorkflowAction,
} from '@temporalio/client';
import type { CallsyncConfig } from '../config/schema';
import {
  transcribeRecordingsWorkflow,
  transcriptionScheduleId,
  type TranscribeRecordingsWorkflow,
} from '../contracts';

function action(
  account: string,
  taskQueue: string,
): ScheduleOptionsStartWorkflowAction<TranscribeRecordingsWorkflow> {
  return {
    type: 'startWorkflow',
    workflowType: transcribeRecordingsWorkflow,
    workflowId: transcriptionScheduleId(account),
    taskQueue,
    args: [{ account }],
  };
}

/** Creates, updates or deletes each account's transcription schedule to match the config. */
export async function applyTranscriptionSchedules(
  client: Client,
  config: CallsyncConfig,
): Promise<Record<string, 'created' | 'updated' | 'unchanged' | 'deleted' | 'absent'>> {
  const google = config.transcription.google;
  const taskQueue = config.temporal.taskQueue;
  const outcome: Record<string, 'created' | 'updated' | 'unchanged' | 'deleted' | 'absent'> = {};
  for (const { name } of config.accounts) {
    const handle = client.schedule.getHandle(transcriptionScheduleId(name));
    let current: Awaited<ReturnType<typeof handle.describe>> | undefined;
    try {
      current = await handle.describe();
    } catch (err) {
      if (!(err instanceof ScheduleNotFoundError)) throw err;
    }
    if (!google) {
      if (current) await handle.delete();
      outcome[name] = current ? 'deleted' : 'absent';
      continue;
    }
    const every = google.every;
    if (current) {
      const intervals = current.spec.intervals ?? [];
      if (intervals.length === 1 && intervals[0]?.every === every && current.action.taskQueue === taskQueue) {
        outcome[name] = 'unchanged';
        continue;
      }
      await handle.update((prev) => ({
        ...prev,
        spec: { intervals: [{ every }] },
        action: action(name, taskQueue),
      }));
      outcome[name] = 'updated';
      continue;
    }
    await client.schedule.create({
      scheduleId: transcriptionScheduleId(name),
      spec: { intervals: [{ every }] },
      action: action(name, taskQueue),
      policies: { overlap: ScheduleOverlapPolicy.SKIP },
    });
    outcome[name] = 'created';
  }
  return outcome;
}
