// One account's history and settings streams, read by one long-running loop instead of a Temporal
// Schedule per stream. Each turn is one activity (syncStreams) for every stream whose time has come,
// then one timer until the next is due: two Actions a turn on Temporal Cloud, where a Schedule's
// execution is three before its workflow does anything (docs/benchmarks.md "Cost in Actions").
// Streams of one interval share their turns. `callsync sync --now` asks through the syncNow update.
import {
  allHandlersFinished,
  condition,
  makeContinueAsNewFunc,
  proxyActivities,
  setHandler,
  upsertMemo,
  workflowInfo,
} from '@temporalio/workflow';
import type { Activities } from '../activities';
import {
  configureLoopSignal,
  loopStreamsQuery,
  syncNowUpdate,
  type AccountSyncInput,
  type LoopStream,
  type LoopStreamState,
  type StreamTurnResult,
  type SyncSummary,
} from '../contracts';
import { ACCOUNT_SYNC_ACTIVITIES, ACCOUNT_SYNC_BUDGET_MS } from '../contracts/activity-options';

const { syncStreams } = proxyActivities<Activities>(ACCOUNT_SYNC_ACTIVITIES);

/** Turns per run before the loop continues as new (a turn is about ten history events). */
const TURNS_PER_RUN = 400;
/** A stream whose turn failed in passing is tried again after this, doubling up to its interval. */
const FIRST_RETRY_MS = 5_000;

/** Each stream's state, the old state kept for streams still wanted (their open runs included). */
function reconcile(streams: readonly LoopStream[], old: readonly LoopStreamState[], firstAt: number) {
  return streams.map((s): LoopStreamState => {
    const was = old.find((o) => o.stream === s.stream);
    return was ? { ...was, everyMs: s.everyMs } : { ...s, nextAt: firstAt, failures: 0 };
  });
}

export async function accountSync(input: AccountSyncInput): Promise<void> {
  const { account } = input;
  const started = Date.now();
  let streams = input.streams;
  let state = input.state ?? reconcile(streams, [], input.startLater ? started + minEvery(streams) : started);
  /** Streams asked for now, and the summaries of their runs finished since (for the updates waiting). */
  const asked = new Set<string>();
  const finished = new Map<string, { turn: number; summary?: SyncSummary; error?: string }>();
  let turn = 0;

  setHandler(loopStreamsQuery, () => streams);
  setHandler(configureLoopSignal, (wanted) => {
    streams = wanted;
    upsertMemo({ streams });
    state = reconcile(wanted, state, Date.now());
  });
  setHandler(
    syncNowUpdate,
    async ({ stream }) => {
      const askedAt = turn;
      asked.add(stream);
      // The run that finishes in a turn after this request: a running one is joined, not doubled.
      await condition(() => (finished.get(stream)?.turn ?? -1) > askedAt);
      const end = finished.get(stream)!;
      if (end.error !== undefined) throw new Error(`sync of ${stream} failed: ${end.error}`);
      return end.summary!;
    },
    {
      validator: ({ stream }) => {
        if (!streams.some((s) => s.stream === stream))
          throw new Error(`stream ${stream} is not synced by this account's loop`);
      },
    },
  );

  for (;;) {
    const now = Date.now();
    const due = state.filter((s) => dueAt(s) <= now || asked.has(s.stream));
    if (due.length > 0) {
      for (const s of due) asked.delete(s.stream);
      turn += 1;
      const results = await syncStreams({
        account,
        workflowId: workflowInfo().workflowId,
        budgetMs: ACCOUNT_SYNC_BUDGET_MS,
        turns: due.map((s) => ({ stream: s.stream, ...(s.run ? { run: s.run } : {}) })),
      });
      const after = Date.now();
      for (const r of results) {
        const s = state.find((x) => x.stream === r.stream);
        if (s) settle(s, r, after, turn);
      }
    }
    // Requests in flight are answered first: a new run would know nothing of them.
    if (
      (turn >= (input.turnsPerRun ?? TURNS_PER_RUN) || workflowInfo().continueAsNewSuggested) &&
      allHandlersFinished()
    )
      await makeContinueAsNewFunc<typeof accountSync>({ memo: { streams } })({
        account,
        streams,
        state,
        ...(input.turnsPerRun !== undefined ? { turnsPerRun: input.turnsPerRun } : {}),
      });
    const next = Math.min(...state.map(dueAt));
    if (Number.isFinite(next)) await condition(() => asked.size > 0, Math.max(1, next - Date.now()));
    else await condition(() => asked.size > 0);
  }

  /** A stream's state after its turn ended with `r`. */
  function settle(s: LoopStreamState, r: StreamTurnResult, after: number, turnNo: number): void {
    if (r.retryable) {
      // Passing trouble (network, 5xx, a rate limit): soon again, later each time; the run stays open.
      s.failures += 1;
      s.retryAt = after + Math.min(s.everyMs, FIRST_RETRY_MS * 2 ** (s.failures - 1));
      if (r.run) s.run = r.run;
      return;
    }
    s.failures = 0;
    delete s.retryAt;
    if (r.run && r.error === undefined) {
      s.run = r.run; // its budget ran out: it goes on in the next turn, at once
      return;
    }
    delete s.run;
    // The next turn on the interval's grid, so streams of one interval keep sharing their turns.
    if (s.nextAt <= after) s.nextAt += (Math.floor((after - s.nextAt) / s.everyMs) + 1) * s.everyMs;
    finished.set(s.stream, {
      turn: turnNo,
      ...(r.summary ? { summary: r.summary } : {}),
      ...(r.error !== undefined ? { error: r.error } : {}),
    });
  }
}

/** When a stream's next turn is due: its retry, its unfinished run (at once), or its interval. */
function dueAt(s: LoopStreamState): number {
  if (s.failures > 0 && s.retryAt !== undefined) return s.retryAt;
  return s.run ? 0 : s.nextAt;
}

function minEvery(streams: readonly LoopStream[]): number {
  return Math.min(...streams.map((s) => s.everyMs));
}
