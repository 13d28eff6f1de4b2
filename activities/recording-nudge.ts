// Recording-seen notes: when callsync learns that a call's recording or its transcript exists (the
// recordings sync reads a new one, callsync's transcription writes one), the call's workflow hears
// it at once and updates the CRM log, instead of finding it at its next scheduled check. A note is
// a signal without start (a call whose follow-up has ended needs none), and each recording's note
// is sent once per change: the workflow counts a signal's event id once, but every signal still
// costs the Temporal server a workflow task.
import { WorkflowNotFoundError, type Client } from '@temporalio/client';
import { sql, type Kysely } from 'kysely';
import type { Monitor } from '../connectors/platform';
import type { Database } from '../connectors/postgres';
import {
  RECORDING_SEEN_EVENT,
  callEventSignal,
  callWorkflowId,
  callsyncNote,
  type CallEventSignal,
} from '../contracts';
import { platformTimeOrUndefined } from '../sync/time';

/** The note for one recording: `transcript` once it has one, `recording` before. */
export function recordingSeenEvent(recordingId: number, what: 'recording' | 'transcript'): CallEventSignal {
  return callsyncNote(`${what}-seen-${recordingId}`, RECORDING_SEEN_EVENT);
}

const hasTranscript = (m: Pick<Monitor, 'transcript'>): boolean => Boolean(m.transcript?.trim());

/** Tells the call's workflow about its recording; false when no follow-up of the call runs. */
export async function nudgeCall(temporal: Client, account: string, callId: number, event: CallEventSignal) {
  try {
    await temporal.workflow.getHandle(callWorkflowId(account, callId)).signal(callEventSignal, event);
    return true;
  } catch (err) {
    if (err instanceof WorkflowNotFoundError) return false;
    throw err;
  }
}

/** Tells the call of a recording callsync has just transcribed. */
export function nudgeTranscribed(
  temporal: Client | undefined,
  account: string,
  monitor: Monitor,
): Promise<boolean> {
  if (!temporal || !monitor.live_id) return Promise.resolve(false);
  return nudgeCall(temporal, account, monitor.live_id, recordingSeenEvent(monitor.id, 'transcript'));
}

/**
 * Of a page of recordings read by the sync (before it is written to the warehouse), tells the calls
 * whose recording is new to the warehouse or has gained its transcript since. Recordings made more
 * than `windowMs` before the page's newest one are left alone: their calls stopped waiting. Returns
 * how many calls were told.
 */
export async function nudgeRecordingChanges(
  temporal: Client,
  db: Kysely<Database>,
  account: string,
  monitors: readonly Monitor[],
  windowMs: number,
): Promise<number> {
  const times = monitors.map((m) => platformTimeOrUndefined(m.created_at ?? ''));
  const newest = Math.max(...times.map((t) => t ?? -Infinity));
  const recent = monitors.filter(
    (m, i) => m.live_id && times[i] !== undefined && times[i] >= newest - windowMs,
  );
  if (recent.length === 0) return 0;
  const known = new Map(
    (
      await db
        .selectFrom('recordings')
        .select(['id', sql<boolean>`coalesce(btrim(transcript), '') <> ''`.as('transcribed')])
        .where('account', '=', account)
        .where(
          'id',
          'in',
          recent.map((m) => m.id),
        )
        .execute()
    ).map((r) => [Number(r.id), r.transcribed]),
  );
  let told = 0;
  for (const m of recent) {
    const before = known.get(m.id);
    const what = hasTranscript(m) ? 'transcript' : 'recording';
    // Unchanged since the warehouse last had it: its call heard of it then.
    if (before !== undefined && (before || what === 'recording')) continue;
    if (await nudgeCall(temporal, account, m.live_id!, recordingSeenEvent(m.id, what))) told++;
  }
  return told;
}
