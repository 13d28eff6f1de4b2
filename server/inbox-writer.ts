// Group commit into the webhook inbox. Requests that arrive while a commit is running wait for the
// next one, which stores all of them in one multi-row INSERT … ON CONFLICT DO NOTHING: under load
// one commit carries many deliveries, with no timer adding latency when the server is idle. A
// request is answered only after the commit that holds its row; a failed commit fails every request
// in it (the caller answers 503, and the platform delivers again).
import type pg from 'pg';
import { inboxKey, insertInboxRows, type InboxEntry } from '../connectors/postgres';
import { RateMeter } from '../lib/rate-meter';
import type { Suppressor } from '../lib/erasure/suppress';

/**
 * A delivery about an erased person, anonymised and stored as already relayed: it is kept (it was
 * acknowledged) but starts no call follow-up that would write the person back to the CRM.
 */
function suppressed(entry: InboxEntry, suppress: Suppressor): InboxEntry {
  const body = suppress.scrub(JSON.parse(entry.body) as unknown, entry.account, entry.callId);
  return body === null ? entry : { ...entry, body: JSON.stringify(body), suppressed: true };
}

export type { InboxEntry } from '../connectors/postgres';

/** The suppression list as the writer uses it: what it last read, and a read of what was added since. */
export interface SuppressionSource {
  /** The anonymiser for the suppressions read so far (null: none), and the newest one's id. */
  known(): { suppressor: Suppressor | null; newestId: string };
  /** Reads the suppressions added since. */
  refresh(): Promise<void>;
}

/** Reads of a suppression list that keeps changing before a commit gives up (the commit fails: 503). */
const STALE_RETRIES = 5;

/** What storing did: a new row, or a redelivery of an event already stored. */
export type InboxOutcome = 'stored' | 'duplicate';

/** What storing did, and the entry as stored (anonymised, `suppressed`, when it is an erased person's). */
export interface InboxStored {
  outcome: InboxOutcome;
  entry: InboxEntry;
}

/** A row PostgreSQL refused for its content (not the batch's fault); the caller answers 400. */
export class InboxRowRejected extends Error {
  override readonly name = 'InboxRowRejected';
}

export interface InboxWriterOptions {
  /** Most rows in one commit (default 1000). */
  maxBatch?: number;
  /** Commits running at once (default 1: the next batch gathers while one commits). */
  maxConcurrentFlushes?: number;
  /** Called after each successful commit that stored rows (e.g. to wake the relay). */
  onCommitted?: (stored: number) => void;
  /** The suppression list (docs/privacy.md "Erasure"); none when absent. */
  suppression?: SuppressionSource;
}

/** Counters, for tests and metrics. */
export interface InboxWriterStats {
  /** INSERT statements run, each its own commit (successful or not). */
  flushes: number;
  /** Rows sent in them. */
  rows: number;
  stored: number;
  duplicates: number;
  failedFlushes: number;
}

interface Pending {
  entry: InboxEntry;
  resolve: (stored: InboxStored) => void;
  reject: (err: unknown) => void;
}

/**
 * A row PostgreSQL refuses for its content, not for the server's state: SQLSTATE class 22 (data
 * exception, e.g. a lone surrogate in jsonb) or 54 (program limit exceeded: an index row too large
 * for a very long id, JSON nested too deep for the parser's stack). Retrying it never helps.
 */
function isRowError(err: unknown): boolean {
  const code = (err as { code?: unknown }).code;
  return typeof code === 'string' && (code.startsWith('22') || code.startsWith('54'));
}

/** Batches inbox writes into shared commits. */
export class InboxWriter {
  readonly stats: InboxWriterStats = { flushes: 0, rows: 0, stored: 0, duplicates: 0, failedFlushes: 0 };
  private queue: Pending[] = [];
  private readonly arrivals = new RateMeter();
  private running = 0;
  private idle: Array<() => void> = [];
  private readonly maxBatch: number;
  private readonly maxFlushes: number;

