// Group commit into the webhook inbox. Requests that arrive while a commit is running wait for the
// next one, which stores all of them in one multi-row INSERT … ON CONFLICT DO NOTHING: under load
// one commit carries many deliveries, with no timer adding latency when the server is idle. A
// request is answered only after the commit that holds its row; a failed commit fails every request
// in it (the caller answers 503, and the platform delivers again).
import type pg from 'pg';
import { RateMeter } from '../lib/rate-meter';

/** One delivery to store. */
export interface InboxEntry {
  account: string;
  eventId: string;
  eventName: string;
  callId: number | null;
  /** The JSON body as received (valid JSON: the receiver parsed it). */
  body: string;
}

/** What storing did: a new row, or a redelivery of an event already stored. */
export type InboxOutcome = 'stored' | 'duplicate';

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
  resolve: (outcome: InboxOutcome) => void;
  reject: (err: unknown) => void;
}

// The bodies travel as one JSON array ($5) rather than a text[]: they are JSON texts already, so
// joining them costs nothing, where a text[] parameter escapes every quote of every body. ROWS FROM
// zips the arrays element by element.
const INSERT_SQL = `
  INSERT INTO webhook_inbox (account, event_id, event_name, call_id, body)
  SELECT a, e, n, c, b
    FROM ROWS FROM (
      unnest($1::text[]), unnest($2::text[]), unnest($3::text[]), unnest($4::bigint[]),
      jsonb_array_elements($5::jsonb)
    ) AS t(a, e, n, c, b)
  ON CONFLICT (account, event_id) DO NOTHING
  RETURNING account, event_id`;

const key = (account: string, eventId: string): string => `${account}\u0000${eventId}`;

/** SQLSTATE class 22 (data exception): the row's content, not the server, is the problem. */
function isDataError(err: unknown): boolean {
  const code = (err as { code?: unknown }).code;
  return typeof code === 'string' && code.startsWith('22');
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
  write(entry: InboxEntry): Promise<InboxOutcome> {
    this.arrivals.mark();
    return new Promise<InboxOutcome>((resolve, reject) => {
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
      const inserted = await this.insert(batch.map((p) => p.entry));
      this.settle(batch, inserted);
    } catch (err) {
      if (isDataError(err) && batch.length > 1) {
        // One bad row must not fail its neighbours forever (they would be batched with it again on
        // every redelivery): store them one by one, so only the bad row is refused.
        this.stats.failedFlushes++;
        for (const p of batch) await this.flush([p]);
        return;
      }
      this.stats.failedFlushes++;
      const failure =
        isDataError(err) && err instanceof Error ? new InboxRowRejected(err.message, { cause: err }) : err;
      for (const p of batch) p.reject(failure);
    }
  }

  private async insert(entries: InboxEntry[]): Promise<Set<string>> {
    const n = entries.length;
    const accounts = new Array<string>(n);
    const ids = new Array<string>(n);
    const names = new Array<string>(n);
    const calls = new Array<number | null>(n);
    const bodies = new Array<string>(n);
    for (let i = 0; i < n; i++) {
      const e = entries[i] as InboxEntry;
      accounts[i] = e.account;
      ids[i] = e.eventId;
      names[i] = e.eventName;
      calls[i] = e.callId;
      bodies[i] = e.body;
    }
    const res = await this.pool.query<{ account: string; event_id: string }>({
      name: 'webhook_inbox_insert',
      text: INSERT_SQL,
      values: [accounts, ids, names, calls, `[${bodies.join(',')}]`],
    });
    const inserted = new Set<string>();
    for (const row of res.rows) inserted.add(key(row.account, row.event_id));
    if (inserted.size > 0) this.opts.onCommitted?.(inserted.size);
    return inserted;
  }

  private settle(batch: Pending[], inserted: Set<string>): void {
    for (const p of batch) {
      const k = key(p.entry.account, p.entry.eventId);
      // The first of several copies in one batch is the one stored; later copies are duplicates.
      if (inserted.delete(k)) {
        this.stats.stored++;
        p.resolve('stored');
      } else {
        this.stats.duplicates++;
        p.resolve('duplicate');
      }
    }
  }
}
