import { proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../activities';
import type { WebhookRetentionResult } from '../contracts';
import { SYNC_ACTIVITIES } from '../contracts/activity-options';

// Deleting a large backlog takes a while: batch by batch, heartbeating (the sync's heartbeat timeout).
const { purgeWebhookHistory } = proxyActivities<Activities>({
  ...SYNC_ACTIVITIES,
  startToCloseTimeout: '30 minutes',
});

/** Deletes relayed inbox rows and refused deliveries past their configured age (run by a schedule). */
export async function webhookRetention(): Promise<WebhookRetentionResult> {
  return purgeWebhookHistory();
}
