import { proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../activities';
import type { WebhookRetentionResult } from '../contracts';
import { SYNC_RETRY } from './retry-policy';

const { purgeWebhookHistory } = proxyActivities<Activities>({
  startToCloseTimeout: '30 minutes',
  heartbeatTimeout: '1 minute',
  retry: SYNC_RETRY,
});

/** Deletes relayed inbox rows and refused deliveries past their configured age (run by a schedule). */
export async function webhookRetention(): Promise<WebhookRetentionResult> {
  return purgeWebhookHistory();
}
