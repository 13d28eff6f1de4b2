import {
  condition,
  continueAsNew,
  executeChild,
  getExternalWorkflowHandle,
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

const { openSync, openWindow, syncPage, finishSync, backfillSettings } =
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

/** Pages per window run before continuing as new. */
const PAGES_PER_WINDOW_RUN = 200;

/** One window of a backfill: every page of `from <= cursor < to`, each committed with its checkpoint. */
export async function backfillWindow(input: BackfillWindowInput): Promise<WindowTotals> {
  const { account, stream, from, to } = input;
  await openWindow({ account, stream, from, to });
  const scope = `window:${from}/${to}`;
  let records = input.carried?.records ?? 0;
  let quarantined = input.carried?.quarantined ?? 0;
  const parent = input.parentId ? getExternalWorkflowHandle(input.parentId) : undefined;
  for (let pages = 1; ; pages++) {
    const page = await syncPage({ account, stream, scope });
    records += page.records;
    quarantined += page.quarantined;
    if (page.done) break;
    if (parent) await parent.signal(windowProgressSignal, { window: `${from}/${to}`, records, quarantined });
    if (pages >= PAGES_PER_WINDOW_RUN || workflowInfo().continueAsNewSuggested) {
      await continueAsNew<typeof backfillWindow>({ ...input, carried: { records, quarantined } });
    }
  }
  return { records, quarantined };
}
