// The Temporal Schedules of the transcription sweep (config transcription.google): one per account,
// every `transcription.google.every`, kept in step with the config like the sync schedules; removed
// when the block is gone.
import type { Client } from '@temporalio/client';
import type { CallsyncConfig } from '../config/schema';
import { transcribeRecordingsWorkflow, transcriptionScheduleId } from '../contracts';
import { applyIntervalSchedule, type ScheduleOutcome } from './interval-schedule';

/** Creates, updates or deletes each account's transcription schedule to match the config. */
export async function applyTranscriptionSchedules(
  client: Client,
  config: CallsyncConfig,
): Promise<Record<string, ScheduleOutcome>> {
  const outcome: Record<string, ScheduleOutcome> = {};
  for (const { name } of config.accounts) {
    outcome[name] = await applyIntervalSchedule(client, {
      scheduleId: transcriptionScheduleId(name),
      every: config.transcription.google?.every ?? null,
      action: {
        type: 'startWorkflow',
        workflowType: transcribeRecordingsWorkflow,
        workflowId: transcriptionScheduleId(name),
        taskQueue: config.temporal.taskQueue,
        args: [{ account: name }],
      },
    });
  }
  return outcome;
}
