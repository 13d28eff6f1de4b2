// The Temporal Schedules of the two-way contact sync (config contacts): one per account whose CRM
// destination keeps contacts (HubSpot, Salesforce, Pipedrive, Dynamics 365, Zendesk, Zoho CRM),
// every `contacts.every`, kept in step with the config like the sync schedules; removed when
// contacts.enabled is off or the account's CRM cannot sync contacts. Both settings are the account's
// own when it overrides them (accounts[].overrides.contacts).
import type { Client } from '@temporalio/client';
import { contactSyncOf } from '../config/account-settings';
import type { CallsyncConfig } from '../config/schema';
import { contactSyncId, contactSyncWorkflow } from '../contracts';
import { crmDestinationOf } from './crm';
import { applyIntervalSchedule, type ScheduleOutcome } from './interval-schedule';

/** Destinations the contact sync can work with. */
const CONTACT_DESTINATIONS = new Set(['hubspot', 'salesforce', 'pipedrive', 'dynamics', 'zendesk', 'zoho']);

/** The accounts whose contacts the config asks to sync. */
export function contactSyncAccounts(config: CallsyncConfig): string[] {
  return config.accounts
    .filter((a) => contactSyncOf(config, a.name).enabled)
    .filter((a) => CONTACT_DESTINATIONS.has(crmDestinationOf(config, a.name).type))
    .map((a) => a.name);
}

/** Creates, updates or deletes each account's contact sync schedule to match the config. */
export async function applyContactSyncSchedules(
  client: Client,
  config: CallsyncConfig,
  opts: { triggerImmediately?: boolean } = {},
): Promise<Record<string, ScheduleOutcome>> {
  const wanted = new Set(contactSyncAccounts(config));
  const outcome: Record<string, ScheduleOutcome> = {};
  for (const { name } of config.accounts) {
    outcome[name] = await applyIntervalSchedule(client, {
      scheduleId: contactSyncId(name),
      every: wanted.has(name) ? contactSyncOf(config, name).every : null,
      action: {
        type: 'startWorkflow',
        workflowType: contactSyncWorkflow,
        workflowId: contactSyncId(name),
        taskQueue: config.temporal.taskQueue,
        args: [{ account: name }],
      },
      triggerImmediately: opts.triggerImmediately ?? true,
    });
  }
  return outcome;
}
