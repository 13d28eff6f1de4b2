// The relay moves committed inbox rows into Temporal: call events (and DTMF key presses) become a
// signalWithStart of their call's lifecycle workflow, a call's events in one batch sharing a signal;
// SMS and unknown events are marked done. Rows are claimed with FOR UPDATE SKIP LOCKED, so several
// relays (processes) can run side by side, and a row is marked done only after its signal
// succeeded. A failed signal leaves the row pending with its attempts, error and a backoff, so the
// relay catches up by itself once Temporal or the worker is back. Delivery to the workflow is at
// least once; the workflow deduplicates by event id. A call's events keep their arrival order
// within a batch; batches claimed side by side can split a call, and the workflow takes its events
// in any order (the platform does not promise one either).
import type { Client } from '@temporalio/client';
import type pg from 'pg';
import type { Logger } from '../lib/logger';
import { callEventsSignal, callLifecycleWorkflow, callWorkflowId, type CallEventSignal } from '../contracts';
import { storedCallSignal } from './webhook-body';

/** Most events handed to a workflow in one signal. */
export const MAX_EVENTS_PER_SIGNAL = 100;

/** Events of one call to hand to its workflow in one signal, in arrival order. */
export interface CallSignal {
  workflowId: string;
  account: string;
  callId: number;
  events: CallEventSignal[];
}

/** Sends one call's events to its workflow (signalWithStart in production). */
export type CallSignaller = (s: CallSignal) => Promise<void>;

/** The production signaller: signalWithStart of `callLifecycle` on the task queue. */
export function temporalSignaller(client: Client, taskQueue: string): CallSignaller {
  return async (s) => {
    await client.workflow.signalWithStart(callLifecycleWorkflow, {
      workflowId: s.workflowId,
      taskQueue,
      args: [{ account: s.account, callId: s.callId }],
      signal: callEventsSignal,
      signalArgs: [s.events],
    });
  };
}

export interface RelayOptions {
  pool: pg.Pool;
  signal: CallSignaller;
  logger: Logger;
  /** Rows claimed at once (default 1000: a larger batch puts more of a call's events in one signal). */
  batchSize?: number;
  /** Signals in flight per batch (default 32). */
  concurrency?: number;
  /** Batches claimed side by side in this process (default 2). */
  parallelBatches?: number;
  /** Polling interval when idle, in ms (default 200); wake() skips the wait. */
  pollMs?: number;
  /** First retry delay of a failed row, doubled per attempt (default 1000 ms). */
  backoffBaseMs?: number;
  /** Longest retry delay (default 30 000 ms). */
  backoffMaxMs?: number;
  /**
   * True while the receiver is under a burst. Answering deliveries comes first (the inbox is
   * durable, so relaying can catch up later): a burst first pauses the relay for `busyPauseMs`,
   * then, should it last longer, the relay trickles with one loop and `busyConcurrency` signals in
   * flight, so that no event waits for the burst to end.
   */
  busy?: () => boolean;
  /** How long a burst pauses the relay outright (default 10 000 ms). */
  busyPauseMs?: number;
  /** Signals in flight once a burst outlasts the pause (default 2); 0 pauses for the whole burst. */
  busyConcurrency?: number;
}

/** Counters, for tests and metrics. */
export interface RelayStats {
  batches: number;
  /** signalWithStart calls that succeeded. */
  signals: number;
  /** Events handed over by them. */
  signalled: number;
  markedDone: number;
  failures: number;
  /** Rows that can never be relayed (their stored body no longer validates). */
  failed: number;
}

interface InboxClaim {
  id: string;
  account: string;
  event_id: string;
  event_name: string;
  call_id: number | null;
  attempts: number;
  body: unknown;
}

interface Outcome {
  id: string;
  result: 'done' | 'retry' | 'failed';
  error?: string;
}

const CLAIM_SQL = `
  SELECT id::text AS id, account, event_id, event_name, call_id, attempts, body
    FROM webhook_inbox
   WHERE status = 'pending' AND next_attempt_at <= now()
   ORDER BY webhook_inbox.id
   LIMIT $1
   FOR UPDATE SKIP LOCKED`;

const DONE_SQL = `
  UPDATE webhook_inbox SET status = 'done', done_at = now(), last_error = NULL
   WHERE id = ANY($1::bigint[])`;

const RETRY_SQL = `
  UPDATE webhook_inbox AS w
     SET attempts = w.attempts + 1,
         last_error = f.error,
         next_attempt_at = now() + make_interval(secs => f.delay_ms / 1000.0)
    FROM unnest($1::bigint[], $2::text[], $3::double precision[]) AS f(id, error, delay_ms)
   WHERE w.id = f.id`;

