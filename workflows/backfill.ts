import {
  condition,
  continueAsNew,
  executeChild,
  getExternalWorkflowHandle,
  patched,
  proxyActivities,
  setHandler,
  workflowInfo,
} from '@temporalio/workflow';
import type { Activities } from '../activities';
import {
  backfillWindowWorkflowId,
  progressQuery,
  windowProgressSignal,
  type BackfillInput,
  type BackfillProgress,
  type BackfillWindowInput,
  type WindowTotals,
} from '../contracts';
import { splitWindows } from '../sync/windows';
import { formatPlatformTime } from '../sync/time';
import { SYNC_ACTIVITIES } from '../contracts/activity-options';

const { openSync, openWindow, syncPage, syncPages, finishSync, backfillSettings } =
  proxyActivities<Activities>(SYNC_ACTIVITIES);

/**
 * Loads a stream's history for a time range: the range is split into windows run as child
 * workflows, at most `parallelism` at once. Each window resumes from its own checkpoint.
 */
export async function backfill(input: BackfillInput): Promise<BackfillProgress> {
  const settings = await backfillSettings({ account: input.account });
  const to = input.to ?? formatPlatformTime(Date.now());
  const windows = splitWindows(input.from, to, input.windowMs ?? settings.windowMs);
  const parallelism = input.parallelism ?? settings.parallelism;
  const { runId } = await openSync({
    account: input.account,
    stream: input.stream,
    kind: 'backfill',
    workflowId: workflowInfo().workflowId,
  });

  const perWindow = new Map<string, WindowTotals>();
  const startedAt = Date.now();
  let windowsDone = 0;
  let finished = false;
  const progress = (): BackfillProgress => {
    let records = 0;
    let quarantined = 0;
    for (const w of perWindow.values()) {
      records += w.records;
      quarantined += w.quarantined;
    }
    const seconds = Math.max((Date.now() - startedAt) / 1000, 0.001);
    return {
      windowsTotal: windows.length,
      windowsDone,
      records,
      quarantined,
      startedAt,
      recordsPerSecond: Math.round(records / seconds),
      done: finished,
    };
  };
  setHandler(progressQuery, progress);
  setHandler(windowProgressSignal, (p) => {
    const known = perWindow.get(p.window);
    // Signals can arrive after the window's result; never move a window's totals backwards.
    if (!known || known.records <= p.records) perWindow.set(p.window, p);
  });

  const parentId = workflowInfo().workflowId;
  let running = 0;
  let failure: Error | undefined;
  for (const w of windows) {
    await condition(() => running < parallelism || failure !== undefined);
    if (failure !== undefined) break;
    running += 1;
    const name = `${w.from}/${w.to}`;
    const args: BackfillWindowInput = { account: input.account, stream: input.stream, ...w, parentId };
    executeChild(backfillWindow, { workflowId: backfillWindowWorkflowId(parentId, w.from), args: [args] })
      .then((r) => {
        windowsDone += 1;
        perWindow.set(name, r);
      })
      .catch((err: unknown) => {
        failure ??= err instanceof Error ? err : new Error(String(err));
      })
      .finally(() => {
        running -= 1;
      });
  }
  await condition(() => running === 0);
  finished = true;
  const result = progress();
  await finishSync({
    runId,
    status: failure === undefined ? 'succeeded' : 'failed',
    records: result.records,
    errors: result.quarantined,
    ...(failure !== undefined ? { error: failure.message.slice(0, 500) } : {}),
  });
  if (failure !== undefined) throw failure;
  return result;
}

/** Activities per window run before continuing as new. */
const PAGES_PER_WINDOW_RUN = 200;
/** A window tells the backfill its totals at most this often (its result carries the final ones). */
const PROGRESS_INTERVAL_MS = 2000;
/** How long one activity of a window goes on reading pages before it reports back. */
const PAGES_BUDGET_MS = 5000;
const BATCHED_PAGES_PATCH = 'backfill-batched-pages';

/** One window of a backfill: every page of `from <= cursor < to`, each committed with its checkpoint. */
export async function backfillWindow(input: BackfillWindowInput): Promise<WindowTotals> {
  const { account, stream, from, to } = input;
  await openWindow({ account, stream, from, to });
  const scope = `window:${from}/${to}`;
  let records = input.carried?.records ?? 0;
  let quarantined = input.carried?.quarantined ?? 0;
  const parent = input.parentId ? getExternalWorkflowHandle(input.parentId) : undefined;
  // Runs started before this change read one page per activity, signalled the backfill after every
  // page and waited for each signal. Now one activity reads pages for a few seconds, and the next
  // one starts while a signal (at most one every 2 s) is delivered: Temporal handles a window's
  // progress a few times a minute instead of several times per page.
  const batched = patched(BATCHED_PAGES_PATCH);
  let lastProgress = -Infinity;
  let signalling: Promise<void> = Promise.resolve();
  for (let calls = 1; ; calls++) {
    const page = batched
      ? await syncPages({ account, stream, scope, budgetMs: PAGES_BUDGET_MS })
      : await syncPage({ account, stream, scope });
    records += page.records;
    quarantined += page.quarantined;
    if (page.done) break;
    if (parent && !batched) {
      await parent.signal(windowProgressSignal, { window: `${from}/${to}`, records, quarantined });
    } else if (parent && Date.now() - lastProgress >= PROGRESS_INTERVAL_MS) {
      lastProgress = Date.now();
      // The backfill never moves a window's totals backwards, so a lost or late signal only delays them.
      signalling = parent
        .signal(windowProgressSignal, { window: `${from}/${to}`, records, quarantined })
        .catch(() => undefined);
    }
    if (calls >= PAGES_PER_WINDOW_RUN || workflowInfo().continueAsNewSuggested) {
      await signalling;
      await continueAsNew<typeof backfillWindow>({ ...input, carried: { records, quarantined } });
    }
  }
  await signalling;
  return { records, quarantined };
}
