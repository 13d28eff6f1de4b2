// The batching side of one CRM connector in one worker: contact lookups, call-log writes and task
// writes from concurrent activities gathered into batch requests (see coalescer.ts), each write going
// through the exactly-once batch upsert (batch-upsert.ts).
import type { Kysely } from 'kysely';
import type { Database } from '../postgres/tables';
import { upsertCallLogBatch, upsertTaskBatch, type BatchEntry } from './batch-upsert';
import { Coalescer } from './coalescer';
import type { CallbackTask, CallLog, CrmBatchOps, CrmContact } from './crm-connector';
import type { UpsertResult } from './upsert';

export interface CrmBatcherOptions {
  /** Longest wait of a write for others to share its request. */
  batchWaitMs: number;
  /** Longest wait of a lookup for others to share its search. */
  lookupWaitMs: number;
}

/** The same key twice in one batch: the later content, and "may exist" if either attempt says so. */
const mergeEntries = <T>(a: BatchEntry<T>, b: BatchEntry<T>): BatchEntry<T> => ({
  item: b.item,
  mayExist: a.mayExist || b.mayExist,
});

export class CrmBatchers {
  readonly lookups: Coalescer<string, CrmContact[]>;
  readonly callLogs: Coalescer<BatchEntry<CallLog>, UpsertResult>;
  readonly tasks: Coalescer<BatchEntry<CallbackTask>, UpsertResult>;

  constructor(db: Kysely<Database>, destination: string, batch: CrmBatchOps, opts: CrmBatcherOptions) {
    const writes = { maxItems: batch.maxBatch, lingerMs: opts.batchWaitMs };
    this.lookups = new Coalescer(
      (n) => n,
      async (numbers) => {
        const found = await batch.findContactsByPhones(numbers);
        return new Map(numbers.map((n) => [n, found.get(n) ?? []]));
      },
      { maxItems: batch.maxBatch, lingerMs: opts.lookupWaitMs },
    );
    this.callLogs = new Coalescer(
      (e) => e.item.key,
      (entries) => upsertCallLogBatch(db, destination, batch, entries),
      writes,
      mergeEntries,
    );
    this.tasks = new Coalescer(
      (e) => e.item.key,
      (entries) => upsertTaskBatch(db, destination, batch, entries),
      writes,
      mergeEntries,
    );
  }
}