const FAILED_SQL = `
  UPDATE webhook_inbox AS w
     SET status = 'failed', attempts = w.attempts + 1, last_error = f.error
    FROM unnest($1::bigint[], $2::text[]) AS f(id, error)
   WHERE w.id = f.id`;

function message(err: unknown): string {
  const text = err instanceof Error ? err.message : String(err);
  return text.length > 1000 ? `${text.slice(0, 1000)}…` : text;
}

/** Relays inbox rows to Temporal in a loop until stop(). */
export class Relay {
  readonly stats: RelayStats = {
    batches: 0,
    signals: 0,
    signalled: 0,
    markedDone: 0,
    failures: 0,
    failed: 0,
  };
  private stopped = true;
  private loops: Promise<void>[] = [];
  private readonly wakers = new Set<() => void>();
  private readonly stoppers = new Set<() => void>();
  private readonly batchSize: number;
  private readonly concurrency: number;
  private readonly backoffBase: number;
  private readonly backoffMax: number;
  private readonly busyConcurrency: number;
  private readonly busyPause: number;
  /** When the current burst began (Date.now()), or null when there is none. */
  private busySince: number | null = null;

  constructor(private readonly opts: RelayOptions) {
    this.batchSize = opts.batchSize ?? 1000;
    this.concurrency = opts.concurrency ?? 32;
    this.backoffBase = opts.backoffBaseMs ?? 1000;
    this.backoffMax = opts.backoffMaxMs ?? 30_000;
    this.busyConcurrency = opts.busyConcurrency ?? 2;
    this.busyPause = opts.busyPauseMs ?? 10_000;
  }

