import {
  ApplicationFailure,
  executeChild,
  patched,
  proxyActivities,
  workflowInfo,
} from '@temporalio/workflow';
import type { Activities } from '../activities';
import { erasureWorkflowId, type ErasePersonInput, type ErasePersonResult } from '../contracts';
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
 * Patch id of the steps after the warehouse: BigQuery erased in BigQuery (its rows were rewritten
 * from PostgreSQL's before), and deleted report files built again.
 */
const AFTER_WAREHOUSE_PATCH = 'erasure-bigquery-and-report-rebuild';

/**
 * Erases one person (a number or an e-mail, known to the activities only through its keyed hash):
 * suppression first, then what they are found in (names, calls) and their other identifiers, their
 * CRM records, archived audio, report files, every warehouse table, every BigQuery table, the
 * report files it had to delete (built again), their workflows' histories, then each linked
 * identifier by a child erasure; the record keeps the counts (the linked ones' as `linked.…`).
 * Idempotent: a run after a finished one finds nothing and succeeds with empty counts.
 */
export async function erasePerson(input: ErasePersonInput): Promise<ErasePersonResult> {
  const { erasureId, tables } = await acts.eraseBegin({ ...input, workflowId: workflowInfo().workflowId });
  const step = { ...input, erasureId };
  try {
    await acts.eraseCollect(input);
    // Before anything is anonymised: the records that tie their other identifiers to them.
    const linked = input.linked ? [] : await acts.eraseLinked(input);
    await acts.eraseCrmRecords(step);
    await acts.eraseArchive(step);
    await acts.eraseReports(step);
    for (const table of tables) await acts.eraseWarehouseTable({ ...step, table });
    // Erasures started before these steps existed replay without them.
    if (patched(AFTER_WAREHOUSE_PATCH)) {
      await acts.eraseBigQuery(step);
      // The report files it had to delete, built again from the erased warehouse.
      await acts.eraseRebuildReports(step);
    }
    await acts.eraseHistories(step);
    for (const other of linked) {
      const done = await executeChild(erasePerson, {
        workflowId: erasureWorkflowId(other.subjectHash),
        args: [{ ...other, linked: true }],
      });
      await acts.eraseLinkedCounts({ erasureId, counts: done.counts });
    }
    return await acts.eraseFinish(step);
  } catch (err) {
    const message = err instanceof ApplicationFailure || err instanceof Error ? err.message : String(err);
    await acts.eraseFailed({ erasureId, error: message });
    throw err;
  }
}
