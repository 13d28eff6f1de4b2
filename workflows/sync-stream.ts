import { continueAsNew, log, proxyActivities, workflowInfo } from '@temporalio/workflow';
import type { Activities } from '../activities';
import type { SyncStreamInput, SyncSummary } from '../contracts';
import { REPORT_ACTIVITIES, SYNC_ACTIVITIES } from '../contracts/activity-options';

const { openSync, syncPage, finishSync, archiveAudio } = proxyActivities<Activities>(SYNC_ACTIVITIES);
const { mirrorReportSchedules } = proxyActivities<Activities>(REPORT_ACTIVITIES);

/** Pages per run before the workflow continues as new, to keep its history small. */
const PAGES_PER_RUN = 200;

/**
 * Brings one stream of one account up to date: from its checkpoint, page by page, each page
 * committed with the moved checkpoint; then archives new audio for recordings and voicemail.
 */
export async function syncStream(input: SyncStreamInput): Promise<SyncSummary> {
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
    if (stream === 'recordings' || stream === 'voicemessages') {
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
      // The platform's report schedules just arrived: Temporal's report Schedules follow them. A
      // mirror that fails leaves the sync good; the next sync (or `start`) mirrors again.
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
