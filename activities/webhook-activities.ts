// Activities of the webhook receiver's bookkeeping: retention of the inbox and refused deliveries.
import { Context } from '@temporalio/activity';
import { purgeWebhooks } from '../connectors/postgres';
import type { WebhookRetentionResult } from '../contracts';
import type { ActivityDeps } from './deps';

/** Rows deleted per statement: short transactions, no long lock on the inbox the receiver writes. */
const PURGE_BATCH = 5_000;

export function createWebhookActivities(deps: ActivityDeps) {
  return {
    /**
     * Deletes inbox rows relayed longer ago than server.retention.inbox and refused deliveries older
     * than server.retention.rejected, batch by batch (heartbeating), until none is left.
     */
    async purgeWebhookHistory(): Promise<WebhookRetentionResult> {
      const { inbox: inboxAge, rejected: rejectedAge } = deps.config.server.retention;
      const now = Date.now();
      const total: WebhookRetentionResult = { inbox: 0, rejected: 0 };
      for (;;) {
        const deleted = await purgeWebhooks(deps.warehouse.db, {
          doneBefore: new Date(now - inboxAge),
          rejectedBefore: new Date(now - rejectedAge),
          batch: PURGE_BATCH,
        });
        total.inbox += deleted.inbox;
        total.rejected += deleted.rejected;
        Context.current().heartbeat(total);
        if (deleted.inbox < PURGE_BATCH && deleted.rejected < PURGE_BATCH) return total;
      }
    },
  };
}
