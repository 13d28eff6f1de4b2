import { ApplicationFailure, proxyActivities, workflowInfo } from '@temporalio/workflow';
import type { Activities } from '../activities';
import type { ErasePersonInput, ErasePersonResult } from '../contracts';
import { HEARTBEAT_TIMEOUT } from '../contracts/activity-options';

// Each step may scan whole tables: long timeouts, heartbeats, and a bounded number of attempts so a
// step that keeps failing ends the erasure as failed (recorded, shown by `callsync erase --status`).
const acts = proxyActivities<Activities>({
  startToCloseTimeout: '1 hour',
  heartbeatTimeout: HEARTBEAT_TIMEOUT,
  retry: {
    initialInterval: '1 second',
    backoffCoefficient: 2,
    maximumInterval: '1 minute',
    maximumAttempts: 10,
    nonRetryableErrorTypes: ['ErasureRequestMissing'],
  },
});

/**
 * Erases one person (a number or an e-mail, known to the activities only through its keyed hash):
 * suppression first, then what they are found in (names, calls), their CRM records, archived audio,
 * every warehouse table, their workflows' histories; the record keeps the counts. Idempotent: a run
 * after a finished one finds nothing and succeeds with empty counts.
 */
export async function erasePerson(input: ErasePersonInput): Promise<ErasePersonResult> {
  const { erasureId, tables } = await acts.eraseBegin({ ...input, workflowId: workflowInfo().workflowId });
  const step = { ...input, erasureId };
  try {
    await acts.eraseCollect(input);
    await acts.eraseCrmRecords(step);
    await acts.eraseArchive(step);
    for (const table of tables) await acts.eraseWarehouseTable({ ...step, table });
    await acts.eraseHistories(step);
    return await acts.eraseFinish(step);
  } catch (err) {
    const message = err instanceof ApplicationFailure || err instanceof Error ? err.message : String(err);
    await acts.eraseFailed({ erasureId, error: message });
    throw err;
  }
}
