import { proxyActivities, workflowInfo } from '@temporalio/workflow';
import type { Activities } from '../activities';
import { CALL_ACTIVITIES } from '../contracts/activity-options';
import { crmTaskQueue } from '../contracts/task-queues';

/**
 * The CRM-writing activities on the CRM's task queue (next to this workflow's queue), where
 * Temporal's task-queue rate limit keeps every worker together under the vendor's limit.
 */
export function crmActivities() {
  return proxyActivities<Activities>({
    ...CALL_ACTIVITIES,
    taskQueue: crmTaskQueue(workflowInfo().taskQueue),
  });
}
