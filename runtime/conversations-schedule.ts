// The Temporal Schedules of the conversations pass (SMS and voice messages onto CRM contacts): one
// per account, every `conversations.every` (the account's own, when it overrides it), kept in step
// with the config.
import type { Client } from '@temporalio/client';
import { conversationsOf } from '../config/account-settings';
import type { CallsyncConfig } from '../config/schema';
import { conversationsScheduleId, conversationsWorkflow } from '../contracts';
import { applyIntervalSchedule, type ScheduleOutcome } from './interval-schedule';

/** Creates, updates or deletes each account's conversations schedule to match the config. */
export async function applyConversationsSchedules(
  client: Client,
  config: CallsyncConfig,
): Promise<Record<string, ScheduleOutcome>> {
  const outcome: Record<string, ScheduleOutcome> = {};
  for (const { name } of config.accounts) {
    const c = conversationsOf(config, name);
    outcome[name] = await applyIntervalSchedule(client, {
      scheduleId: conversationsScheduleId(name),
      // Only while some part of the pass is switched on.
      every: c.sms || c.voicemail ? c.every : null,
      action: {
        type: 'startWorkflow',
        workflowType: conversationsWorkflow,
        workflowId: conversationsScheduleId(name),
        taskQueue: config.temporal.taskQueue,
        args: [{ account: name }],
      },
    });
  }
  return outcome;
}
