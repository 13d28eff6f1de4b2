// The transcription sweep as its schedule, the CLI and tests see it: one run per account looks at the
// recordings without a transcript and transcribes each once (config transcription.google).
import { workflowRef } from './workflow-ref';

export interface TranscribeRecordingsInput {
  account: string;
  /** Recordings looked at in this run (default 50); the next run takes the rest. */
  limit?: number;
}

/** How the run's recordings ended, counted. */
export interface TranscribeRecordingsResult {
  transcribed: number;
  capped: number;
  skipped: number;
  failed: number;
  already: number;
}

/** Schedule id (and workflow id of scheduled runs) of an account's transcription sweep. */
export function transcriptionScheduleId(account: string): string {
  return `transcribe-${account}`;
}

/** The signature of `workflows/transcribe-recordings.ts`. */
export type TranscribeRecordingsWorkflow = (
  input: TranscribeRecordingsInput,
) => Promise<TranscribeRecordingsResult>;

/** Start or schedule the sweep through this. */
export const transcribeRecordingsWorkflow = workflowRef<TranscribeRecordingsWorkflow>('transcribeRecordings');
