import {
  ApplicationFailure,
  continueAsNew,
  isCancellation,
  log,
  patched,
  proxyActivities,
  workflowInfo,
} from '@temporalio/workflow';
import type { Activities } from '../activities';
import type { SyncArchiveCarried, SyncStreamInput, SyncSummary } from '../contracts';
import { REPORT_ACTIVITIES, SYNC_ACTIVITIES } from '../contracts/activity-options';

const { openSync, syncPage, finishSync, archiveAudio } = proxyActivities<Activities>(SYNC_ACTIVITIES);
const { mirrorReportSchedules } = proxyActivities<Activities>(REPORT_ACTIVITIES);

/** Pages per run before the workflow continues as new, to keep its history small. */
const PAGES_PER_RUN = 200;
/** Audio archive activities per run before the workflow continues as new (60 files each). */
const ARCHIVE_CALLS_PER_RUN = 200;
/**
 * Runs started before this change archived only after a good sync and in one run however large the
 * backlog, and marked a run failed when it continued as new; they replay on syncStreamBeforeArchive.
 */
const ARCHIVE_PATCH = 'sync-archive-always-continue-as-new';

/** A stream whose rows have audio to archive. */
function hasAudio(stream: string): stream is 'recordings' | 'voicemessages' {
  return stream === 'recordings' || stream === 'voicemessages';
}

/** What a failure says, its causes included (an activity's failure wraps the error that failed it). */
function failureText(err: unknown): string {
  const parts: string[] = [];
  for (let e: unknown = err; e instanceof Error && parts.length < 4; e = e.cause) parts.push(e.message);
  return (parts.join(': ') || 'failed').slice(0, 500);
}

/**
 * Brings one stream of one account up to date: from its checkpoint, page by page, each page
 * committed with the moved checkpoint; then archives new audio for recordings and voicemail, also
 * when reading the pages failed (the run fails with that failure once the archive is done). Both
 * loops continue as new before the history grows large, carrying where they are.
 */
export async function syncStream(input: SyncStreamInput): Promise<SyncSummary> {
  // Decided once per run: a run replaying history from before the patch stays on the old steps.
  if (!patched(ARCHIVE_PATCH)) return syncStreamBeforeArchive(input);
  const { account, stream } = input;
  const totals = input.carried ?? {
    pages: 0,
    records: 0,
    quarantined: 0,
    runId: (await openSync({ account, stream, kind: 'incremental', workflowId: workflowInfo().workflowId }))
      .runId,
  };
  const knobs = {
    ...(input.archiveCallsPerRun !== undefined ? { archiveCallsPerRun: input.archiveCallsPerRun } : {}),
    ...(input.archiveBatch !== undefined ? { archiveBatch: input.archiveBatch } : {}),
  };
  const summary = (archived: number): SyncSummary => ({
    pages: totals.pages,
    records: totals.records,
    quarantined: totals.quarantined,
    audioArchived: archived,
  });
  const finishFailed = async (err: unknown): Promise<never> => {
    log.warn('sync failed', { account, stream, error: String(err) });
    await finishSync({
      runId: totals.runId,
      status: 'failed',
      records: totals.records,
      errors: totals.quarantined,
      error: failureText(err),
    });
    throw err;
  };

  let failed: unknown;
  if (input.archive === undefined) {
    let pagesThisRun = 0;
    let more = false;
    try {
      for (;;) {
        const page = await syncPage({ account, stream, scope: '' });
        totals.pages += 1;
        totals.records += page.records;
        totals.quarantined += page.quarantined;
        pagesThisRun += 1;
        if (page.done) break;
        if (pagesThisRun >= PAGES_PER_RUN || workflowInfo().continueAsNewSuggested) {
          more = true;
          break;
        }
      }
    } catch (err) {
      if (isCancellation(err) || !hasAudio(stream)) return finishFailed(err);
      // The audio already in the warehouse is archived all the same; the failure comes after.
      failed = err;
    }
    if (more) return continueAsNew<typeof syncStream>({ account, stream, carried: totals, ...knobs });
  }

  const audio: SyncArchiveCarried = input.archive ?? {
    archived: 0,
    ...(failed !== undefined ? { failure: failureText(failed) } : {}),
  };
  if (hasAudio(stream)) {
    const perRun = input.archiveCallsPerRun ?? ARCHIVE_CALLS_PER_RUN;
    let more = false;
    try {
      for (let calls = 1; ; calls++) {
        const r = await archiveAudio({
          account,
          stream,
          ...(audio.afterId !== undefined ? { afterId: audio.afterId } : {}),
          ...(input.archiveBatch !== undefined ? { limit: input.archiveBatch } : {}),
        });
        audio.archived += r.archived;
        if (r.lastId === undefined) break;
        audio.afterId = r.lastId;
        if (calls >= perRun || workflowInfo().continueAsNewSuggested) {
          more = true;
          break;
        }
      }
    } catch (err) {
      return finishFailed(failed ?? err);
    }
    // The next run goes on after the last file handled, with the totals so far.
    if (more)
      return continueAsNew<typeof syncStream>({ account, stream, carried: totals, archive: audio, ...knobs });
  }
  if (failed !== undefined) return finishFailed(failed);
  if (audio.failure !== undefined) {
    // The pages failed in an earlier run of this chain: its failure, as the run saw it.
    return finishFailed(
      ApplicationFailure.create({ type: 'SyncFailed', message: audio.failure, nonRetryable: true }),
    );
  }
  await finishSync({
    runId: totals.runId,
    status: 'succeeded',
    records: totals.records,
    errors: totals.quarantined,
  });
  if (stream === 'report_schedules') {
    // The platform's report schedules just arrived: Temporal's report Schedules follow them. A
    // mirror that fails leaves the sync good; the next sync (or `start`) mirrors again.
    try {
      await mirrorReportSchedules({ account });
    } catch (err) {
      log.warn('mirroring report schedules failed', { account, error: String(err) });
    }
  }
  return summary(audio.archived);
}

