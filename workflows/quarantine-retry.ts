// Re-runs quarantined records batch by batch (ids and cursors through history, never records).
import { proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../activities';
import {
  QUARANTINE_RETRY_BATCH,
  QUARANTINE_RETRY_RESULTS_KEPT,
  type QuarantineRetryBatch,
  type QuarantineRetryInput,
  type QuarantineRetryResult,
} from '../contracts';
import { QUARANTINE_RETRY_ACTIVITIES } from '../contracts/activity-options';

const { retryQuarantined } = proxyActivities<Activities>(QUARANTINE_RETRY_ACTIVITIES);

/** Retries the given records (or every open one of the stream) and counts how each ended. */
export async function quarantineRetry(input: QuarantineRetryInput): Promise<QuarantineRetryResult> {
  const total: QuarantineRetryResult = {
    stored: 0,
    stillInvalid: 0,
    notRetryable: 0,
    notOpen: 0,
    results: [],
  };
  const add = (batch: QuarantineRetryBatch): void => {
    for (const r of batch.results) {
      if (r.outcome === 'stored') total.stored++;
      else if (r.outcome === 'still-invalid') total.stillInvalid++;
      else if (r.outcome === 'not-retryable') total.notRetryable++;
      else total.notOpen++;
      if (total.results.length < QUARANTINE_RETRY_RESULTS_KEPT) total.results.push(r);
    }
  };
  const { account, stream } = input;
  if (input.recordIds) {
    for (let i = 0; i < input.recordIds.length; i += QUARANTINE_RETRY_BATCH) {
      add(
        await retryQuarantined({
          account,
          stream,
          recordIds: input.recordIds.slice(i, i + QUARANTINE_RETRY_BATCH),
        }),
      );
    }
    return total;
  }
  // Every open record, in id order from `after`: a record that stays quarantined is not met again.
  let after: string | null = null;
  do {
    const batch: QuarantineRetryBatch = await retryQuarantined({
      account,
      stream,
      after,
      limit: QUARANTINE_RETRY_BATCH,
    });
    add(batch);
    after = batch.after;
  } while (after !== null);
  return total;
}
