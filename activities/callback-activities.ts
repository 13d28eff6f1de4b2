// Activities of callbacks: their settings, opening (or adding to) a caller's callback when a call
// is missed, telling it when a call with the caller connected (and the reach it reads), and its CRM
// task. Callback workflow ids hash the caller's number.
import { WorkflowNotFoundError, type WorkflowHandle } from '@temporalio/client';
import type { CountryCode } from 'libphonenumber-js';
import { callbackTaskLines } from '../connectors/crm/callback-task-body';
import type { CallbackTask } from '../connectors/crm/crm-connector';
import { callbacksOf } from '../config/account-settings';
import { toE164 } from '../lib/phone';
import { latestCallerReach, recordCallerReach } from '../connectors/postgres';
import {
  callbackWorkflow,
  callbackWorkflowId,
  callConnectedSignal,
  legacyCallbackWorkflowId,
  missedCallSignal,
  type CallbackStatus,
  type CallConnectedNote,
  type CallerReach,
  type MissedCallEvent,
  type MissedCallNote,
} from '../contracts';
import { isoOfPlatformTime } from '../sync/time';
import { callerKey } from '../lib/caller-key';
import { metrics } from '../lib/metrics';
import { workflowIdKey } from '../lib/encryption-keys';
import { createCallCrm, type CallCrm } from './call-crm';
import type { ActivityDeps } from './deps';
import { spendCrmDailyBudget } from './vendor-budget';

export interface CallbackTaskInput {
  account: string;
  number: string;
  /** The first missed call of this callback: part of the task's idempotency key. */
  firstCallId: number;
  status: CallbackStatus;
  missed: MissedCallNote[];
  dialAttempts: { at: string; outcome: string }[];
  dueAt: string;
  /** The call that reached the caller, once closed (absent in inputs recorded before it was passed). */
  closedByCallId?: number | null;
  /** How long the callback stayed open after its latest missed call, for an expired task's body. */
  expireAfterMs?: number;
  /** The workflow wrote this task before (absent in inputs recorded before it was passed). */
  written?: boolean;
}

