import { condition, proxyActivities, setHandler, sleep, workflowInfo } from '@temporalio/workflow';
import type { Activities } from '../activities';
import {
  callbackStateQuery,
  callConnectedSignal,
  missedCallSignal,
  type CallbackInput,
  type CallbackState,
} from '../contracts';
import { msUntilBusinessTime } from '../lib/business-hours';
import { CALL_ACTIVITIES, DIAL_ACTIVITIES } from '../contracts/activity-options';
import { crmActivities } from './crm-activities';
import { recordingFailures } from './record-failure';

const acts = proxyActivities<Activities>(CALL_ACTIVITIES);
const dial = proxyActivities<Activities>(DIAL_ACTIVITIES);

/** How long an unanswered callback stays open before it closes itself (a week). */
const OPEN_FOR_MS = 7 * 86_400_000;

/**
 * One open callback task per caller number per account: opened by the first missed call, updated
 * with every further one, closed by itself when a later call with that number connects. Optionally
 * dials the caller back inside business hours, up to the configured number of attempts.
 */
export function callback(input: CallbackInput): Promise<CallbackState> {
  return recordingFailures({ account: input.account, subject: input.number }, acts.recordCallFailure, () =>
    followCallback(input),
  );
}

async function followCallback(input: CallbackInput): Promise<CallbackState> {
  const state: CallbackState = {
    number: input.number,
    status: 'open',
    missed: [],
    dialAttempts: [],
    closedByCallId: null,
  };
  let changed = false;
  setHandler(missedCallSignal, (m) => {
    if (state.status === 'closed' || state.missed.some((x) => x.callId === m.callId)) return;
    state.missed.push(m);
    changed = true;
  });
  setHandler(callConnectedSignal, ({ callId }) => {
    if (state.status === 'closed' || state.missed.some((x) => x.callId === callId)) return;
    state.status = 'closed';
    state.closedByCallId = callId;
    changed = true;
  });
  setHandler(callbackStateQuery, () => state);

  await condition(() => state.missed.length > 0);
  const settings = await acts.callbackSettings({ account: input.account });
  const firstCallId = state.missed[0]!.callId;
  const dueAt = new Date(Date.now() + settings.dueInMs).toISOString();
  const writeTask = () =>
    crmActivities().upsertCallbackTask({
      account: input.account,
      number: input.number,
      firstCallId,
      status: state.status,
      missed: state.missed,
      dialAttempts: state.dialAttempts,
      dueAt,
    });

  const openUntil = Date.now() + OPEN_FOR_MS;
  while (state.status === 'open' && Date.now() < openUntil) {
    changed = false;
    await writeTask();
    const canDial = settings.autoDial.enabled && state.dialAttempts.length < settings.autoDial.maxAttempts;
    if (!canDial) {
      await condition(() => changed, openUntil - Date.now());
      continue;
    }
    const wait = msUntilBusinessTime(Date.now(), settings.autoDial);
    if (wait === null) {
      await condition(() => changed, openUntil - Date.now());
      continue;
    }
    if (wait > 0 && (await condition(() => changed, wait))) continue;
    const info = workflowInfo();
    const callId = await dial.placeCallback({
      account: input.account,
      number: input.number,
      userId: state.missed[0]?.calledUserId ?? null,
      // One key per dial of this run: a retry of the activity finds what an earlier try placed.
      attemptKey: `${info.workflowId}/${info.runId}#${state.dialAttempts.length + 1}`,
    });
    const outcome = await followDial(input.account, callId);
    state.dialAttempts.push({ at: new Date(Date.now()).toISOString(), outcome });
    if (outcome === 'connected') {
      state.status = 'closed';
      state.closedByCallId = callId;
    } else if (state.status === 'open') {
      await writeTask();
      await condition(() => changed, settings.autoDial.retryAfterMs);
    }
  }
  if (state.status === 'open') state.status = 'closed';
  await writeTask();
  return state;
}

/** Waits for a placed callback's CDR and says how it went. */
async function followDial(account: string, callId: number): Promise<string> {
  let delay = 2000;
  for (let i = 0; i < 20; i++) {
    await sleep(delay);
    delay = Math.min(delay * 2, 60_000);
    const facts = await acts.lookupCall({ account, callId });
    if (facts) return facts.connected ? 'connected' : facts.status;
  }
  return 'no CDR';
}
