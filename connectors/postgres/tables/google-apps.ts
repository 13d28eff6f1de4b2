// State of the Google apps destinations: Tasks lists callsync created, and transcription jobs.
import type { ColumnType, Generated, Selectable } from 'kysely';

/** A Google Tasks list callsync found or created for one owner (whose Tasks) and title. */
export interface GoogleTasklistsTable {
  /** The e-mail whose Tasks hold the list ('' for the credentials' own Tasks). */
  owner: string;
  title: string;
  tasklist_id: string;
  created_at: Generated<Date>;
}

/** Status of a transcription job: running (operation started), done, failed or skipped (with the reason). */
export type TranscriptionStatus = 'running' | 'done' | 'failed' | 'skipped';

/** One Speech-to-Text transcription per recording, recorded before the operation starts. */
export interface TranscriptionJobsTable {
  account: string;
  recording_id: ColumnType<string, number, number>;
  status: TranscriptionStatus;
  /** The long-running operation's name, once started: a retry polls it instead of starting another. */
  operation_name: string | null;
  /** Audio length reserved against the monthly cap. */
  audio_seconds: number;
  /** `YYYY-MM` (UTC) the minutes count towards. */
  month: string;
  reason: string | null;
  started_at: Generated<Date>;
  finished_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
}
export type TranscriptionJobRow = Selectable<TranscriptionJobsTable>;
