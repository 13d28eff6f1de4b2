import {
  ActivityFailure,
  ApplicationFailure,
  CancellationScope,
  condition,
  isCancellation,
  continueAsNew,
  patched,
  proxyActivities,
  setHandler,
  sleep,
  workflowInfo,
} from '@temporalio/workflow';
import type { Activities } from '../activities';
import {
  callBefore,
  callbackStateQuery,
  callConnectedSignal,
  missedCallOrder,
  missedCallSignal,
  type CallbackInput,
  type CallbackState,
  type CallConnectedNote,
  type CallOrderKey,
  type MissedCallNote,
} from '../contracts';
import { msUntilBusinessTime } from '../lib/business-hours';
import { CALL_ACTIVITIES, DIAL_ACTIVITIES } from '../contracts/activity-options';
import { crmActivities } from './crm-activities';
import { recordingFailures } from './record-failure';

const acts = proxyActivities<Activities>(CALL_ACTIVITIES);
const dial = proxyActivities<Activities>(DIAL_ACTIVITIES);

/** How long an unanswered callback stayed open in runs from before callbacks.expireAfter (a week). */
const OPEN_FOR_MS = 7 * 86_400_000;

/**
 * Runs started with this patch order calls by their start times: a connected call closes the
 * callback only when it started after every missed call held (a missed call that turns out to have
 * connected is dropped), the caller's latest reach (caller_reaches) is read before the first task and
 * after each missed call, and the callback expires `callbacks.expireAfter` after its latest missed
 * call. Runs started before keep the steps their history holds, to their end.
 */
const CALL_ORDER_PATCH = 'callback-call-order-and-expiry';

/**
 * One open callback task per caller number per account: opened by a missed call nobody answered,
 * updated with every further one, closed by itself when a call that started after the latest of
 * them reached the caller, expired when nobody did within `callbacks.expireAfter`. Optionally dials
 * the caller back inside business hours, up to the configured number of attempts.
 */
export function callback(input: CallbackInput): Promise<CallbackState> {
  return recordingFailures({ account: input.account, subject: input.number }, acts.recordCallFailure, () =>
    followCallback(input),
  );
}

/** What one run of a callback shares between its handlers and its steps. */
interface Run {
  input: CallbackInput;
  state: CallbackState;
  /** A signal changed the state since the loop last looked. */
  changed: boolean;
  /** The task was written once already (later writes update it). */
  taskWritten?: boolean;
}

async function followCallback(input: CallbackInput): Promise<CallbackState> {
  // Decided once per run: a run replaying history from before the patch stays on its old steps.
  const ordered = patched(CALL_ORDER_PATCH);
  const run: Run = {
    input,
    state: { number: input.number, status: 'open', missed: [], dialAttempts: [], closedByCallId: null },
    changed: false,
  };
  setHandler(callbackStateQuery, () => run.state);
  return ordered ? followInCallOrder(run) : followAsBefore(run);
}

/** The task of this callback, written (created once, then updated) with the state as it is. */
function taskWriter(run: Run, dueAt: string, expireAfterMs: number) {
  const firstCallId = run.state.missed[0]?.callId ?? 0;
  return async () => {
    const crmId = await crmActivities().upsertCallbackTask({
      account: run.input.account,
      number: run.input.number,
      firstCallId,
      status: run.state.status,
      missed: run.state.missed,
      dialAttempts: run.state.dialAttempts,
      dueAt,
      closedByCallId: run.state.closedByCallId,
      expireAfterMs,
      ...(run.taskWritten ? { written: true } : {}),
    });
    run.taskWritten = true;
    return crmId;
  };
}

/**
 * Races, and why each ends right (calls A missed, B connected, of one caller):
 * - B's follow-up records B in caller_reaches before it signals this workflow, and this workflow
 *   reads caller_reaches after it exists and after each missed call it takes in. So either the read
 *   sees B, or B's signal finds this workflow running: B is never missed by both.
 * - B's signal carries B's start: B closes the callback only if it started after every missed call
 *   held, so a call that began before A and ended after it does not close A's callback.
 * - B's follow-up finished before A's callback existed (their lifecycles end in any order): the
 *   callback's first read finds B; when A started before B, it closes without writing any task.
 * - A is a missed leg of B itself (a ring group, reordered webhooks): B's connected signal drops A
 *   from the missed calls, and A's missed signal arriving after it is ignored.
 * - A arrives while this run is closing (its last task write): it is kept, and when it is later than
 *   the call that closed the run, the callback continues as new with it (a new task).
 */
