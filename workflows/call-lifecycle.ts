import { condition, proxyActivities, setHandler, sleep } from '@temporalio/workflow';
import type { Activities } from '../activities';
import {
  CDR_SEEN_EVENT,
  callEventSignal,
  callEventsSignal,
  callStateQuery,
  type CallEventSignal,
  type CallLifecycleInput,
  type CallState,
} from '../contracts';
import { CALL_ACTIVITIES } from '../contracts/activity-options';
import { recordingFailures } from './record-failure';

const acts = proxyActivities<Activities>(CALL_ACTIVITIES);

// A call with no end event for this long is followed up from its CDR anyway (lost hangup webhook).
const MAX_CALL_MS = 4 * 3_600_000;

/**
 * One call, from its first event to its complete CRM log: gathers events (each once, in any order)
 * into the warehouse timeline; after the call ends waits for the CDR, logs the call once, starts or
 * closes the caller's callback, then updates that same log as the recording and transcript arrive.
 */
export function callLifecycle(input: CallLifecycleInput): Promise<CallState> {
  return recordingFailures(
    { account: input.account, subject: String(input.callId) },
    acts.recordCallFailure,
    () => followCall(input),
  );
}

async function followCall(input: CallLifecycleInput): Promise<CallState> {
  const seen = new Set<string>();
  let unsaved: CallEventSignal[] = [];
  let missedEvent = false;
  let ended = input.fromCdr === true;
  const state: CallState = { events: 0, ended, cdr: null, log: null };
  const receive = (e: CallEventSignal): void => {
    if (seen.has(e.eventId)) return;
    seen.add(e.eventId);
    state.events = seen.size;
    // The timeline holds the platform's events; callsync's own notes only move the workflow along.
    if (e.name !== CDR_SEEN_EVENT) unsaved.push(e);
    if (e.name === 'call.missed') missedEvent = true;
    if (e.name === 'call.hangup' || e.name === 'call.failed' || e.name === CDR_SEEN_EVENT) ended = true;
  };
  setHandler(callEventSignal, receive);
  setHandler(callEventsSignal, (events) => events.forEach(receive));
  setHandler(callStateQuery, () => ({ ...state, ended }));
  const settings = await acts.callSettings({ account: input.account });

  const saveTimeline = async (): Promise<void> => {
    if (unsaved.length === 0) return;
    const batch = unsaved;
    unsaved = [];
    await acts.recordCallEvents({ account: input.account, callId: input.callId, events: batch });
  };

  // 1. Until the call ends: keep the timeline.
  const callDeadline = Date.now() + MAX_CALL_MS;
  while (!ended && Date.now() < callDeadline) {
    await condition(() => unsaved.length > 0 || ended, '10 minutes');
    await saveTimeline();
  }
  await saveTimeline();

  // 2. The CDR appears shortly after hangup: poll with backoff.
  const cdrDeadline = Date.now() + settings.cdrWaitMs;
  let delay = 1000;
  for (;;) {
    state.cdr = await acts.lookupCall({ account: input.account, callId: input.callId });
    if (state.cdr || Date.now() >= cdrDeadline) break;
    await sleep(delay);
    delay = Math.min(delay * 2, 60_000);
  }
  await saveTimeline();
  const facts = state.cdr;
  if (!facts) return { ...state, ended };

  // 3. The call log, once; then the callback: opened for a missed caller, closed by a connected call.
  state.log = await acts.logCall({ account: input.account, callId: input.callId, known: null, crmId: null });
  const number = facts.externalNumber;
  if (number && (facts.missed || (missedEvent && !facts.connected))) {
    await acts.startCallback({
      account: input.account,
      number,
      missed: {
        callId: input.callId,
        at: new Date(Date.now()).toISOString(),
        calledUserId: facts.userId,
        queueId: facts.queueId,
      },
    });
  } else if (number && facts.connected) {
    await acts.notifyCallbackConnected({ account: input.account, number, callId: input.callId });
  }

  // 4. Recording, then transcript and summary: update the same log as they arrive.
  if (facts.connected) {
    const horizon = Date.now() + settings.recordingHorizonMs;
    delay = 2000;
    while (!state.log.transcript && Date.now() < horizon) {
      await sleep(delay);
      delay = Math.min(delay * 2, 10 * 60_000);
      state.log = await acts.logCall({
        account: input.account,
        callId: input.callId,
        known: { recording: state.log.recording, transcript: state.log.transcript },
        crmId: state.log.crmId,
      });
      await saveTimeline();
    }
  }
  await saveTimeline();
  return { ...state, ended };
}
