// When a call's workflow looks for its recording and transcript after logging the call. Most
// recordings exist by the time the call is logged (the first log carries them); the rest arrive
// within seconds, transcripts within minutes, and a recording-seen note wakes the workflow as soon
// as callsync hears of one. The schedule is only the fallback, so it is sparse: a call centre's
// thousands of calls an hour each waiting out a six-hour horizon must not keep the Temporal server
// and the platform busy with polls.

/** The first check after the call is logged. */
export const FIRST_RECORDING_CHECK_MS = 15_000;

const STEPS_MS = [15_000, 60_000, 5 * 60_000, 15 * 60_000, 30 * 60_000, 60 * 60_000];

/** The wait before the check after one that waited `previousMs`: 15 s, 1 min, 5, 15, 30 min, then hourly. */
export function nextRecordingCheck(previousMs: number): number {
  return STEPS_MS.find((step) => step > previousMs) ?? STEPS_MS[STEPS_MS.length - 1]!;
}