async function followInCallOrder(run: Run): Promise<CallbackState> {
  const { state, input } = run;
  const answered = new Set<number>();
  /** Missed calls that came once this run had closed or expired: the next run's, if still missed. */
  const after: MissedCallNote[] = [];
  let closedBy: CallOrderKey | null = null;
  // A missed call came since caller_reaches was last read.
  let unchecked = false;
  // Workflow time of the latest missed call taken in: the expiry counts from it.
  let lastMissAt = Date.now();

  const close = (callId: number, reach: CallOrderKey | null): void => {
    state.status = 'closed';
    state.closedByCallId = callId;
    closedBy = reach;
    run.changed = true;
  };
  const addMissed = (m: MissedCallNote): void => {
    if (answered.has(m.callId) || state.missed.some((x) => x.callId === m.callId)) return;
    if (state.status !== 'open') {
      if (!after.some((x) => x.callId === m.callId)) after.push(m);
      return;
    }
    state.missed.push(m);
    run.changed = true;
    unchecked = true;
    lastMissAt = Date.now();
  };
  const connected = (c: CallConnectedNote): void => {
    answered.add(c.callId);
    if (state.status !== 'open') return;
    // Missed on one leg, answered on another: not a missed call.
    const i = state.missed.findIndex((m) => m.callId === c.callId);
    if (i >= 0) {
      state.missed.splice(i, 1);
      run.changed = true;
    }
    const at = c.startedAt ? Date.parse(c.startedAt) : NaN;
    // A signal from before calls carried their start says only "connected": it closes, as it did.
    const reach = Number.isNaN(at) ? null : { at, callId: c.callId };
    if (reach === null || state.missed.every((m) => callBefore(missedCallOrder(m), reach))) {
      close(c.callId, reach);
    }
  };
  setHandler(missedCallSignal, addMissed);
  setHandler(callConnectedSignal, connected);
  for (const m of input.pending ?? []) addMissed(m);

  await condition(() => state.missed.length > 0 || state.status !== 'open');
  const settings = await acts.callbackSettings({ account: input.account });
  const expireAfterMs = settings.expireAfterMs ?? OPEN_FOR_MS;
  const writeTask = taskWriter(run, new Date(Date.now() + settings.dueInMs).toISOString(), expireAfterMs);
  let written = false;

  /** Closes the callback when the caller's latest reach started after every missed call held. */
  const checkReach = async (): Promise<void> => {
    if (!unchecked || state.status !== 'open') return;
    unchecked = false;
    const reach = await acts.callerReach({ account: input.account, number: input.number });
    if (!reach || state.status !== 'open') return;
    const key = { at: Date.parse(reach.startedAt), callId: reach.callId };
    if (state.missed.every((m) => callBefore(missedCallOrder(m), key))) close(reach.callId, key);
  };
  const remaining = (): number => lastMissAt + expireAfterMs - Date.now();
  /** Waits for a signal, at most `ms` and never past the expiry; true when a signal came. */
  const waitForChange = async (ms: number): Promise<boolean> => {
    const bound = Math.min(ms, remaining());
    if (run.changed) return true;
    if (bound <= 0) return false;
    return condition(() => run.changed, bound);
  };

  while (state.status === 'open') {
    await checkReach();
    if (state.status !== 'open') break;
    if (remaining() <= 0) {
      state.status = 'expired';
      break;
    }
    run.changed = false;
    await writeTask();
    written = true;
    if (state.status !== 'open' || unchecked) continue;
    const canDial = settings.autoDial.enabled && state.dialAttempts.length < settings.autoDial.maxAttempts;
    const wait = canDial ? msUntilBusinessTime(Date.now(), settings.autoDial) : null;
    if (wait === null) {
      await waitForChange(Infinity);
      continue;
    }
    if (wait > 0 && ((await waitForChange(wait)) || remaining() <= 0)) continue;
    const info = workflowInfo();
    // One key per dial of this run: a retry of the activity finds what an earlier try placed.
    const attemptKey = `${info.workflowId}/${info.runId}#${state.dialAttempts.length + 1}`;
    const attempt = await whileDialling(run, remaining, writeTask, async () => {
      const placed = await placeOrRefused(() =>
        dial.placeCallback({
          account: input.account,
          number: input.number,
          userId: state.missed[0]?.calledUserId ?? null,
          attemptKey,
        }),
      );
      return { placed, dialled: typeof placed === 'number' ? await followDial(input.account, placed) : null };
    });
    if (attempt === null) {
      // The callback closed or expired while the dial was under way: the dial was stopped.
      state.dialAttempts.push({ at: new Date(Date.now()).toISOString(), outcome: 'stopped' });
      continue;
    }
    const { placed, dialled } = attempt;
    // A dial the platform refused for good is an attempt on the task, not the end of the callback:
    // the caller still waits to be called back, and the task must still close or expire.
    const outcome = dialled?.outcome ?? (placed as { refused: string }).refused;
    state.dialAttempts.push({ at: new Date(Date.now()).toISOString(), outcome });
    if (outcome === 'connected' && typeof placed === 'number' && state.status === 'open') {
      // The dial reached the caller, and closes the callback as any connected call does: only when it
      // started after every missed call held (one that came while it rang keeps the callback open),
      // and a missed call arriving later is a new callback's only if it started after the dial.
      const at = dialled?.startedAt ? Date.parse(dialled.startedAt) : NaN;
      const reach = Number.isNaN(at) ? null : { at, callId: placed };
      if (reach === null || state.missed.every((m) => callBefore(missedCallOrder(m), reach)))
        close(placed, reach);
    }
    if (state.status === 'open') {
      await writeTask();
      await waitForChange(settings.autoDial.retryAfterMs);
    }
  }
  // Closed before its first task (the caller was reached before the callback got that far): no task.
  // Expired is written even then: a missed call nobody returned is on record.
  if (written || state.status === 'expired') await writeTask();
  const reachedBy = closedBy as CallOrderKey | null;
  const next = after.filter(
    (m) =>
      !answered.has(m.callId) &&
      (state.status === 'expired' || (reachedBy !== null && callBefore(reachedBy, missedCallOrder(m)))),
  );
  if (next.length > 0)
    await continueAsNew<typeof callback>({ account: input.account, number: input.number, pending: next });
  return state;
}

