// What a workflow still open at the end of the bench will yet cost, from the schedule its code
// follows (its timers run in real time, which the bench does not compress). Approximate by nature:
// it assumes nothing more arrives (no signal, no late transcript) and reports what it could not
// project rather than guessing.
import type { temporal } from '@temporalio/proto';
import { add, num, type ActionCounts } from './action-rules';
import type { Chain } from './histories';

type HistoryEvent = temporal.api.history.v1.IHistoryEvent;

/** An event's time, epoch ms. */
export function eventMs(t: temporal.api.history.v1.IHistoryEvent['eventTime']): number {
  if (!t) return 0;
  return num(t.seconds) * 1000 + Math.floor((t.nanos ?? 0) / 1e6);
}

/** When the first completed activity of type `name` in the chain completed (epoch ms), or null. */
export function firstCompletion(events: readonly HistoryEvent[], name: string): number | null {
  const scheduled = new Map<string, string>();
  for (const e of events) {
    const s = e.activityTaskScheduledEventAttributes;
    if (s) scheduled.set(String(e.eventId), s.activityType?.name ?? '');
    const c = e.activityTaskCompletedEventAttributes;
    if (c && scheduled.get(String(c.scheduledEventId)) === name) return eventMs(e.eventTime);
  }
  return null;
}

/**
 * The waits between a call's recording checks, as workflows/recording-checks.ts has them (15 s,
 * 1 min, 5, 15, 30 min, then hourly). Copied, as bench code does not import workflow code; the unit
 * test checks the copy against the workflow's schedule.
 */
export const RECORDING_CHECK_STEPS_MS = [15_000, 60_000, 5 * 60_000, 15 * 60_000, 30 * 60_000, 60 * 60_000];

/**
 * The recording checks (workflows/recording-checks.ts) a call's workflow still has before its
 * horizon when nothing arrives: their times, from the log written at `loggedAt`.
 */
export function remainingRecordingChecks(loggedAt: number, horizonMs: number, now: number): number[] {
  const horizon = loggedAt + horizonMs;
  const out: number[] = [];
  if (!Number.isFinite(horizon)) return out;
  const steps = RECORDING_CHECK_STEPS_MS;
  let t = loggedAt;
  for (let i = 0; ; i++) {
    t += steps[Math.min(i, steps.length - 1)]!;
    if (t >= horizon) break;
    if (t > now) out.push(t);
  }
  return out;
}

/**
 * A call's workflow waiting for its recording or transcript (it wrote the call log): each check left
 * is the timer that waits for it (the one running now is in the history already) and the local
 * activity that looks (one workflow task); the horizon ends it with one last look.
 */
export function projectCallWorkflow(chain: Chain, horizonMs: number, now: number): ActionCounts | null {
  const events = chain.runs.flatMap((r) => r.events);
  const loggedAt = firstCompletion(events, 'logCall');
  if (loggedAt === null) return null;
  const checks = remainingRecordingChecks(loggedAt, horizonMs, now).length;
  const actions: ActionCounts = {};
  add(actions, 'timer', checks); // the timers after the running one, the last one to the horizon
  add(actions, 'local_activity', checks + 1);
  return actions;
}

/**
 * A callback waiting for its caller (no auto-dial): its expiry timer runs already; when it fires the
 * callback writes its task once more, as expired (one activity).
 */
export function projectCallback(): ActionCounts {
  const actions: ActionCounts = {};
  add(actions, 'activity_attempt', 1);
  return actions;
}
