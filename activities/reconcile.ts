// Webhooks and polling reconcile each other: every recent call the CDR sync sees gets a lifecycle,
// unless one already ran for it (announced by its webhooks, or reconciled before).
import {
  WorkflowExecutionAlreadyStartedError,
  WorkflowIdReusePolicy,
  WorkflowNotFoundError,
  type Client,
} from '@temporalio/client';
import type { Cdr } from '../connectors/platform';
import { callIdsWithInboxEvents, type Queryable } from '../connectors/postgres';
import { parsePlatformTime, platformTimeOrUndefined } from '../sync/time';
import {
  CDR_SEEN_EVENT,
  callEventSignal,
  callsyncNote,
  callLifecycleWorkflow,
  callWorkflowId,
  type CallEventSignal,
  type CallLifecycleInput,
} from '../contracts';

/** The synthetic event telling a call's workflow that the call's CDR exists (so the call has ended). */
export function cdrSeenEvent(callId: number): CallEventSignal {
  return callsyncNote(`cdr-seen-${callId}`, CDR_SEEN_EVENT, 'HANGUP');
}

/**
 * The calls of `cdrs` that ended within `windowMs` before `newest` (the newest CDR time the sync
 * has committed), each once however many legs it has. A call ends at calldate (its start) plus its
 * duration: a 6-hour call whose CDR was just written is recent, though it started long before.
 * Older CDRs are history, not calls in flight: their follow-up was done by their webhooks, or is
 * too late to matter.
 */
export function recentCallIds(cdrs: readonly Cdr[], newest: string | null, windowMs: number): number[] {
  if (!newest) return [];
  const since = parsePlatformTime(newest, 'newest') - windowMs;
  const callIds = new Set<number>();
  for (const cdr of cdrs) {
    if (!cdr.live_id || !cdr.calldate) continue;
    // An impossible date says nothing about when the call was.
    const startedAt = platformTimeOrUndefined(cdr.calldate);
    if (startedAt === undefined) continue;
    const seconds = typeof cdr.duration === 'number' && cdr.duration > 0 ? cdr.duration : 0;
    if (startedAt + seconds * 1000 >= since) callIds.add(cdr.live_id);
  }
  return [...callIds];
}

/** Starts `callLifecycle` for calls of `cdrs` within `windowMs` of `newest`; returns how many it started. */
export async function reconcileCalls(
  temporal: Client,
  opts: { account: string; taskQueue: string; windowMs: number; newest: string | null },
  cdrs: readonly Cdr[],
): Promise<number> {
  const callIds = recentCallIds(cdrs, opts.newest, opts.windowMs);
  let started = 0;
  for (const callId of callIds) {
    const input: CallLifecycleInput = { account: opts.account, callId, fromCdr: true };
    try {
      await temporal.workflow.start(callLifecycleWorkflow, {
        workflowId: callWorkflowId(opts.account, callId),
        taskQueue: opts.taskQueue,
        args: [input],
        // A lifecycle that ever ran for this call (webhook-driven or reconciled) is not repeated.
        workflowIdReusePolicy: WorkflowIdReusePolicy.REJECT_DUPLICATE,
      });
      started += 1;
    } catch (err) {
      if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
      // Its webhooks started it; if the hangup was lost it is still waiting: the CDR ends the wait.
      await temporal.workflow
        .getHandle(callWorkflowId(opts.account, callId))
        .signal(callEventSignal, cdrSeenEvent(callId))
        .catch((e: unknown) => {
          if (!(e instanceof WorkflowNotFoundError)) throw e;
        });
    }
  }
  return started;
}

/**
 * For pages that do not reconcile (a first read of the whole history, backfill windows): tells the
 * lifecycles of the page's calls that webhooks announced (the inbox holds their events) that their
 * CDR exists, and starts none. A call whose hangup webhook was lost while the first read or a
 * backfill wrote its CDR would otherwise wait for the incremental read that never sees it again, up to
 * its four-hour limit. A lifecycle that has finished is left alone. Returns how many were told.
 */
export async function notifyAnnouncedCalls(
  temporal: Client,
  pool: Queryable,
  account: string,
  cdrs: readonly Cdr[],
): Promise<number> {
  const callIds = [...new Set(cdrs.map((c) => c.live_id).filter((id): id is number => !!id && id > 0))];
  let told = 0;
  for (const callId of await callIdsWithInboxEvents(pool, account, callIds)) {
    try {
      await temporal.workflow
        .getHandle(callWorkflowId(account, callId))
        .signal(callEventSignal, cdrSeenEvent(callId));
      told += 1;
    } catch (err) {
      if (!(err instanceof WorkflowNotFoundError)) throw err;
    }
  }
  return told;
}

/**
 * What a CDR page means for calls in flight. A page of an incremental read (`reconcile`) starts a
 * lifecycle for each recent call nobody announced and tells the running ones their CDR exists; its
 * older calls, and every call of a page that does not reconcile (a first read, a backfill window),
 * are only told, when webhooks announced them. An announced call whose hangup was lost and whose CDR
 * came later than the reconcile window (the platform late, the sync down for hours) would otherwise
 * wait for its four-hour limit. A first read's CDRs written after it began (`watchedAfterId`) are
 * calls that ended while callsync watched: reconciled as an incremental page's, since a first read of
 * years of history takes hours, and a call whose webhooks were all lost then has no other way in.
 */
export async function followCdrPage(
  temporal: Client,
  pool: Queryable,
  opts: {
    account: string;
    taskQueue: string;
    windowMs: number;
    newest: string | null;
    reconcile: boolean;
    /** A first read's end of history (SyncCursor.watchedAfterId): CDRs after it are reconciled. */
    watchedAfterId?: number;
  },
  cdrs: readonly Cdr[],
): Promise<void> {
  if (!opts.reconcile) {
    const after = opts.watchedAfterId;
    const watched = after === undefined ? [] : cdrs.filter((c) => c.id > after);
    if (watched.length > 0) await followCdrPage(temporal, pool, { ...opts, reconcile: true }, watched);
    const history = after === undefined ? cdrs : cdrs.filter((c) => c.id <= after);
    if (history.length > 0) await notifyAnnouncedCalls(temporal, pool, opts.account, history);
    return;
  }
  await reconcileCalls(temporal, opts, cdrs);
  const recent = new Set(recentCallIds(cdrs, opts.newest, opts.windowMs));
  const older = cdrs.filter((c) => !c.live_id || !recent.has(c.live_id));
  if (older.length > 0) await notifyAnnouncedCalls(temporal, pool, opts.account, older);
}
