// Vendor request limits turned into Temporal task-queue rate limits. A task-queue rate limit counts
// activities, not HTTP requests, so it is the vendor's requests per second divided by the most
// requests one activity sends (a CRM call log: a contact search, the create or update, an owner
// lookup). Every worker that polls the queue sets the same rate, so it holds for the deployment.
import type { CallsyncConfig } from '../config/schema';
import { CRM_REQUESTS_PER_ACTIVITY } from '../contracts/task-queues';

export { CRM_REQUESTS_PER_ACTIVITY };

/** Activities per second on the CRM task queue for the configured destination; undefined: no limit (built-in). */
export function crmActivitiesPerSecond(
  destination: CallsyncConfig['crm']['destination'],
  requestsPerActivity = CRM_REQUESTS_PER_ACTIVITY,
): number | undefined {
  switch (destination.type) {
    case 'hubspot':
      return destination.requestsPer10Seconds / 10 / requestsPerActivity;
    case 'salesforce':
      return destination.requestsPerSecond / requestsPerActivity;
    default:
      return undefined;
  }
}
