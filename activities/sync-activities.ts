// Activities of the warehouse sync: pages, each written with its checkpoint in one commit; one page
// per call, or (backfill windows) pages one after another for a few seconds per call.
import { ApplicationFailure, Context } from '@temporalio/activity';
import type { CountryCode } from 'libphonenumber-js/max';
import type { Cdr, FilterCondition } from '../connectors/platform';
import {
  addQuarantined,
  finishSyncRun,
  getCheckpoint,
  getSyncRun,
  setCheckpoint,
  startSyncRun,
  SuppressionList,
  upsertPage,
  type CheckpointKey,
  type PageRecord,
  type StreamName,
} from '../connectors/postgres';
import {
  advanceCursor,
  decodeCursor,
  encodeCursor,
  maxCursorValue,
  nextRunCursor,
  readsRecent,
} from '../sync/cursor';
import { streamDefinition } from '../sync/streams';
import type {
  SyncCursor,
  SyncPageInput,
  SyncPageResult,
  SyncPagesInput,
  SyncPagesResult,
} from '../contracts';
import type { ActivityDeps } from './deps';
import { followCdrPage } from './reconcile';
import { nudgeRecordingChanges } from './recording-nudge';
import { lagSeconds, metrics } from '../lib/metrics';
import { createSuppressor } from '../lib/erasure/suppress';
import { erasureHashKey } from '../lib/encryption-keys';

export interface OpenSyncInput {
  account: string;
  stream: string;
  kind: 'incremental' | 'backfill';
  workflowId: string;
}

export interface OpenWindowInput {
  account: string;
  stream: string;
  from: string;
  to: string;
}

export interface FinishSyncInput {
  runId: number;
  status: 'succeeded' | 'failed' | 'cancelled';
  records: number;
  errors: number;
  error?: string;
}

/** The sums a run of pages heartbeats after each page. */
interface PagesProgress {
  pages: number;
  records: number;
  inserted: number;
  updated: number;
  quarantined: number;
}

/** Checkpoint scope of a backfill window. */
export function windowScope(from: string, to: string): string {
  return `window:${from}/${to}`;
}

