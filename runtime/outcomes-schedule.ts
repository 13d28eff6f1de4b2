// The Temporal Schedules of the CRM outcome pass (outcomes back on the CDR): one per account whose CRM
// destination keeps call outcomes (HubSpot, Salesforce), every `outcomes.every`, kept in step with the
// config; removed when outcomes.enabled is off or the account's CRM has no outcomes. Both settings are
// the account's own when it overrides them (accounts[].overrides.outcomes).
import type { Client } from '@temporalio/client';
import { outcomesOf } from '../config/account-settings';
import type { CallsyncConfig } from '../config/schema';
import { crmOutcomesScheduleId, crmOutcomesWorkflow } from '../contracts';
import { crmDestinationOf } from './crm';
import { applyIntervalSchedule, type ScheduleOutcome } from './interval-schedule';

/** Destinations whose call logs carry an outcome agents set (the built-in CRM has no agents). */
const OUTCOME_DESTINATIONS = new Set(['hubspot', 'salesforce']);

/** The accounts whose CRM outcomes the config asks to write back. */
export function crmOutcomesAccounts(config: CallsyncConfig): string[] {
  return config.accounts
    .filter((a) => outcomesOf(config, a.name).enabled)
    .filter((a) => OUTCOME_DESTINATIONS.has(crmDestinationOf(config, a.name).type))
    .map((a) => a.name);
}

/** Creates, updates or deletes each account's outcome schedule to match the config. */
export async function applyCrmOutcomesSchedules(
  client: Client,
  config: CallsyncConfig,
  opts: { triggerImmediately?: boolean } = {},
): Promise<Record<string, ScheduleOutcome>> {
  const wanted = new Set(crmOutcomesAccounts(config));
  const outcome: Record<string, ScheduleOutcome> = {};
  for (const { name } of config.accounts) {
    outcome[name] = await applyIntervalSchedule(client, {
      scheduleId: crmOutcomesScheduleId(name),
      every: wanted.has(name) ? outcomesOf(config, name).every : null,
      action: {
        type: 'startWorkflow',
        workflowType: crmOutcomesWorkflow,
        workflowId: crmOutcomesScheduleId(name),
        taskQueue: config.temporal.taskQueue,
        args: [{ account: name }],
      },
      triggerImmediately: opts.triggerImmediately ?? false,
    });
  }
  return outcome;
}
