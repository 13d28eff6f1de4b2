// A continued call's catch-up: the events the relay handed to the call's workflow that it has not
// taken in (the run says which it has). Temporal's TypeScript SDK (1.24) can lose a
// signal that races a continue-as-new: when the server refuses the hand-over because a signal came in
// meanwhile and sends the next workflow task before the refusal reaches the worker, core logs "Trying
// to send a new WFT for a run which already has one!" and the run can hand over without that signal
// (seen in the hundreds-of-events lifecycle test under load). The refused task may even have saved
// those events to the timeline before the refusal (its local activity ran), so what the timeline holds
// is no guide: the inbox keeps every delivered event, and each new run reads back those it lacks.
import { relayedUntakenCallEvents } from '../connectors/postgres';
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
    async relayedCallEvents(input: {
      account: string;
      callId: number;
      /** The event ids the workflow has taken in (runs from before this field: none). */
      taken?: string[];
    }): Promise<CallEventSignal[]> {
      const bodies = await relayedUntakenCallEvents(
        deps.warehouse.pool,
        input.account,
        input.callId,
        input.taken ?? [],
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
