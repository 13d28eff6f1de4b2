// Task queues beside the workflows' own: activities that call a rate-limited vendor run on a queue
// of their own, whose rate limit (set by every worker polling it) holds for the whole deployment.
// Pure (no I/O): workflows derive the queue from their own task queue, so they stay deterministic.

/**
 * Most CRM requests one CRM activity sends (logCall, upsertCallbackTask: contact search, owner
 * lookup, create or update): the unit both the task-queue rate and the daily budget count in.
 */
export const CRM_REQUESTS_PER_ACTIVITY = 3;

/** Task queue of the activities that write to the CRM (HubSpot, Salesforce, or the built-in one). */
export function crmTaskQueue(workflowTaskQueue: string): string {
  return `${workflowTaskQueue}-crm`;
}
