// Auto-dial without ringing a caller twice. POST /calls has no idempotency key, and a response lost
// after the platform placed the call looks like a failure: a blind retry would dial again. So each
// attempt is recorded before it dials (with the newest calls to that number that already exist and
// when the newest of them started, in the platform's own time), the moment of each POST is recorded
// before it is sent, the POST is sent once (no quick retry inside the client), and a retry of the
// attempt first looks for a call to the number placed since then that was not there before: that is
// the call the lost response was about. A placed call that has already ended can be invisible for a
// while (it has left /calls, its CDR is not written yet), so a retry that finds nothing soon after
// the POST waits (fails retryably) instead of dialling again, until `calls.cdrWait` has passed.
import { ApplicationFailure, Context } from '@temporalio/activity';
import { filter, type Cdr, type LiveCall, type PlatformClient } from '../connectors/platform';
import {
  beginDialAttempt,
  getDialAttempt,
  markDialSent,
  recordDialedCall,
  type CallbackDialRow,
} from '../connectors/postgres';
import { platformTimeOrUndefined } from '../sync/time';
import type { ActivityDeps } from './deps';

export interface PlaceCallbackInput {
  account: string;
  number: string;
  /** The user the call is placed from; the platform's default (the API user) when null. */
  userId: number | null;
  /** Identifies this dial attempt across activity retries: `<workflow id>/<run id>#<n>`. */
  attemptKey: string;
}

/** Calls read per page, newest first. */
const PAGE = 100;
/**
 * Pages read of the calls since an attempt began: a number dialled more often than this in the
 * minutes of one attempt is not a callback's.
 */
const MAX_PAGES = 20;

/** A call to the number, live or ended: its live id and when it started (epoch ms, platform time). */
interface CallTo {
  id: number;
  startedAt: number | undefined;
}

function liveCall(c: LiveCall): CallTo {
  return { id: c.id, startedAt: typeof c.start_time === 'number' ? c.start_time * 1000 : undefined };
}

function endedCall(c: Cdr): CallTo {
  return { id: c.live_id ?? 0, startedAt: c.calldate ? platformTimeOrUndefined(c.calldate) : undefined };
}

/** Records of the pages of `pages`: the first page only, or up to MAX_PAGES when `all`. */
async function firstPages<T, U>(
  pages: AsyncIterable<{ data: T[] }>,
  all: boolean,
  map: (record: T) => U,
): Promise<U[]> {
  const out: U[] = [];
  let read = 0;
  for await (const page of pages) {
    out.push(...page.data.map(map));
    if (!all || ++read >= MAX_PAGES) break;
  }
  return out;
}

/**
 * Calls to `number`, live ones and ended ones (their CDRs), newest first: the first page of each when
 * `since` is null, else the pages of those that started at or after `since` (platform time, ms).
 */
async function callsTo(
  client: PlatformClient,
  number: string,
  since: number | null,
  signal: AbortSignal,
): Promise<CallTo[]> {
  const live = filter<LiveCall>().eq('dst', number);
  const ended = filter<Cdr>().eq('dst', number);
  const newest = { dir: 'desc' as const, limit: PAGE, signal };
  const liveCalls = client.calls.list({
    ...newest,
    filter: since === null ? live : live.gte('start_time', Math.floor(since / 1000)),
    sort: 'start_time',
  });
  const endedCalls = client.history.cdrs.list({
    ...newest,
    filter: since === null ? ended : ended.gte('calldate', new Date(since)),
    sort: 'calldate',
  });
  const found = [
    ...(await firstPages(liveCalls.pages(), since !== null, liveCall)),
    ...(await firstPages(endedCalls.pages(), since !== null, endedCall)),
  ];
  return found.filter((c) => c.id > 0);
}

/** The call an earlier try of `attempt` placed, if the platform shows one: a call to the number not known before. */
async function placedEarlier(
  client: PlatformClient,
  attempt: CallbackDialRow,
  signal: AbortSignal,
): Promise<number | undefined> {
  const known = new Set(attempt.known_call_ids.map(Number));
  const since = attempt.calls_since ? attempt.calls_since.getTime() : null;
  const calls = await callsTo(client, attempt.number, since, signal);
  return calls.find((c) => !known.has(c.id))?.id;
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
      const attempt = await getDialAttempt(db, input.attemptKey);
      if (attempt?.call_id != null) return Number(attempt.call_id);
      if (attempt) {
        const placed = await placedEarlier(client, attempt, cancel);
        if (placed !== undefined) {
          deps.logger.warn(
            { account: input.account, attemptKey: input.attemptKey, callId: placed },
            'callback: found the call an earlier try placed (its response was lost); not dialling again',
          );
          await recordDialedCall(db, input.attemptKey, placed);
          return placed;
        }
        const sentAgoMs = attempt.sent_at ? Date.now() - attempt.sent_at.getTime() : null;
        const bound = deps.config.calls.cdrWait;
        if (sentAgoMs !== null && sentAgoMs < bound) {
          // The call may have been placed and ended, its CDR not written yet: dialling now could
          // ring the caller a second time. Temporal retries this later, with backoff.
          throw ApplicationFailure.retryable(
            `the call POST /calls may have placed ${Math.round(sentAgoMs / 1000)} s ago is not visible yet; ` +
              `waiting up to calls.cdrWait (${Math.round(bound / 1000)} s) before dialling again`,
            'DialUnconfirmed',
          );
        }
      } else {
        const existing = await callsTo(client, input.number, null, cancel);
        const starts = existing.map((c) => c.startedAt).filter((t): t is number => t !== undefined);
        await beginDialAttempt(db, {
          attemptKey: input.attemptKey,
          account: input.account,
          number: input.number,
          knownCallIds: [...new Set(existing.map((c) => c.id))],
          callsSince: starts.length > 0 ? new Date(Math.max(...starts)) : null,
        });
      }
      await markDialSent(db, input.attemptKey);
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
