// The webhook retention workflow as its schedule and tests see it: it deletes relayed inbox rows and
// refused deliveries older than the configured ages (config server.retention).
import { workflowRef } from './workflow-ref';

/** What one retention run deleted. */
export interface WebhookRetentionResult {
  inbox: number;
  rejected: number;
}

/** Schedule id (and workflow id of scheduled runs) of the webhook retention. */
export const WEBHOOK_RETENTION_SCHEDULE_ID = 'webhook-retention';

/** The signature of `workflows/webhook-retention.ts`. */
export type WebhookRetentionWorkflow = () => Promise<WebhookRetentionResult>;

/** Start or schedule the retention through this. */
export const webhookRetentionWorkflow = workflowRef<WebhookRetentionWorkflow>('webhookRetention');