export function createSyncActivities(deps: ActivityDeps) {
  const { warehouse } = deps;
  const suppression = new SuppressionList(warehouse.pool);
  const erasureKey = erasureHashKey(deps.config);

  const readCursor = async (key: CheckpointKey): Promise<SyncCursor> => {
    const checkpoint = await getCheckpoint(warehouse.db, key);
    if (!checkpoint?.cursor) {
      throw ApplicationFailure.create({
        type: 'CheckpointMissing',
        message: `no checkpoint for ${key.account}/${key.stream} scope "${key.scope ?? ''}"`,
        nonRetryable: true,
      });
    }
    return decodeCursor(checkpoint.cursor);
  };

  // The newest record's age once an incremental run of a history stream ends; null otherwise.
  const runDataLag = async (runId: number): Promise<number | null> => {
    const run = await getSyncRun(warehouse.db, runId);
    if (!run || run.kind !== 'incremental' || streamDefinition(run.stream).kind !== 'history') return null;
    const checkpoint = await getCheckpoint(warehouse.db, {
      account: run.account,
      stream: run.stream,
      scope: '',
    });
    if (!checkpoint?.cursor) return null;
    return lagSeconds(decodeCursor(checkpoint.cursor).max) ?? null;
  };

  /** One page: read where the checkpoint points, written with the moved checkpoint in one commit. */
  const syncOnePage = async (input: SyncPageInput, sums: Partial<PagesProgress>): Promise<SyncPageResult> => {
    const ctx = Context.current();
    const def = streamDefinition(input.stream);
    const key = { account: input.account, stream: input.stream, scope: input.scope };
    const cursor = await readCursor(key);
    const empty = { records: 0, inserted: 0, updated: 0, quarantined: 0 };
    if (cursor.done) return { ...empty, cursor, done: true };
    ctx.heartbeat({ ...sums, page: cursor.page, stage: 'fetch' });

    const filter: FilterCondition[] = [];
    if (cursor.since !== null)
      filter.push({ property: def.cursorField, operator: 'gte', value: cursor.since });
    if (cursor.until !== null)
      filter.push({ property: def.cursorField, operator: 'lt', value: cursor.until });
    // Keyset pages (`id > afterId`, sort=id, dir=ASC): exact whatever order the platform lists in by
    // default, however many rows it puts on a page, and while records are being added.
    const paginator = def.list(deps.platform(input.account), {
      limit: deps.config.sync.pageSize,
      filter,
      signal: ctx.cancellationSignal,
    });
    const page = await paginator.readAfter(cursor.afterId);
    ctx.heartbeat({ ...sums, page: cursor.page, stage: 'write', pageRecords: page.data.length });

    // Records of erased people are anonymised before anything is written (docs/privacy.md "Erasure").
    const suppress = createSuppressor(
      erasureKey,
      await suppression.current(),
      deps.config.crm.defaultCountry as CountryCode,
    );
    if (page.invalid.length > 0) {
      await addQuarantined(
        warehouse.db,
        page.invalid.map((bad) => ({
          account: input.account,
          stream: input.stream,
          recordId: recordIdOf(bad.raw, `after${cursor.afterId}#${bad.index}`),
          reason: `schema: ${bad.reason}`,
          raw: suppress?.scrub(bad.raw, input.account) ?? bad.raw,
        })),
      );
    }
    const next = advanceCursor(
      cursor,
      { pageMax: maxCursorValue(page.data, def.cursorField), lastId: page.lastId, done: page.done },
      Date.now(),
    );
    let records = page.data.map((record, i) => ({ record, raw: page.raw[i] })) as PageRecord[];
    let reconcilable = page.data as Cdr[];
    if (suppress) {
      const erased = new Set<number>();
      records = records.map((r) => {
        const record = suppress.scrub(r.record, input.account);
        if (record === null) return r;
        erased.add(r.record.id);
        return { record, raw: suppress.scrub(r.raw, input.account) ?? r.raw } as PageRecord;
      });
      // An erased person's calls are not followed up (no CRM log, no callback) from their CDRs either.
      reconcilable = reconcilable.filter((c) => !erased.has(c.id));
    }
    // Calls waiting for their recordings hear of new ones (and new transcripts) before the page is
    // written: the warehouse tells what is new, and a retried page tells again (counted once).
    if (input.stream === 'recordings' && input.scope === '' && readsRecent(cursor) && deps.temporal) {
      await nudgeRecordingChanges(
        deps.temporal,
        warehouse.db,
        input.account,
        page.data,
        deps.config.calls.recordingHorizon,
      );
    }
    // Calls in flight hear of their CDRs before the page is written, as recordings' calls do: a page
    // written and then lost with its worker before the follow-up would never be read again (the
    // checkpoint has moved), and its waiting lifecycles would wait for their four-hour limit. A
    // retried page tells again (the event ids are the same); a lifecycle this starts looks the CDR
    // up with backoff until the write is in. Only incremental reads reconcile: a first read of the
    // whole history is not "recent calls", but what it finds after the history's end is.
    if (input.stream === 'cdrs' && deps.temporal) {
      await followCdrPage(
        deps.temporal,
        warehouse.pool,
        {
          account: input.account,
          taskQueue: deps.config.temporal.taskQueue,
          windowMs: deps.config.calls.reconcileWindow,
          newest: next.max,
          reconcile: input.scope === '' && readsRecent(cursor),
          ...(input.scope === '' && cursor.watchedAfterId !== undefined
            ? { watchedAfterId: cursor.watchedAfterId }
            : {}),
        },
        reconcilable,
      );
    }
    const checkpoint = { key, cursor: encodeCursor(next) };
    // BigQuery first, PostgreSQL (with the checkpoint) last: the one checkpoint moves only once
    // every warehouse holds the page, and a retry re-reads the page, whose BigQuery jobs it finds.
    await deps.bigquery?.(input.account)?.writePage({
      position: {
        ...key,
        since: cursor.since,
        until: cursor.until,
        page: cursor.page,
        afterId: cursor.afterId,
      },
      records,
    });
    const written =
      records.length > 0
        ? await upsertPage(warehouse.pool, {
            stream: input.stream as StreamName,
            account: input.account,
            records,
            checkpoint,
          })
        : (await setCheckpoint(warehouse.db, key, checkpoint.cursor), { ...empty, quarantined: 0 });
    const labels = { account: input.account, stream: input.stream };
    const m = metrics();
    m.streamPages.inc(labels);
    m.streamRecords.inc(labels, records.length);
    m.streamErrors.inc(labels, written.quarantined + page.invalid.length);
    const lag = lagSeconds(next.max);
    if (lag !== undefined) m.streamLag.set(labels, lag);
    return {
      records: records.length,
      inserted: written.inserted,
      updated: written.updated,
      quarantined: written.quarantined + page.invalid.length,
      cursor: next,
      done: next.done === true,
    };
  };

  return {
    /** Starts a run: places the stream's cursor where this run begins and opens a sync_runs row. */
    async openSync(input: OpenSyncInput): Promise<{ runId: number; cursor: SyncCursor }> {
      const def = streamDefinition(input.stream);
      const key = { account: input.account, stream: input.stream, scope: '' };
      const runId = await startSyncRun(warehouse.db, {
        account: input.account,
        stream: input.stream,
        kind: input.kind,
        workflowId: input.workflowId,
      });
      if (input.kind === 'backfill')
        return { runId, cursor: { since: null, until: null, page: 1, max: null, afterId: 0 } };
      const stored = await getCheckpoint(warehouse.db, key);
      const cursor = nextRunCursor(
        stored?.cursor ? decodeCursor(stored.cursor) : null,
        def,
        { lookbackMs: deps.config.sync.lookback, lateArrivalMs: deps.config.sync.lateArrival },
        Date.now(),
      );
      // A first read of CDRs notes where the history ends: calls whose CDRs come after that are in
      // flight while it reads (hours, for years of history) and are reconciled like a later run's.
      if (input.stream === 'cdrs' && !readsRecent(cursor) && cursor.watchedAfterId === undefined)
        cursor.watchedAfterId = await def
          .list(deps.platform(input.account), { limit: 1, filter: [] })
          .newestId();
      await setCheckpoint(warehouse.db, key, encodeCursor(cursor));
      return { runId, cursor };
    },

    /** Opens a backfill window's own checkpoint (kept when it already exists, so windows resume). */
    async openWindow(input: OpenWindowInput): Promise<{ cursor: SyncCursor }> {
      const key = { account: input.account, stream: input.stream, scope: windowScope(input.from, input.to) };
      const stored = await getCheckpoint(warehouse.db, key);
      if (stored?.cursor) return { cursor: decodeCursor(stored.cursor) };
      const cursor: SyncCursor = { since: input.from, until: input.to, page: 1, max: null, afterId: 0 };
      await setCheckpoint(warehouse.db, key, encodeCursor(cursor));
      return { cursor };
    },

    /**
     * Reads the page the checkpoint points at and writes it with the moved checkpoint in one commit.
     * A retry reads the checkpoint again, so it resumes exactly after the last committed page.
     */
    async syncPage(input: SyncPageInput): Promise<SyncPageResult> {
      return syncOnePage(input, {});
    },

    /**
     * Pages as `syncPage` writes them, one after another, until the read ends or `budgetMs` has
     * passed: a backfill window's pages without a round trip through Temporal for each. Every page
     * heartbeats the sums so far, and a retried attempt starts from the last sums it finds.
     */
    async syncPages(input: SyncPagesInput): Promise<SyncPagesResult> {
      const ctx = Context.current();
      const started = Date.now();
      const prior = ctx.info.heartbeatDetails as Partial<PagesProgress> | undefined;
      const sums: PagesProgress = {
        pages: prior?.pages ?? 0,
        records: prior?.records ?? 0,
        inserted: prior?.inserted ?? 0,
        updated: prior?.updated ?? 0,
        quarantined: prior?.quarantined ?? 0,
      };
      const { budgetMs, ...pageInput } = input;
      for (;;) {
        const page = await syncOnePage(pageInput, sums);
        sums.pages += 1;
        sums.records += page.records;
        sums.inserted += page.inserted;
        sums.updated += page.updated;
        sums.quarantined += page.quarantined;
        ctx.heartbeat({ ...sums, stage: 'written' });
        if (page.done || Date.now() - started >= budgetMs)
          return { ...sums, cursor: page.cursor, done: page.done };
      }
    },
    /** Backfill settings from config (read by the workflow through an activity, since config is not history). */
    async backfillSettings(_input: { account: string }): Promise<{ windowMs: number; parallelism: number }> {
      return { windowMs: deps.config.sync.backfillWindow, parallelism: deps.config.sync.backfillParallelism };
    },

    /** Closes a sync_runs row, with the data lag it left (the dashboard's lag chart). */
    async finishSync(input: FinishSyncInput): Promise<void> {
      await finishSyncRun(warehouse.db, input.runId, {
        status: input.status,
        records: input.records,
        errors: input.errors,
        error: input.error ?? null,
        dataLagSeconds: input.status === 'succeeded' ? await runDataLag(input.runId) : null,
      });
    },
  };
}

/** A quarantined record's id: its own `id` when it has one, else a position-based key. */
function recordIdOf(raw: unknown, fallback: string): string {
  const id = (raw as { id?: unknown } | null)?.id;
  return typeof id === 'number' || typeof id === 'string' ? String(id) : fallback;
}

export type SyncActivities = ReturnType<typeof createSyncActivities>;
