// The relay steps back while the receiver is under a burst: with `busy()` true it first pauses for
// `busyPauseMs`, then keeps at most `busyConcurrency` signals in flight (still making progress),
// pauses throughout with 0, and goes back to full concurrency once the burst is over; a call's
// events keep their order. Real PostgreSQL; the signaller records what reaches it.
import { silentLogger } from '../../lib/logger';
import { InboxWriter } from '../../server/inbox-writer';
import { Relay, type CallSignal, type RelayOptions } from '../../server/relay';
import { eventually } from '../support/eventually';
import { storeWebhook } from './inbox-fixtures';
import { createMigratedWarehouse, type MigratedWarehouse } from './warehouse-db';

const ACCOUNT = 'acme';

/** One ringing event for each of `calls` calls (distinct calls are signalled in parallel). */
async function storeCalls(inbox: InboxWriter, first: number, calls: number): Promise<void> {
  await Promise.all(
    Array.from({ length: calls }, (_, i) =>
      storeWebhook(
        inbox,
        ACCOUNT,
        JSON.stringify({
          id: `yield-${first + i}`,
          event_time: '2026-11-30 10:00:00',
          event_name: 'call.ringing',
          call_id: first + i,
          state: 'RINGING',
        }),
      ),
    ),
  );
}

/** Polls `ok` every few milliseconds (the relays here poll every 20) until it holds. */
async function until(ok: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!ok()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

/**
 * Waits until the relay's loops have stepped back for the burst `passes` more times: each such pass
 * checked for the burst instead of claiming, so what was due to happen before it has happened.
 */
async function yieldedAgain(relay: Relay, passes: number): Promise<void> {
  const target = relay.stats.yielded + passes;
  await until(() => relay.stats.yielded >= target, `${passes} more passes stepping back for the burst`);
}

/** A signaller that takes `ms` per signal and remembers the most signals it had in flight. */
function recordingSignaller(ms: number) {
  const seen: number[] = [];
  const eventIds: string[] = [];
  const sizes: number[] = [];
  let inFlight = 0;
  let peak = 0;
  return {
    seen,
    eventIds,
    sizes,
    peak: () => peak,
    resetPeak: () => void (peak = 0),
    signal: async (s: CallSignal): Promise<void> => {
      inFlight++;
      peak = Math.max(peak, inFlight);
      await new Promise((r) => setTimeout(r, ms));
      inFlight--;
      seen.push(s.callId);
      eventIds.push(...s.events.map((e) => e.eventId));
      sizes.push(s.events.length);
    },
  };
}

describe('relay yields to the receiver during bursts', () => {
  let w: MigratedWarehouse;
  beforeAll(async () => {
    w = await createMigratedWarehouse('relay_yield');
  });
  afterAll(async () => {
    await w?.dispose();
  });
  beforeEach(async () => {
    await w.pool.query('TRUNCATE webhook_inbox RESTART IDENTITY');
  });

  /** Runs `body` with a relay on the test database, and stops the relay afterwards. */
  async function withRelay(
    options: Omit<RelayOptions, 'pool' | 'logger'>,
    body: (relay: Relay) => Promise<unknown>,
  ): Promise<Relay> {
    const relay = new Relay({ pool: w.pool, logger: silentLogger, ...options });
    relay.start();
    try {
      await body(relay);
    } finally {
      await relay.stop();
    }
    return relay;
  }

  const drained = () =>
    eventually(async () => ((await pending()) === 0 ? true : undefined), 'the inbox to drain', 30_000);
  const pending = async (): Promise<number> =>
    Number(
      (await w.pool.query<{ n: string }>("SELECT count(*) AS n FROM webhook_inbox WHERE status <> 'done'"))
        .rows[0]!.n,
    );

  it('trickles with busyConcurrency signals in flight while busy, and runs at full width after', async () => {
    const inbox = new InboxWriter(w.pool);
    const rec = recordingSignaller(5);
    let busy = true;
    await storeCalls(inbox, 1000, 60);
    await withRelay(
      {
        signal: rec.signal,
        busy: () => busy,
        busyPauseMs: 0,
        busyConcurrency: 2,
        concurrency: 16,
        batchSize: 40,
        pollMs: 20,
      },
      async (relay) => {
        // Still busy: the backlog drains, but never with more than two signals at once.
        await drained();
        expect(rec.peak()).toBeLessThanOrEqual(2);
        expect(new Set(rec.seen).size).toBe(60);

        busy = false;
        rec.resetPeak();
        await storeCalls(inbox, 2000, 60);
        relay.wake();
        await drained();
        expect(rec.peak()).toBeGreaterThan(2);
      },
    );
  });

  it("hands a call's events over in arrival order, in shared signals of at most 100", async () => {
    const inbox = new InboxWriter(w.pool);
    const rec = recordingSignaller(1);
    // Row ids run past 9 → 10 and 99 → 100, where a text sort would reorder them.
    const ids = Array.from({ length: 230 }, (_, i) => `ordered-${i + 1}`);
    for (const [i, id] of ids.entries()) {
      await storeWebhook(
        inbox,
        ACCOUNT,
        JSON.stringify({ id, event_name: 'call.ringing', call_id: 77, duration: i }),
      );
    }
    // One claimer: order is kept within a batch, and batches claimed side by side may split a call.
    const relay = await withRelay({ signal: rec.signal, parallelBatches: 1 }, drained);
    expect(rec.eventIds).toEqual(ids);
    expect(rec.sizes).toEqual([100, 100, 30]);
    expect(relay.stats).toMatchObject({ signals: 3, signalled: 230, markedDone: 230 });
  });

  it('pauses outright for busyPauseMs of a burst, then trickles until it ends', async () => {
    const inbox = new InboxWriter(w.pool);
    const rec = recordingSignaller(2);
    await storeCalls(inbox, 4000, 30);
    const started = Date.now();
    await withRelay(
      {
        signal: rec.signal,
        busy: () => true,
        busyPauseMs: 1000,
        busyConcurrency: 1,
        batchSize: 10,
        pollMs: 20,
      },
      async (relay) => {
        // Both loops have met the burst and stepped back, and do so again after a wake().
        await yieldedAgain(relay, 4);
        relay.wake();
        await yieldedAgain(relay, 4);
        expect(Date.now() - started).toBeLessThan(1000); // still within the pause
        expect(rec.seen).toHaveLength(0);
        expect(relay.stats.batches).toBe(0);
        expect(await pending()).toBe(30);
        await drained();
        expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
        expect(rec.peak()).toBe(1);
        expect(new Set(rec.seen).size).toBe(30);
      },
    );
  });

  it('yields at once to a burst that begins mid-batch, leaving the calls it did not reach pending', async () => {
    const inbox = new InboxWriter(w.pool);
    const rec = recordingSignaller(20);
    let busy = false;
    await storeCalls(inbox, 5000, 80);
    await withRelay(
      {
        signal: async (s) => {
          await rec.signal(s);
          if (rec.seen.length === 5) busy = true; // the burst starts while the batch is under way
        },
        busy: () => busy,
        busyConcurrency: 0,
        concurrency: 4,
        parallelBatches: 1,
        pollMs: 20,
      },
      async (relay) => {
        await eventually(async () => (busy ? true : undefined), 'the burst to start', 10_000);
        // The batch under way was recorded, and the loop has since come round twice and stepped back.
        await until(() => relay.stats.batches === 1, 'the batch under way to be recorded');
        await yieldedAgain(relay, 2);
        expect(relay.stats.batches).toBe(1);
        // Only the signals already in flight when it began have finished.
        expect(rec.seen.length).toBeLessThanOrEqual(5 + 4);
        expect(await pending()).toBe(80 - rec.seen.length);
        busy = false;
        await drained();
        expect(new Set(rec.seen).size).toBe(80);
      },
    );
  });

  it('pauses with busyConcurrency 0 and catches up once the burst is over', async () => {
    const inbox = new InboxWriter(w.pool);
    const rec = recordingSignaller(1);
    let busy = true;
    await storeCalls(inbox, 3000, 25);
    await withRelay(
      {
        signal: rec.signal,
        busy: () => busy,
        busyConcurrency: 0,
        pollMs: 20,
      },
      async (relay) => {
        // Both loops have met the burst and stepped back, and do so again after a wake().
        await yieldedAgain(relay, 4);
        relay.wake();
        await yieldedAgain(relay, 4);
        expect(rec.seen).toHaveLength(0);
        expect(relay.stats.batches).toBe(0);
        expect(await pending()).toBe(25);
        busy = false;
        await drained();
        expect(new Set(rec.seen).size).toBe(25);
      },
    );
  });
});