/** syncStream as it ran before ARCHIVE_PATCH, for runs that started then (kept until none is left). */
async function syncStreamBeforeArchive(input: SyncStreamInput): Promise<SyncSummary> {
  const { account, stream } = input;
  const totals = input.carried ?? {
    pages: 0,
    records: 0,
    quarantined: 0,
    runId: (await openSync({ account, stream, kind: 'incremental', workflowId: workflowInfo().workflowId }))
      .runId,
  };
  let pagesThisRun = 0;
  try {
    for (;;) {
      const page = await syncPage({ account, stream, scope: '' });
      totals.pages += 1;
      totals.records += page.records;
      totals.quarantined += page.quarantined;
      pagesThisRun += 1;
      if (page.done) break;
      if (pagesThisRun >= PAGES_PER_RUN || workflowInfo().continueAsNewSuggested) {
        await continueAsNew<typeof syncStream>({ account, stream, carried: totals });
      }
    }
    let audioArchived = 0;
    if (hasAudio(stream)) {
      let afterId: number | undefined;
      for (;;) {
        const r = await archiveAudio({ account, stream, ...(afterId !== undefined ? { afterId } : {}) });
        audioArchived += r.archived;
        if (r.lastId === undefined) break;
        afterId = r.lastId;
      }
    }
    await finishSync({
      runId: totals.runId,
      status: 'succeeded',
      records: totals.records,
      errors: totals.quarantined,
    });
    if (stream === 'report_schedules') {
      try {
        await mirrorReportSchedules({ account });
      } catch (err) {
        log.warn('mirroring report schedules failed', { account, error: String(err) });
      }
    }
    return { pages: totals.pages, records: totals.records, quarantined: totals.quarantined, audioArchived };
  } catch (err) {
    log.warn('sync failed', { account, stream, error: String(err) });
    await finishSync({
      runId: totals.runId,
      status: 'failed',
      records: totals.records,
      errors: totals.quarantined,
      error: err instanceof Error ? err.message.slice(0, 500) : 'failed',
    });
    throw err;
  }
}