export function createCallbackActivities(deps: ActivityDeps, callCrm: CallCrm = createCallCrm(deps)) {
  const country = deps.config.crm.defaultCountry as CountryCode;

  const temporal = () => {
    if (!deps.temporal) throw new Error('activities need a Temporal client for callbacks');
    return deps.temporal;
  };

  // Callback ids hash the number (no personal data in ids); read once, when activities are created.
  const idKey = workflowIdKey(deps.config.temporal);
  const callbackId = (account: string, number: string) =>
    callbackWorkflowId(account, callerKey(idKey, account, number));

  /**
   * Signals a callback opened before ids were hashed, if it still runs; false when there is none. Such
   * callbacks keep their id until they end (a workflow id cannot change), so each missed or connected
   * call looks there first: one cheap NotFound answer per call once none are left.
   */
  const signalLegacyCallback = async (
    account: string,
    number: string,
    send: (h: WorkflowHandle) => Promise<void>,
  ): Promise<boolean> => {
    try {
      await send(temporal().workflow.getHandle(legacyCallbackWorkflowId(account, number)));
      return true;
    } catch (err) {
      if (err instanceof WorkflowNotFoundError) return false;
      throw err;
    }
  };

  /** Opens (or adds to) a caller's callback; the callback counts each missed call once. */
  const openCallback = async (account: string, number: string, missed: MissedCallNote): Promise<void> => {
    if (await signalLegacyCallback(account, number, (h) => h.signal(missedCallSignal, missed))) return;
    await temporal().workflow.signalWithStart(callbackWorkflow, {
      workflowId: callbackId(account, number),
      taskQueue: deps.config.temporal.taskQueue,
      args: [{ account, number }],
      signal: missedCallSignal,
      signalArgs: [missed],
    });
  };

  return {
    /** Callback settings from config. */
    async callbackSettings(input: { account: string }) {
      const c = callbacksOf(deps.config, input.account);
      return {
        dueInMs: c.dueIn,
        expireAfterMs: c.expireAfter,
        autoDial: {
          enabled: c.autoDial.enabled,
          timezone: c.autoDial.timezone,
          days: c.autoDial.days,
          start: c.autoDial.start,
          end: c.autoDial.end,
          maxAttempts: c.autoDial.maxAttempts,
          retryAfterMs: c.autoDial.retryAfter,
        },
      };
    },

    /** Opens (or adds to) the callback for a caller nobody reached. */
    async startCallback(input: { account: string; number: string; missed: MissedCallNote }): Promise<void> {
      await openCallback(input.account, input.number, input.missed);
    },

    /**
     * Opens (or adds to) the callback of a missed call as soon as its missed-call event arrives,
     * without waiting for the hangup or the CDR (which later only confirm it: the callback counts each
     * call once). Returns false when the event names no outside number to call back, or no time
     * to order the call by (the CDR opens it then).
     */
    async openMissedCallback(input: {
      account: string;
      callId: number;
      event: MissedCallEvent;
    }): Promise<boolean> {
      const e = input.event;
      const number = toE164(e.destination === 'out' ? e.dst : e.src, country);
      if (!number) return false;
      const eventTime = isoOfPlatformTime(e.time);
      // The platform's start orders calls; an event without one began no later than the miss itself.
      // Taken as older than every call (as signals were before they carried a start), a caller
      // reached last week would have this callback closed unseen. With neither time, the CDR opens it.
      const startedAt = isoOfPlatformTime(e.startTime) ?? eventTime;
      if (!startedAt) return false;
      const at = eventTime ?? startedAt;
      const context = (e.context ?? '').toUpperCase();
      const queue = context === 'QUEUE';
      // The event's dst_id is a user only in a user's context; a ring group's or IVR's id is not one
      // (a callback dialled "from" it is refused by the platform).
      const user = context === 'LOCAL_USER' || context === 'USER_LOCAL';
      await openCallback(input.account, number, {
        callId: input.callId,
        at,
        startedAt,
        calledUserId: user ? e.dstId : null,
        queueId: queue ? e.dstId : null,
      });
      return true;
    },

    /**
     * Tells the caller's open callback (if any) that a call with them connected, and when it started.
     * The reach is recorded first (caller_reaches): a callback that opens afterwards for an older
     * missed call reads it there and closes, whichever call's follow-up finished first.
     */
    async notifyCallbackConnected(input: {
      account: string;
      number: string;
      callId: number;
      /** The call's start (ISO 8601); absent in inputs recorded before it was passed. */
      startedAt?: string | null;
    }): Promise<boolean> {
      const note: CallConnectedNote = { callId: input.callId, startedAt: input.startedAt ?? null };
      if (input.startedAt) {
        await recordCallerReach(deps.warehouse.db, {
          account: input.account,
          callerKey: callerKey(idKey, input.account, input.number),
          reachedAt: new Date(input.startedAt),
          callId: input.callId,
        });
      }
      try {
        await temporal()
          .workflow.getHandle(callbackId(input.account, input.number))
          .signal(callConnectedSignal, note);
        return true;
      } catch (err) {
        if (!(err instanceof WorkflowNotFoundError)) throw err;
      }
      return signalLegacyCallback(input.account, input.number, (h) => h.signal(callConnectedSignal, note));
    },

    /** The latest call that reached the caller (caller_reaches), or null when none has. */
    async callerReach(input: { account: string; number: string }): Promise<CallerReach | null> {
      const reach = await latestCallerReach(
        deps.warehouse.db,
        input.account,
        callerKey(idKey, input.account, input.number),
      );
      return reach ? { callId: reach.callId, startedAt: reach.reachedAt.toISOString() } : null;
    },

    /** Writes the callback task (one per callback, exactly once), open, closed or expired. */
    async upsertCallbackTask(input: CallbackTaskInput): Promise<string> {
      await spendCrmDailyBudget(deps, input.account);
      const first = input.missed[0];
      const { assignTo } = callbacksOf(deps.config, input.account);
      const assignee =
        assignTo === 'called_user' ? await callCrm.userEmail(input.account, first?.calledUserId) : null;
      const lines = callbackTaskLines(input);
      const task: CallbackTask = {
        key: `${input.account}:callback:${input.number}:${input.firstCallId}`,
        subject: `Call back ${input.number}`,
        body: lines.join('\n'),
        status: input.status,
        dueAt: input.dueAt,
        callerNumber: input.number,
        assigneeEmail: assignee,
        assigneeUserId: assignTo === 'called_user' ? (first?.calledUserId ?? null) : null,
        contact: await callCrm.matchContact(input.account, input.number, first?.calledUserId),
      };
      const { crmId, outcome } = await callCrm.writeTask(
        deps.crm(input.account),
        task,
        input.written === true,
      );
      const m = metrics();
      m.crmWrites.inc({
        account: input.account,
        kind: outcome === 'created' ? 'task_created' : 'task_updated',
      });
      // A callback's task is created once (keyed), when the callback opens; it is written closed once.
      if (outcome === 'created') m.callbacksOpened.inc({ account: input.account });
      if (input.status === 'closed') m.callbacksClosed.inc({ account: input.account });
      return crmId;
    },
  };
}

export type CallbackActivities = ReturnType<typeof createCallbackActivities>;
