import {
  CancellationScope,
  allHandlersFinished,
  isCancellation,
  condition,
  continueAsNew,
  patched,
  proxyActivities,
  proxyLocalActivities,
  setHandler,
  sleep,
  workflowInfo,
} from '@temporalio/workflow';
import type { Activities } from '../activities';
import {
  CDR_SEEN_EVENT,
  RECORDING_SEEN_EVENT,
  callEventSignal,
  callEventsSignal,
  callStateQuery,
  type CallEventSignal,
  type CallLifecycleCarried,
  type CallLifecycleInput,
  type CallState,
  type LogCallResult,
  type MissedCallEvent,
} from '../contracts';
import { CALL_ACTIVITIES, CALL_LOCAL_ACTIVITIES } from '../contracts/activity-options';
import { crmActivities } from './crm-activities';
import { recordingFailures } from './record-failure';
import { nextRecordingCheck, FIRST_RECORDING_CHECK_MS } from './recording-checks';

const acts = proxyActivities<Activities>(CALL_ACTIVITIES);
const local = proxyLocalActivities<Activities>(CALL_LOCAL_ACTIVITIES);

/**
 * Runs started with this patch take their short steps as local activities and check for the
 * recording on a sparse schedule (woken early by recording-seen notes), off the CRM's queue. Runs
 * started before it keep the activities and the polling their history holds, to its end.
 */
const LOCAL_STEPS_PATCH = 'call-local-steps-and-recording-checks';

/**
 * Runs started with this patch decide on the caller's callback once the call has ended (a hangup or
 * failed event, or its CDR), and only when nobody answered it: the missed leg of a ring group or a
 * queue agent whose call another agent answered opens nothing. A connected call tells the callback
 * when it started. Runs started before keep the steps their history holds.
 */
const CALLBACK_ON_END_PATCH = 'callback-on-call-end';

/** Runs continued with this patch read back, from the inbox, events lost at the hand-over. */
const CATCH_UP_PATCH = 'catch-up-after-hand-over';

// A call with no end event for this long is followed up from its CDR anyway (lost hangup webhook).
const MAX_CALL_MS = 4 * 3_600_000;

/** History events of one run after which the call continues as new (Temporal suggests it later too). */
export const CALL_HISTORY_LIMIT = 2_000;

/** A fresh call's state. */
function freshState(input: CallLifecycleInput): CallLifecycleCarried {
  return {
    seen: [],
    unsaved: [],
    missed: null,
    callbackOpened: false,
    missedChecked: false,
    ended: input.fromCdr === true,
    connected: false,
    startTime: null,
    phase: 'live',
    callDeadline: Date.now() + MAX_CALL_MS,
    cdrDeadline: null,
    horizon: null,
    delay: 1000,
    cdr: null,
    log: null,
    continuedRuns: 0,
  };
}

/**
 * One call, from its first event to its complete CRM log: gathers events (each once, in any order)
 * into the warehouse timeline; when the call has ended and nobody answered it, opens the caller's
 * callback; after the call ends waits for the CDR, logs the call once, confirms or closes the
 * caller's callback, then updates that same log as the recording and transcript arrive. A call
 * with many events continues as new, carrying its whole state, so its history stays bounded.
 */
export function callLifecycle(input: CallLifecycleInput): Promise<CallState> {
  return recordingFailures(
    { account: input.account, subject: String(input.callId), retryOf: input.retryOf },
    acts.recordCallFailure,
    async () => {
      const state = await followCall(input);
      // A retry's failure row tells how it ended, whether or not anyone waits for the run (a failed
      // retry says so through recordCallFailure, which links the new row to it).
      if (input.retryOf !== undefined) await acts.finishCallRetry({ failureId: input.retryOf });
      return state;
    },
  );
}