/** The steps of runs started before CALL_ORDER_PATCH, unchanged (but for their end state's name). */
async function followAsBefore(run: Run): Promise<CallbackState> {
  const { state, input } = run;
  setHandler(missedCallSignal, (m) => {
    if (state.status !== 'open' || state.missed.some((x) => x.callId === m.callId)) return;
    state.missed.push(m);
    run.changed = true;
  });
  setHandler(callConnectedSignal, ({ callId }) => {
    if (state.status !== 'open' || state.missed.some((x) => x.callId === callId)) return;
    state.status = 'closed';
    state.closedByCallId = callId;
    run.changed = true;
  });

  await condition(() => state.missed.length > 0);
  const settings = await acts.callbackSettings({ account: input.account });
  const writeTask = taskWriter(run, new Date(Date.now() + settings.dueInMs).toISOString(), OPEN_FOR_MS);

  const openUntil = Date.now() + OPEN_FOR_MS;
  while (state.status === 'open' && Date.now() < openUntil) {
    run.changed = false;
    await writeTask();
    const canDial = settings.autoDial.enabled && state.dialAttempts.length < settings.autoDial.maxAttempts;
    if (!canDial) {
      await condition(() => run.changed, openUntil - Date.now());
      continue;
    }
    const wait = msUntilBusinessTime(Date.now(), settings.autoDial);
    if (wait === null) {
      await condition(() => run.changed, openUntil - Date.now());
      continue;
    }
    if (wait > 0 && (await condition(() => run.changed, wait))) continue;
    const info = workflowInfo();
    const callId = await dial.placeCallback({
      account: input.account,
      number: input.number,
      userId: state.missed[0]?.calledUserId ?? null,
      attemptKey: `${info.workflowId}/${info.runId}#${state.dialAttempts.length + 1}`,
    });
    const { outcome } = await followDial(input.account, callId);
    state.dialAttempts.push({ at: new Date(Date.now()).toISOString(), outcome });
    if (outcome === 'connected') {
      state.status = 'closed';
      state.closedByCallId = callId;
    } else if (state.status === 'open') {
      await writeTask();
      await condition(() => run.changed, settings.autoDial.retryAfterMs);
    }
  }
  // Nobody reached the caller: the policy gave up (it is not "closed").
  if (state.status === 'open') state.status = 'expired';
  await writeTask();
  return state;
}

/**
 * Runs a dial (placing the call and following it to its CDR, which can take as long as the call),
 * keeping the callback's task current meanwhile with the missed calls that arrive, and stopping the
 * dial when the callback closes (another call reached the caller) or expires first: then null.
 */
async function whileDialling<T>(
  run: Run,
  remaining: () => number,
  writeTask: () => Promise<unknown>,
  dialling: () => Promise<T>,
): Promise<T | null> {
  const scope = new CancellationScope();
  let result: { value: T } | undefined;
  let failure: { err: unknown } | undefined;
  const running = scope.run(dialling).then(
    (value) => void (result = { value }),
    (err: unknown) => void (failure = { err }),
  );
  for (;;) {
    const ended = () => result !== undefined || failure !== undefined;
    await condition(() => ended() || run.changed || run.state.status !== 'open', Math.max(1, remaining()));
    if (!ended() && (run.state.status !== 'open' || remaining() <= 0)) {
      scope.cancel();
      await running;
    }
    if (result) return result.value;
    if (failure) {
      if (isCancellation(failure.err)) return null;
      throw failure.err;
    }
    if (run.changed) {
      run.changed = false;
      await writeTask();
    }
  }
}

/** The placed call's id, or why the platform refused to place it (a failure no retry fixes). */
async function placeOrRefused(place: () => Promise<number>): Promise<number | { refused: string }> {
  try {
    return await place();
  } catch (err) {
    if (!(err instanceof ActivityFailure) || !(err.cause instanceof ApplicationFailure)) throw err;
    return { refused: `not placed: ${err.cause.type ?? 'refused'}` };
  }
}

/** Waits for a placed callback's CDR and says how it went, and when the call started. */
async function followDial(
  account: string,
  callId: number,
): Promise<{ outcome: string; startedAt: string | null }> {
  let delay = 2000;
  for (let i = 0; i < 20; i++) {
    await sleep(delay);
    delay = Math.min(delay * 2, 60_000);
    const facts = await acts.lookupCall({ account, callId });
    if (facts)
      return { outcome: facts.connected ? 'connected' : facts.status, startedAt: facts.startedAt ?? null };
  }
  return { outcome: 'no CDR', startedAt: null };
}
