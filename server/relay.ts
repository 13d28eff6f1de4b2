// The relay moves committed inbox rows into Temporal: call events (and DTMF key presses) become a
// signalWithStart of their call's lifecycle workflow, a call's events in one batch sharing a signal;
// SMS and unknown events are marked done. Rows are claimed with FOR UPDATE SKIP LOCKED, so several
// relays (processes) can run side by side, and a row is marked done only after its signal
// succeeded. A failed signal leaves the row pending with its attempts, error and a backoff, so the
// relay catches up by itself once Temporal or the worker is back. Delivery to the workflow is at
// least once; the workflow deduplicates by event id. A call's events keep their arrival order
// within a batch; batches claimed side by side can split a call, and the workflow takes its events
// in any order (the platform does not promise one either).
//
// A call whose lifecycle already ran is settled: the platform redelivers webhooks hours late, after
// the CDR sync has reconciled the call and its lifecycle has logged it and ended. Such events never
// start a second lifecycle (which would log the call again and reopen a callback for a caller
// already reached); they go straight onto the call's timeline, and their rows are done.
import { WorkflowExecutionAlreadyStartedError, WorkflowIdReusePolicy, type Client } from '@temporalio/client';
import { Kysely, PostgresDialect } from 'kysely';
import type pg from 'pg';
import type { Logger } from '../lib/logger';
import {
  addCallEvents,
  claimInboxRows,
  markInboxDone,
  markInboxFailed,
  scheduleInboxRetries,
  type Database,
  type InboxClaim,
} from '../connectors/postgres';
import { callEventsSignal, callLifecycleWorkflow, timelineEvents } from '../contracts';
import { planSignals, type CallSignal } from './relay-groups';

export { MAX_EVENTS_PER_SIGNAL, type CallSignal } from './relay-groups';

/**
 * What became of a call's events: signalled to its running (or new) lifecycle, or refused because
 * the call's lifecycle already ran and ended (settled). A signaller that returns nothing signalled.
 */
export type SignalOutcome = 'signalled' | 'settled';

/** Sends one call's events to its workflow (signalWithStart in production). */
export type CallSignaller = (s: CallSignal) => Promise<SignalOutcome | void>;

/**
 * The production signaller: signalWithStart of `callLifecycle` on the task queue, never starting a
 * second lifecycle for a call whose lifecycle has ended (as reconcile and the fast path refuse).
 */
export function temporalSignaller(client: Client, taskQueue: string): CallSignaller {
  return async (s) => {
    try {
      await client.workflow.signalWithStart(callLifecycleWorkflow, {
        workflowId: s.workflowId,
        taskQueue,
        args: [{ account: s.account, callId: s.callId }],
        signal: callEventsSignal,
        signalArgs: [s.events],
        workflowIdReusePolicy: WorkflowIdReusePolicy.REJECT_DUPLICATE,
      });
      return 'signalled';
    } catch (err) {
      if (err instanceof WorkflowExecutionAlreadyStartedError) return 'settled';
      throw err;
    }
  };
}

export interface RelayOptions {
  pool: pg.Pool;
  signal: CallSignaller;
  logger: Logger;
  /** Where events of settled calls are put on their timeline (default: a kysely over `pool`). */
  timeline?: Kysely<Database>;
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
  /** Events of calls whose lifecycle had ended, put on the timeline directly. */
  settled: number;
  markedDone: number;
  failures: number;
  /** Rows that can never be relayed (their stored body no longer validates). */
  failed: number;
  /** Loop passes that stepped back for a burst: they claimed nothing and waited a poll instead. */
  yielded: number;
}

interface Outcome {
  id: string;
  result: 'done' | 'retry' | 'failed';
  error?: string;
}

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
    settled: 0,
    markedDone: 0,
    failures: 0,
    failed: 0,
    yielded: 0,
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
  private readonly timeline: Kysely<Database>;

  constructor(private readonly opts: RelayOptions) {
    this.batchSize = opts.batchSize ?? 1000;
    this.concurrency = opts.concurrency ?? 32;
    this.backoffBase = opts.backoffBaseMs ?? 1000;
    this.backoffMax = opts.backoffMaxMs ?? 30_000;
    this.busyConcurrency = opts.busyConcurrency ?? 2;
    this.busyPause = opts.busyPauseMs ?? 10_000;
    // Never destroyed here: the pool belongs to the caller.
    this.timeline =
      opts.timeline ?? new Kysely<Database>({ dialect: new PostgresDialect({ pool: opts.pool }) });
  }

  /** True between start() and stop(): its loops are relaying (or backing off after a failure). */
  get running(): boolean {
    return !this.stopped && this.loops.length > 0;
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
    // A checked-out client has no 'error' listener of the pool's: PostgreSQL ending the connection
    // (a restart) while the batch waits on Temporal was an unhandled 'error' event that ended the
    // whole receiver. Heard here, the next query fails instead and the batch rolls back.
    const onError = (err: Error): void => this.opts.logger.warn({ err }, 'relay connection lost mid-batch');
    client.on('error', onError);
    let released = false;
    try {
      await client.query('BEGIN');
      const rows = await claimInboxRows(client, this.batchSize);
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
      client.removeListener('error', onError);
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
        this.stats.yielded++;
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
    const plan = planSignals(rows);
    const outcomes: Outcome[] = [
      ...plan.done.map((id): Outcome => ({ id, result: 'done' })),
      ...plan.failed.map((f): Outcome => ({ id: f.id, result: 'failed', error: f.error })),
    ];
    const groups = plan.calls;
    let next = 0;
    let broken = false;
    const worker = async (index: number): Promise<void> => {
      while (!broken && next < groups.length) {
        // A burst that begins mid-batch takes effect at once: workers beyond what it allows stop,
        // and the calls they did not reach stay pending for a later batch.
        if (index >= this.allowedInFlight()) return;
        const chunks = groups[next++]!;
        for (const { rowIds: chunkRows, signal } of chunks) {
          if (broken) return;
          try {
            if ((await this.opts.signal(signal)) === 'settled') {
              // Idempotent (each event once per account), so a batch retried after this is harmless.
              await addCallEvents(
                this.timeline,
                signal.account,
                signal.callId,
                timelineEvents(signal.events),
              );
              this.stats.settled += chunkRows.length;
            } else {
              this.stats.signals++;
              this.stats.signalled += chunkRows.length;
            }
            for (const id of chunkRows) outcomes.push({ id, result: 'done' });
          } catch (err) {
            broken = true;
            this.stats.failures++;
            const error = message(err);
            for (const id of chunkRows) outcomes.push({ id, result: 'retry', error });
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
    await markInboxDone(client, done);
    this.stats.markedDone += done.length;
    await scheduleInboxRetries(
      client,
      retry.map((o) => ({
        id: o.id,
        error: o.error ?? '',
        delayMs: Math.min(this.backoffBase * 2 ** (attempts.get(o.id) ?? 0), this.backoffMax),
      })),
    );
    if (failed.length > 0) {
      await markInboxFailed(
        client,
        failed.map((o) => ({ id: o.id, error: o.error ?? '' })),
      );
      this.stats.failed += failed.length;
      this.opts.logger.error(
        { rows: failed.length },
        'relay: inbox rows that can never be relayed were marked failed',
      );
    }
  }
}
