// A continued call's catch-up: the events the relay handed to the call's workflow that are neither on
// its timeline nor (as the workflow checks) taken in. Temporal's TypeScript SDK (1.24) can lose a
// signal that races a continue-as-new: when the server refuses the hand-over because a signal came in
// meanwhile and sends the next workflow task before the refusal reaches the worker, core logs "Trying
// to send a new WFT for a run which already has one!" and the run can hand over without that signal
// (seen in the hundreds-of-events lifecycle test under load). The inbox keeps every delivered event,
// so each new run reads back what it may have missed.
import { relayedUnsavedCallEvents } from '../connectors/postgres';
import { storedCallSignal } from '../connectors/platform/webhook-body';
import type { CallEventSignal } from '../contracts';
import type { ActivityDeps } from './deps';

/** Most events one catch-up returns (a hand-over loses at most one workflow task's signals). */
const MAX_EVENTS = 500;

/** Most body text one catch-up returns: its result is a payload in the history (2 MiB at most). */
const MAX_BODY_CHARS = 512 * 1024;

export function createCallCatchUpActivities(deps: ActivityDeps) {
  return {
    /** A call's delivered events not on its timeline, in arrival order (the workflow drops those it has). */
    async relayedCallEvents(input: { account: string; callId: number }): Promise<CallEventSignal[]> {
      const bodies = await relayedUnsavedCallEvents(
        deps.warehouse.pool,
        input.account,
        input.callId,
        MAX_EVENTS,
      );
      const events: CallEventSignal[] = [];
      let chars = 0;
      for (const body of bodies) {
        chars += body.length;
        if (chars > MAX_BODY_CHARS) break;
        const stored = storedCallSignal(JSON.parse(body) as unknown);
        if (stored.ok && stored.callId === input.callId) events.push(stored.signal);
      }
      return events;
    },
  };
}