  constructor(
    private readonly pool: pg.Pool,
    private readonly opts: InboxWriterOptions = {},
  ) {
    this.maxBatch = opts.maxBatch ?? 1000;
    this.maxFlushes = opts.maxConcurrentFlushes ?? 1;
  }

  /** Stores one delivery; resolves once it is committed. */
  async write(entry: InboxEntry): Promise<InboxOutcome> {
    return (await this.store(entry)).outcome;
  }

  /**
   * Stores one delivery; resolves once it is committed, with the entry as stored: what follows the
   * commit (the fast path) must see the anonymised event, never the raw one.
   */
  store(entry: InboxEntry): Promise<InboxStored> {
    this.arrivals.mark();
    return new Promise<InboxStored>((resolve, reject) => {
      this.queue.push({ entry, resolve, reject });
      this.pump();
    });
  }

  /** Deliveries per second over the last second (what the relay yields to). */
  arrivalRate(): number {
    return this.arrivals.perSecond();
  }

  /** Resolves when nothing is queued or committing. */
  async drain(): Promise<void> {
    if (this.running === 0 && this.queue.length === 0) return;
    await new Promise<void>((r) => this.idle.push(r));
  }

  private pump(): void {
    while (this.running < this.maxFlushes && this.queue.length > 0) {
      const batch = this.queue.splice(0, this.maxBatch);
      this.running++;
      void this.flush(batch).finally(() => {
        this.running--;
        if (this.queue.length > 0) this.pump();
        else if (this.running === 0) for (const r of this.idle.splice(0)) r();
      });
    }
  }

  private async flush(batch: Pending[]): Promise<void> {
    this.stats.flushes++;
    this.stats.rows += batch.length;
    try {
      const { entries, inserted } = await this.insert(batch);
      if (inserted.size > 0) this.opts.onCommitted?.(inserted.size);
      this.settle(batch, entries, inserted);
    } catch (err) {
      this.stats.failedFlushes++;
      if (isRowError(err) && batch.length > 1) {
        // One bad row must not fail its neighbours forever (they would be batched with it again on
        // every redelivery): halve the batch until the bad row stands alone. Only a failed commit
        // pays for this (log2 of the batch extra statements per bad row); good commits pay nothing.
        const half = Math.ceil(batch.length / 2);
        await this.flush(batch.slice(0, half));
        await this.flush(batch.slice(half));
        return;
      }
      const failure =
        isRowError(err) && err instanceof Error ? new InboxRowRejected(err.message, { cause: err }) : err;
      for (const p of batch) p.reject(failure);
    }
  }

  /**
   * Inserts the batch anonymised by the suppressions known; the insert refuses when newer ones exist
   * (checked in its own statement), and then they are read and the batch anonymised again.
   */
  private async insert(batch: Pending[]): Promise<{ entries: InboxEntry[]; inserted: Set<string> }> {
    const source = this.opts.suppression;
    for (let attempt = 0; ; attempt++) {
      const known = source?.known();
      const suppress = known?.suppressor;
      const entries = batch.map((p) => (suppress ? suppressed(p.entry, suppress) : p.entry));
      const result = await insertInboxRows(this.pool, entries, known?.newestId ?? null);
      if (!result.stale) return { entries, inserted: result.inserted };
      if (attempt >= STALE_RETRIES) throw new Error('the suppression list kept changing during the commit');
      await source!.refresh();
    }
  }

  private settle(batch: Pending[], entries: InboxEntry[], inserted: Set<string>): void {
    for (const [i, p] of batch.entries()) {
      const entry = entries[i]!;
      const k = inboxKey(entry.account, entry.eventId);
      // The first of several copies in one batch is the one stored; later copies are duplicates.
      if (inserted.delete(k)) {
        this.stats.stored++;
        p.resolve({ outcome: 'stored', entry });
      } else {
        this.stats.duplicates++;
        p.resolve({ outcome: 'duplicate', entry });
      }
    }
  }
}
