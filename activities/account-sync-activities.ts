// The account sync loop's one activity per turn: each due stream of the account read from its
// checkpoint (page by page, each committed with the moved checkpoint, as syncStream's activities do),
// its new audio archived, its sync_runs row closed; the streams side by side, each within a budget,
// so a long first read goes on over several turns without holding the others back.
import { ApplicationFailure, Context, log } from '@temporalio/activity';
import type { OpenStreamRun, StreamTurn, StreamTurnResult, SyncStreamsInput } from '../contracts';
import { NON_RETRYABLE_TYPES } from '../contracts/activity-options';
import type { AudioActivities } from './audio-activities';
import { toActivityFailure } from './failures';
import type { ReportActivities } from './report-activities';
import type { SyncActivities } from './sync-activities';

/**
 * Heartbeats in the first seconds of a turn are not sent: Temporal Cloud bills every heartbeat that
 * reaches the server, and a turn of streams with nothing new ends well within this. A longer turn
 * heartbeats from then on (activities/failures.ts keeps a ticker a third of the timeout apart).
 */
const QUIET_HEARTBEAT_MS = 4_000;

/** A stream whose rows have audio to archive. */
const hasAudio = (stream: string) => stream === 'recordings' || stream === 'voicemessages';

/** What a failure says and whether trying again can fix it, as the activity boundary would map it. */
function failureOf(err: unknown): { message: string; retryable: boolean } {
  try {
    toActivityFailure(err);
  } catch (mapped) {
    if (mapped instanceof ApplicationFailure)
      return {
        message: mapped.message.slice(0, 500),
        retryable: !mapped.nonRetryable && !NON_RETRYABLE_TYPES.includes(mapped.type ?? ''),
      };
    return {
      message: (mapped instanceof Error ? mapped.message : String(mapped)).slice(0, 500),
      retryable: true,
    };
  }
  return { message: 'failed', retryable: true };
}

export function createAccountSyncActivities(
  sync: SyncActivities,
  audio: AudioActivities,
  reports: Pick<ReportActivities, 'mirrorReportSchedules'>,
) {
  /** One stream's turn: goes on with `turn.run` or opens a new run. */
  const streamTurn = async (
    input: SyncStreamsInput,
    turn: StreamTurn,
    started: number,
  ): Promise<StreamTurnResult> => {
    const { account } = input;
    const { stream } = turn;
    const outOfTime = () => Date.now() - started >= input.budgetMs;
    let run: OpenStreamRun | undefined = turn.run;
    try {
      run ??= {
        runId: (await sync.openSync({ account, stream, kind: 'incremental', workflowId: input.workflowId }))
          .runId,
        pages: 0,
        records: 0,
        quarantined: 0,
        audioArchived: 0,
      };
      while (!run.pagesDone) {
        const page = await sync.syncPage({ account, stream, scope: '' });
        run = { ...run, pages: run.pages + 1, records: run.records + page.records };
        run.quarantined += page.quarantined;
        if (page.done) run.pagesDone = true;
        else if (outOfTime()) return { stream, run };
      }
      if (hasAudio(stream)) {
        for (;;) {
          const r = await audio.archiveAudio({
            account,
            stream,
            ...(run.archiveAfterId !== undefined ? { afterId: run.archiveAfterId } : {}),
          });
          run.audioArchived += r.archived;
          if (r.lastId === undefined) break;
          run.archiveAfterId = r.lastId;
          if (outOfTime()) return { stream, run };
        }
      }
      await sync.finishSync({
        runId: run.runId,
        status: 'succeeded',
        records: run.records,
        errors: run.quarantined,
      });
      if (stream === 'report_schedules') {
        // Temporal's report Schedules follow the platform's; a failed mirror leaves the sync good and
        // the next turn (or `start`) mirrors again.
        try {
          await reports.mirrorReportSchedules({ account });
        } catch (err) {
          log.warn('mirroring report schedules failed', { account, error: failureOf(err).message });
        }
      }
      const { pages, records, quarantined, audioArchived } = run;
      return { stream, summary: { pages, records, quarantined, audioArchived } };
    } catch (err) {
      if (Context.current().cancellationSignal.aborted) throw err;
      const failure = failureOf(err);
      log.warn('stream sync failed', {
        account,
        stream,
        retryable: failure.retryable,
        error: failure.message,
      });
      // A passing failure leaves the run open: the next turn resumes at the checkpoint.
      if (failure.retryable)
        return { stream, ...(run ? { run } : {}), error: failure.message, retryable: true };
      if (run)
        await sync.finishSync({
          runId: run.runId,
          status: 'failed',
          records: run.records,
          errors: run.quarantined,
          error: failure.message,
        });
      return { stream, error: failure.message, retryable: false };
    }
  };

  return {
    /** The due streams of an account, side by side, each for at most `budgetMs`. */
    async syncStreams(input: SyncStreamsInput): Promise<StreamTurnResult[]> {
      const started = Date.now();
      quietFirstHeartbeats(Context.current(), started);
      return Promise.all(input.turns.map((turn) => streamTurn(input, turn, started)));
    },
  };
}

/** Drops the context's heartbeats during the turn's first QUIET_HEARTBEAT_MS. */
function quietFirstHeartbeats(ctx: Context, started: number): void {
  const send = ctx.heartbeat.bind(ctx);
  const quiet = (details?: unknown) => {
    if (Date.now() - started >= QUIET_HEARTBEAT_MS) send(details);
  };
  Object.defineProperty(ctx, 'heartbeat', { value: quiet, configurable: true, writable: true });
}

export type AccountSyncActivities = ReturnType<typeof createAccountSyncActivities>;
