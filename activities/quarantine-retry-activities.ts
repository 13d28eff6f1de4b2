// The quarantine retry (dashboard): a record is read again the way the sync reads it — from the
// platform by its id when it still has it, else from the raw record kept in the quarantine — checked
// with the stream's schema and stored with the sync's own upsert. Stored: it leaves the quarantine;
// still unreadable: it stays, with the new reason.
import { Context } from '@temporalio/activity';
import { Paginator, type Page } from '../connectors/platform';
import {
  addQuarantined,
  markQuarantineRetried,
  openQuarantinedBatch,
  upsertPage,
  type PageRecord,
  type StreamName,
} from '../connectors/postgres';
import type { QuarantineRetryBatch, QuarantineRetryRecordResult } from '../contracts';
import { STREAMS, type StreamDefinition } from '../sync/streams';
import type { ActivityDeps } from './deps';

export interface RetryQuarantinedInput {
  account: string;
  stream: string;
  recordIds?: string[];
  /** Without recordIds: the batch after this record id (null: from the first). */
  after?: string | null;
  limit?: number;
}

export function createQuarantineRetryActivities(deps: ActivityDeps) {
  const { warehouse } = deps;

  /** The record as the platform has it now (a page of at most one), or undefined when it has none. */
  const fromPlatform = async (
    def: StreamDefinition,
    account: string,
    recordId: string,
    signal: AbortSignal,
  ) => {
    if (!/^\d{1,15}$/.test(recordId)) return undefined; // a position key: the platform cannot look it up
    const page = await def
      .list(deps.platform(account), {
        limit: 1,
        filter: [{ property: 'id', operator: 'eq', value: Number(recordId) }],
        signal,
      })
      .readPage(1);
    return page.data.length + page.invalid.length > 0 ? page : undefined;
  };

  /** The stored raw record through the same schema check a page goes through. */
  const fromRaw = (def: StreamDefinition, raw: unknown): Promise<Page<unknown>> =>
    new Paginator(async () => ({ data: [raw] }), def.schema, {}, 1).readPage(1);

  return {
    /** Retries one batch of open quarantined records; see contracts/quarantine-retry.ts. */
    async retryQuarantined(input: RetryQuarantinedInput): Promise<QuarantineRetryBatch> {
      const ctx = Context.current();
      const key = { account: input.account, stream: input.stream };
      const limit = input.limit ?? 100;
      const rows = await openQuarantinedBatch(
        warehouse.db,
        key,
        input.recordIds ? { recordIds: input.recordIds } : { after: input.after ?? null, limit },
      );
      const results: QuarantineRetryRecordResult[] = [];
      if (input.recordIds) {
        const open = new Set(rows.map((r) => r.record_id));
        for (const id of input.recordIds)
          if (!open.has(id)) results.push({ recordId: id, outcome: 'not-open', source: null });
      }
      const def = (STREAMS as Record<string, StreamDefinition | undefined>)[input.stream];
      for (const row of rows) {
        const recordKey = { ...key, recordId: row.record_id };
        if (!def) {
          await markQuarantineRetried(warehouse.db, recordKey, 'not-retryable', false);
          results.push({ recordId: row.record_id, outcome: 'not-retryable', source: null });
          continue;
        }
        ctx.heartbeat({ recordId: row.record_id });
        const platformPage = await fromPlatform(def, input.account, row.record_id, ctx.cancellationSignal);
        const source = platformPage ? 'platform' : 'raw';
        const page = platformPage ?? (await fromRaw(def, row.raw));
        let stored = false;
        if (page.data.length > 0) {
          const records = [{ record: page.data[0], raw: page.raw[0] }] as PageRecord[];
          const written = await upsertPage(warehouse.pool, {
            stream: input.stream as StreamName,
            account: input.account,
            records,
          });
          // A column that still cannot hold a value quarantines it again, with that reason.
          stored = written.quarantined === 0;
        } else {
          const bad = page.invalid[0]!;
          await addQuarantined(warehouse.db, { ...recordKey, reason: `schema: ${bad.reason}`, raw: bad.raw });
        }
        const outcome = stored ? 'stored' : 'still-invalid';
        await markQuarantineRetried(warehouse.db, recordKey, outcome, stored);
        results.push({ recordId: row.record_id, outcome, source });
      }
      const after = !input.recordIds && rows.length === limit ? rows[rows.length - 1]!.record_id : null;
      return { results, after };
    },
  };
}
