import { proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../activities';
import type { TranscribeRecordingsInput, TranscribeRecordingsResult } from '../contracts';
import { SYNC_ACTIVITIES, TRANSCRIPTION_ACTIVITIES } from '../contracts/activity-options';

const list = proxyActivities<Activities>(SYNC_ACTIVITIES);
const acts = proxyActivities<Activities>(TRANSCRIPTION_ACTIVITIES);

/** Recordings transcribed at once: each mostly waits on Google's operation. */
const AT_ONCE = 2;

/**
 * Transcribes the account's recordings that have no transcript, each exactly once (run by a
 * schedule). One recording that fails for good is counted and never stops the others.
 */
export async function transcribeRecordings(
  input: TranscribeRecordingsInput,
): Promise<TranscribeRecordingsResult> {
  const result: TranscribeRecordingsResult = { transcribed: 0, capped: 0, skipped: 0, failed: 0, already: 0 };
  const ids = await list.untranscribedRecordings({ account: input.account, limit: input.limit ?? 50 });
  for (let i = 0; i < ids.length; i += AT_ONCE) {
    const outcomes = await Promise.all(
      ids
        .slice(i, i + AT_ONCE)
        .map((recordingId) =>
          acts.transcribeRecording({ account: input.account, recordingId }).catch(() => 'failed' as const),
        ),
    );
    for (const o of outcomes) {
      if (o === 'transcribed') result.transcribed += 1;
      else if (o === 'capped') result.capped += 1;
      else if (o === 'skipped') result.skipped += 1;
      else if (o === 'already') result.already += 1;
      else if (o === 'failed') result.failed += 1;
    }
  }
  return result;
}