async function followCall(input: CallLifecycleInput): Promise<CallState> {
  const s: CallLifecycleCarried = input.carried ?? freshState(input);
  const seen = new Set<string>(s.seen);
  const historyLimit = input.historyLimit ?? CALL_HISTORY_LIMIT;
  const receive = (e: CallEventSignal): void => {
    if (seen.has(e.eventId)) return;
    seen.add(e.eventId);
    if (e.name === RECORDING_SEEN_EVENT) {
      s.recordingNudged = true;
      return;
    }
    // The timeline holds the platform's events; callsync's own notes only move the workflow along.
    if (e.name !== CDR_SEEN_EVENT) s.unsaved.push(e);
    if (e.name === 'call.missed' && !s.missed) s.missed = missedCallEvent(e);
    if (e.name === 'call.connected') s.connected = true;
    if (e.startTime && !s.startTime) s.startTime = e.startTime;
    if (e.name === 'call.hangup' || e.name === 'call.failed' || e.name === CDR_SEEN_EVENT) s.ended = true;
  };
  const state = (): CallState => ({
    events: seen.size,
    ended: s.ended,
    cdr: s.cdr,
    log: s.log,
    callbackOpened: s.callbackOpened,
    continuedRuns: s.continuedRuns,
  });
  setHandler(callEventSignal, receive);
  setHandler(callEventsSignal, (events) => events.forEach(receive));
  setHandler(callStateQuery, state);
  const { account, callId } = input;
  // Decided once per run: a run replaying history from before the patch stays on the old steps.
  const v2 = patched(LOCAL_STEPS_PATCH);
  const onEnd = patched(CALLBACK_ON_END_PATCH);
  // Decided with the others, before the first step: a patch asked after a local activity is not
  // found again in the same place when the history is replayed.
  const catchUp = input.carried !== undefined && patched(CATCH_UP_PATCH);
  const step = v2 ? local : acts;
  const settings = await step.callSettings({ account });
  // A run that took over from another reads back the relayed events it may not have been handed
  // (a signal racing the hand-over can be lost: activities/call-catch-up.ts). Runs from before keep
  // their history.
  if (catchUp && v2) {
    (await local.relayedCallEvents({ account, callId, taken: [...seen] })).forEach(receive);
  }

  const saveTimeline = async (): Promise<void> => {
    if (s.unsaved.length === 0) return;
    const batch = s.unsaved;
    s.unsaved = [];
    await step.recordCallEvents({ account, callId, events: batch });
  };
  // A missed-call event is acted on once the call has ended (runs from before: at once).
  const missedReady = (): boolean => s.missed !== null && !s.missedChecked && (!onEnd || s.ended);
  const openMissedCallback = async (): Promise<void> => {
    if (!s.missed || !missedReady()) return;
    s.missedChecked = true;
    // Runs started before this step existed go on without it: their replay must match their history.
    if (!patched('open-missed-callback-on-event')) return;
    // Someone answered the call: its missed leg is no missed call.
    if (onEnd && s.connected) return;
    // An event without an outside number cannot open one; the CDR decides later.
    const event = onEnd ? { ...s.missed, startTime: s.missed.startTime ?? s.startTime ?? null } : s.missed;
    s.callbackOpened = await step.openMissedCallback({ account, callId, event });
  };
  const tooLong = (): boolean =>
    workflowInfo().continueAsNewSuggested || workflowInfo().historyLength >= historyLimit;
  // Hands the call to a new run at a safe point: the timeline saved, every signal taken in (none
  // is lost: a signal that arrives with the hand-over is delivered to this run before it ends).
  const continueIfLong = async (): Promise<void> => {
    if (!tooLong()) return;
    await saveTimeline();
    await condition(allHandlersFinished);
    s.seen = [...seen];
    s.continuedRuns++;
    await continueAsNew<typeof callLifecycle>({ ...input, carried: s });
  };

  // 1. Until the call ends: keep the timeline; a missed call nobody answered opens its callback as
  // the call ends. One timer covers the whole live wait (a timer per batch of events cost the server
  // two events each).
  const liveWait = v2 && s.phase === 'live' ? deadlineTimer(s.callDeadline) : null;
  while (s.phase === 'live') {
    if (s.ended || Date.now() >= s.callDeadline || liveWait?.passed()) {
      liveWait?.cancel();
      await openMissedCallback();
      await saveTimeline();
      s.phase = 'cdr';
      s.cdrDeadline = Date.now() + settings.cdrWaitMs;
      s.delay = 1000;
      break;
    }
    const woken = () => s.unsaved.length > 0 || s.ended || missedReady() || tooLong();
    if (liveWait) await condition(() => woken() || liveWait.passed());
    else await condition(woken, '10 minutes');
    await openMissedCallback();
    await saveTimeline();
    await continueIfLong();
  }

  // 2. The CDR appears shortly after hangup: poll with backoff.
  while (s.phase === 'cdr') {
    s.cdr = await step.lookupCall({ account, callId });
    if (s.cdr || Date.now() >= (s.cdrDeadline ?? 0)) {
      await saveTimeline();
      s.phase = s.cdr ? 'log' : 'done';
      break;
    }
    await sleep(s.delay);
    s.delay = Math.min(s.delay * 2, 60_000);
    await continueIfLong();
  }

  // 3. The call log, once; then the callback: opened (or confirmed) for a missed caller, closed by a
  // connected call.
  if (s.phase === 'log' && s.cdr) {
    const facts = s.cdr;
    // The log reads the recording as it is now: a note that came before needs no check of its own.
    s.recordingNudged = false;
    s.log = await crmActivities().logCall({ account, callId, known: null, crmId: null });
    const number = facts.externalNumber;
    // A missed call the missed-call event already gave to the caller's callback is not given again:
    // once that callback has closed (the caller was reached), the CDR would open a second one for
    // the same call (the chaos run found such a pair). Runs started before keep their history.
    const alreadyOpened = s.callbackOpened && patched('no-second-callback-from-cdr');
    // A call answered on any leg (its CDR, or a connected event) reached the caller.
    const connected = facts.connected || (onEnd && s.connected === true);
    // A caller who left a voicemail was not answered either: they get a callback, whether the
    // missed-call event or only the CDR (disposition VM) tells.
    const missed = onEnd
      ? !connected && (facts.missed || facts.status === 'voicemail' || s.missed !== null)
      : facts.missed || (s.missed !== null && !facts.connected);
    if (number && !alreadyOpened && missed) {
      await step.startCallback({
        account,
        number,
        missed: {
          callId,
          at: new Date(Date.now()).toISOString(),
          ...(onEnd ? { startedAt: facts.startedAt ?? null } : {}),
          calledUserId: facts.userId,
          queueId: facts.queueId,
        },
      });
    } else if (number && connected) {
      await step.notifyCallbackConnected({
        account,
        number,
        callId,
        ...(onEnd ? { startedAt: facts.startedAt ?? null } : {}),
      });
    }
    s.phase = facts.connected ? 'recording' : 'done';
    s.horizon = Date.now() + settings.recordingHorizonMs;
    s.delay = v2 ? FIRST_RECORDING_CHECK_MS : 2000;
    s.nextCheckAt = v2 ? Date.now() + s.delay : null;
  }

  // The same log again, with what arrived since `log` was written (the CRM write is skipped when
  // nothing did).
  const updateLog = (log: LogCallResult): Promise<LogCallResult> =>
    crmActivities().logCall({
      account,
      callId,
      known: { recording: log.recording, transcript: log.transcript },
      crmId: log.crmId,
    });

  // 4. Recording, then transcript and summary: update the same log as they arrive. The recording is
  // checked on a sparse schedule, and at once when a recording-seen note comes (from the recordings
  // sync or callsync's transcription); the CRM is written only when something arrived.
  while (s.phase === 'recording' && s.log && v2) {
    const horizon = s.horizon ?? 0;
    if (s.log.transcript || Date.now() >= horizon) {
      s.phase = 'done';
      break;
    }
    const due = Math.min(s.nextCheckAt ?? Date.now(), horizon);
    if (due > Date.now() && !s.recordingNudged) {
      await condition(
        () => s.recordingNudged === true || s.unsaved.length > 0 || tooLong(),
        due - Date.now(),
      );
    }
    await saveTimeline();
    if (s.recordingNudged || Date.now() >= due) {
      if (!s.recordingNudged) s.delay = nextRecordingCheck(s.delay);
      s.recordingNudged = false;
      s.nextCheckAt = Date.now() + s.delay;
      const found = await local.recordingState({ account, callId });
      if (found.recording !== s.log.recording || found.transcript !== s.log.transcript) {
        s.log = await updateLog(s.log);
      }
    }
    await continueIfLong();
  }
  // (Runs from before the patch) polling with backoff through the CRM's queue.
  while (s.phase === 'recording' && s.log) {
    if (s.log.transcript || Date.now() >= (s.horizon ?? 0)) {
      s.phase = 'done';
      break;
    }
    await sleep(s.delay);
    s.delay = Math.min(s.delay * 2, 10 * 60_000);
    s.log = await updateLog(s.log);
    await saveTimeline();
    await continueIfLong();
  }
  // Events signalled while the last batch was being saved are saved too: the relay has marked them
  // delivered, so a run that ended with them unsaved would lose them from the timeline for good.
  while (s.unsaved.length > 0) await saveTimeline();
  return state();
}

/** A timer until `at` (workflow time) that can be cancelled once it is no longer needed. */
function deadlineTimer(at: number): { passed(): boolean; cancel(): void } {
  let passed = false;
  const scope = new CancellationScope();
  scope
    .run(() => sleep(Math.max(1, at - Date.now())))
    .then(() => (passed = true))
    .catch((err: unknown) => {
      if (!isCancellation(err)) throw err;
    });
  return { passed: () => passed, cancel: () => scope.cancel() };
}

function missedCallEvent(e: CallEventSignal): MissedCallEvent {
  return {
    time: e.time,
    src: e.src,
    dst: e.dst,
    destination: e.destination,
    dstId: e.dstId,
    context: e.context,
    startTime: e.startTime ?? null,
  };
}