  /** Starts the loops (pending rows left from before are relayed first). */
  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    const n = this.opts.parallelBatches ?? 2;
    this.loops = Array.from({ length: n }, (_, i) => this.loop(i));
  }

  /** Skips the idle wait: new rows were committed. */
  wake(): void {
    for (const w of [...this.wakers]) w();
  }

  /** Finishes the batches in hand and stops. */
  async stop(): Promise<void> {
    this.stopped = true;
    for (const s of [...this.stoppers]) s();
    await Promise.all(this.loops);
    this.loops = [];
  }

  /** Claims and relays one batch; returns the rows it claimed (0 when none was due). */
  async runOnce(): Promise<number> {
    const client = await this.opts.pool.connect();
    let released = false;
    try {
      await client.query('BEGIN');
      const { rows } = await client.query<InboxClaim>({
        name: 'webhook_inbox_claim',
        text: CLAIM_SQL,
        values: [this.batchSize],
      });
      if (rows.length === 0) {
        await client.query('COMMIT');
        return 0;
      }
      const outcomes = await this.relay(rows);
      await this.record(client, rows, outcomes);
      await client.query('COMMIT');
      this.stats.batches++;
      return rows.length;
    } catch (err) {
      await client.query('ROLLBACK').catch(() => undefined);
      client.release(err instanceof Error ? err : true);
      released = true;
      throw err;
    } finally {
      if (!released) client.release();
    }
  }

  /** Signals in flight allowed now: all of them, or fewer (0 = none) during a burst. */
  private allowedInFlight(): number {
    if (!this.opts.busy?.()) {
      this.busySince = null;
      return this.concurrency;
    }
    const now = Date.now();
    this.busySince ??= now;
    return now - this.busySince < this.busyPause ? 0 : this.busyConcurrency;
  }

  private async loop(index: number): Promise<void> {
    let idleFailures = 0;
    while (!this.stopped) {
      const allowed = this.allowedInFlight();
      if (allowed === 0 || (allowed < this.concurrency && index > 0)) {
        // Not woken by commits: under a burst they come by the hundred per second.
        await this.sleep(this.opts.pollMs ?? 200, false);
        continue;
      }
      let claimed = 0;
      let failedBatch: boolean;
      try {
        const before = this.stats.failures;
        claimed = await this.runOnce();
        failedBatch = claimed > 0 && this.stats.failures > before;
      } catch (err) {
        this.opts.logger.error({ err }, 'relay batch failed (PostgreSQL?); retrying');
        failedBatch = true;
      }
      if (failedBatch) {
        // Temporal (or the database) is away: wait before the next batch instead of spinning.
        idleFailures++;
        await this.sleep(Math.min(this.backoffBase * 2 ** (idleFailures - 1), this.backoffMax), false);
      } else {
        idleFailures = 0;
        if (claimed < this.batchSize) await this.sleep(this.opts.pollMs ?? 200, true);
      }
    }
  }

  /** Waits `ms`; stop() always ends the wait, wake() only when `wakeable` (not during a backoff). */
  private sleep(ms: number, wakeable: boolean): Promise<void> {
    return new Promise<void>((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        this.wakers.delete(done);
        this.stoppers.delete(done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.stoppers.add(done);
      if (wakeable) this.wakers.add(done);
    });
  }

  /**
   * Signals the batch's call events: each call's events in arrival order, together in one signal
   * (up to MAX_EVENTS_PER_SIGNAL), different calls in parallel. After the first failure no further
   * signal is sent in this batch (Temporal is likely down); those rows stay as they were and come
   * back in the next batch.
   */
  private async relay(rows: InboxClaim[]): Promise<Outcome[]> {
    const outcomes: Outcome[] = [];
    const byWorkflow = new Map<string, Array<{ rows: InboxClaim[]; signal: CallSignal }>>();
    for (const row of rows) {
      if (row.call_id === null) {
        outcomes.push({ id: row.id, result: 'done' }); // SMS and unknown events: nothing to start yet
        continue;
      }
      const parsed = storedCallSignal(row.body);
      if (!parsed.ok) {
        outcomes.push({
          id: row.id,
          result: 'failed',
          error: `stored body no longer validates: ${parsed.error}`,
        });
        continue;
      }
      const workflowId = callWorkflowId(row.account, parsed.callId);
      const chunks = byWorkflow.get(workflowId) ?? [];
      if (chunks.length === 0) byWorkflow.set(workflowId, chunks);
      let last = chunks[chunks.length - 1];
      if (!last || last.rows.length >= MAX_EVENTS_PER_SIGNAL) {
        last = { rows: [], signal: { workflowId, account: row.account, callId: parsed.callId, events: [] } };
        chunks.push(last);
      }
      last.rows.push(row);
      last.signal.events.push(parsed.signal);
    }
    const groups = [...byWorkflow.values()];
    let next = 0;
    let broken = false;
    const worker = async (index: number): Promise<void> => {
      while (!broken && next < groups.length) {
        // A burst that begins mid-batch takes effect at once: workers beyond what it allows stop,
        // and the calls they did not reach stay pending for a later batch.
        if (index >= this.allowedInFlight()) return;
        const chunks = groups[next++]!;
        for (const { rows: chunkRows, signal } of chunks) {
          if (broken) return;
          try {
            await this.opts.signal(signal);
            this.stats.signals++;
            this.stats.signalled += chunkRows.length;
            for (const row of chunkRows) outcomes.push({ id: row.id, result: 'done' });
          } catch (err) {
            broken = true;
            this.stats.failures++;
            const error = message(err);
            for (const row of chunkRows) outcomes.push({ id: row.id, result: 'retry', error });
            this.opts.logger.warn(
              { err, workflowId: signal.workflowId, events: chunkRows.length },
              'relay: signal failed; will retry',
            );
          }
        }
      }
    };
    const inFlight = Math.min(this.allowedInFlight(), groups.length);
    await Promise.all(Array.from({ length: inFlight }, (_, i) => worker(i)));
    return outcomes;
  }

  private async record(client: pg.PoolClient, rows: InboxClaim[], outcomes: Outcome[]): Promise<void> {
    const attempts = new Map(rows.map((r) => [r.id, r.attempts]));
    const done = outcomes.filter((o) => o.result === 'done').map((o) => o.id);
    const retry = outcomes.filter((o) => o.result === 'retry');
    const failed = outcomes.filter((o) => o.result === 'failed');
    if (done.length > 0) {
      await client.query({ name: 'webhook_inbox_done', text: DONE_SQL, values: [done] });
      this.stats.markedDone += done.length;
    }
    if (retry.length > 0) {
      const delays = retry.map((o) =>
        Math.min(this.backoffBase * 2 ** (attempts.get(o.id) ?? 0), this.backoffMax),
      );
      await client.query(RETRY_SQL, [retry.map((o) => o.id), retry.map((o) => o.error ?? ''), delays]);
    }
    if (failed.length > 0) {
      await client.query(FAILED_SQL, [failed.map((o) => o.id), failed.map((o) => o.error ?? '')]);
      this.stats.failed += failed.length;
      this.opts.logger.error(
        { rows: failed.length },
        'relay: inbox rows that can never be relayed were marked failed',
      );
    }
  }
}
