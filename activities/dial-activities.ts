// Auto-dial without ringing a caller twice. POST /calls has no idempotency key, and a response lost
// after the platform placed the call looks like a failure: a blind retry would dial again. So each
// attempt is recorded before it dials (with the calls to that number that already exist), the POST
// is sent once (no quick retry inside the client), and a retry of the attempt first looks for a call
// to the number that was not there before: that is the call the lost response was about.
import { Context } from '@temporalio/activity';
import { filter, type Cdr, type LiveCall, type PlatformClient } from '../connectors/platform';
import { beginDialAttempt, getDialAttempt, recordDialedCall } from '../connectors/postgres';
import type { ActivityDeps } from './deps';

export interface PlaceCallbackInput {
  account: string;
  number: string;
  /** The user the call is placed from; the platform's default (the API user) when null. */
  userId: number | null;
  /** Identifies this dial attempt across activity retries: `<workflow id>/<run id>#<n>`. */
  attemptKey: string;
}

/** Calls (live ids) to look at per list: a number dialled more often than this is not a callback's. */
const CALLS_READ = 1000;

/** Live ids of the calls to `number` the platform knows: live ones and ended ones (their CDRs). */
async function callIdsTo(client: PlatformClient, number: string, signal: AbortSignal): Promise<number[]> {
  const live = await client.calls
    .list({ filter: filter<LiveCall>().eq('dst', number), limit: CALLS_READ, signal })
    .readPage(1);
  const ended = await client.history.cdrs
    .list({ filter: filter<Cdr>().eq('dst', number), limit: CALLS_READ, signal })
    .readPage(1);
  const ids = [...live.data.map((c) => c.id), ...ended.data.map((c) => c.live_id)];
  return [...new Set(ids.filter((id): id is number => typeof id === 'number' && id > 0))];
}

export function createDialActivities(deps: ActivityDeps) {
  return {
    /**
     * Places the callback through the platform (POST /calls) from the assigned user, at most once per
     * attempt key; returns the call id (the one placed by an earlier try, when its answer was lost).
     */
    async placeCallback(input: PlaceCallbackInput): Promise<number> {
      const cancel = Context.current().cancellationSignal;
      const db = deps.warehouse.db;
      const client = deps.platform(input.account);
      const recorded = await getDialAttempt(db, input.attemptKey);
      if (recorded?.call_id != null) return Number(recorded.call_id);
      if (recorded) {
        const known = new Set(recorded.known_call_ids.map(Number));
        const placed = (await callIdsTo(client, input.number, cancel)).find((id) => !known.has(id));
        if (placed !== undefined) {
          deps.logger.warn(
            { account: input.account, attemptKey: input.attemptKey, callId: placed },
            'callback: found the call an earlier try placed (its response was lost); not dialling again',
          );
          await recordDialedCall(db, input.attemptKey, placed);
          return placed;
        }
      } else {
        await beginDialAttempt(db, {
          attemptKey: input.attemptKey,
          account: input.account,
          number: input.number,
          knownCallIds: await callIdsTo(client, input.number, cancel),
        });
      }
      const call = await client.calls.create(
        { to: input.number, ...(input.userId ? { from: String(input.userId) } : {}) },
        { signal: cancel, maxRetries: 0 },
      );
      await recordDialedCall(db, input.attemptKey, call.id);
      return call.id;
    },
  };
}

export type DialActivities = ReturnType<typeof createDialActivities>;
