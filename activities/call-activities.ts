// Activities of a call's follow-up: its timeline, its CDR, its CRM call log, and callbacks.
import { ApplicationFailure, Context } from '@temporalio/activity';
import { WorkflowNotFoundError, type WorkflowHandle } from '@temporalio/client';
import type { CountryCode } from 'libphonenumber-js';
import { buildCallLog, summarizeCdr } from '../connectors/crm/call-log';
import { callbackTaskLines } from '../connectors/crm/callback-task-body';
import {
  destinationIdOf,
  type CallbackTask,
  type CallLog,
  type CrmConnector,
  type CrmContact,
} from '../connectors/crm/crm-connector';
import { CrmBatchers } from '../connectors/crm/crm-batchers';
import { findCallCdr } from './call-cdr';
import { contactLookupOf } from './contact-lookup';
import { callbacksOf, crmRulesOf } from '../config/account-settings';
import { resolveCallOwner } from '../connectors/crm/call-owner';
import { chooseContact } from '../connectors/crm/match';
import { toE164 } from '../lib/phone';
import { ensureUnknownContact, upsertCallLog, upsertTask } from '../connectors/crm/upsert';
import type { Cdr, Monitor } from '../connectors/platform';
import { ivrChoices, ivrRouteText } from '../connectors/crm/ivr-route';
import {
  addCallEvents,
  callDtmfDigits,
  callTimeline,
  latestCallerReach,
  recordCallerReach,
  recordCallFailure,
} from '../connectors/postgres';
import {
  callbackWorkflow,
  callbackWorkflowId,
  callConnectedSignal,
  legacyCallbackWorkflowId,
  missedCallSignal,
  timelineEvents,
  type CallbackStatus,
  type CallConnectedNote,
  type CallerReach,
  type CallEventSignal,
  type CallFacts,
  type LogCallResult,
  type MissedCallEvent,
  type MissedCallNote,
} from '../contracts';
import { platformTimeOrUndefined } from '../sync/time';
import { callerKey } from '../lib/caller-key';
import { metrics } from '../lib/metrics';
import { workflowIdKey } from '../lib/encryption-keys';
import { maskPhoneNumbers } from '../lib/redact-pii';
import type { ActivityDeps } from './deps';
import { spendCrmDailyBudget } from './vendor-budget';

/** A call or callback workflow run whose activity failed for good, as the workflow saw it. */
export interface CallFailureInput {
  account: string;
  workflowId: string;
  runId: string;
  workflowType: string;
  /** The call id, or the caller's number. */
  subject: string;
  activity: string;
  failureType: string;
  message: string;
  retryState: string | null;
  /** The failure (call_failures id) this run was retrying. */
  retryOf?: string;
}

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
}

/** A platform time (`YYYY-MM-DD HH:MM:SS` UTC) as ISO 8601; null when it is not one. */
function isoOfPlatformTime(value: string | null | undefined): string | null {
  const ms = value ? platformTimeOrUndefined(value) : undefined;
  return ms === undefined ? null : new Date(ms).toISOString();
}

/** What a call log holds of a recording: whether there is one, and whether it has its transcript. */
function recordingFacts(recording: Monitor | null): { recording: boolean; transcript: boolean } {
  return { recording: recording !== null, transcript: Boolean(recording?.transcript?.trim()) };
}

export function createCallActivities(deps: ActivityDeps) {
  const country = deps.config.crm.defaultCountry as CountryCode;
  const userEmails = new Map<string, string | null>();

  const findCdr = (account: string, callId: number): Promise<Cdr | null> =>
    findCallCdr(deps.platform(account), callId);

  const findRecording = async (account: string, callId: number): Promise<Monitor | null> => {
    const page = await deps
      .platform(account)
      .history.monitors.list({ filter: [{ property: 'live_id', operator: 'eq', value: callId }], limit: 10 })
      .readPage(1);
    return page.data[0] ?? null;
  };

  const userEmail = async (account: string, userId: number | null | undefined): Promise<string | null> => {
    if (!userId) return null;
    const cacheKey = `${account}:${userId}`;
    if (!userEmails.has(cacheKey)) {
      const user = await deps
        .platform(account)
        .customer.users.get(userId)
        .catch(() => null);
      userEmails.set(cacheKey, user?.email ?? null);
    }
    return userEmails.get(cacheKey) ?? null;
  };

  // A CRM with batch endpoints gets this worker's concurrent lookups and writes gathered into batches.
  const batchers = new Map<CrmConnector, CrmBatchers | null>();
  const batchersOf = (crm: CrmConnector): CrmBatchers | null => {
    if (!batchers.has(crm)) {
      batchers.set(
        crm,
        crm.batch
          ? new CrmBatchers(deps.warehouse.db, destinationIdOf(crm), crm.batch, {
              batchWaitMs: deps.config.crm.batchWait,
              lookupWaitMs: deps.config.crm.lookupWait,
            })
          : null,
      );
    }
    return batchers.get(crm)!;
  };
  const writeCallLog = (crm: CrmConnector, log: CallLog) => {
    const b = batchersOf(crm);
    return b
      ? b.callLogs.submit({ item: log, mayExist: firstAttempt().mayExist })
      : upsertCallLog(deps.warehouse.db, crm, log, firstAttempt());
  };
  const writeTask = (crm: CrmConnector, task: CallbackTask) => {
    const b = batchersOf(crm);
    return b
      ? b.tasks.submit({ item: task, mayExist: firstAttempt().mayExist })
      : upsertTask(deps.warehouse.db, crm, task, firstAttempt());
  };

  // The CRM owner of the call's user; looked up only when the match rule needs it.
  const callOwner = async (account: string, userId: number | null | undefined): Promise<string | null> => {
    const rules = crmRulesOf(deps.config, account);
    if (rules.matchRule !== 'call_owner' || !userId) return null;
    return resolveCallOwner({
      userId,
      email: await userEmail(account, userId),
      overrides: rules.owners,
      connector: deps.crm(account),
    });
  };

  const matchContact = async (
    account: string,
    number: string | null,
    userId: number | null | undefined,
  ): Promise<CrmContact | null> => {
    if (!number) return null;
    const crm = deps.crm(account);
    const rules = crmRulesOf(deps.config, account);
    const ownerId = await callOwner(account, userId);
    const lookup = contactLookupOf(deps);
    // A miss in the contact cache goes to the CRM through this worker's lookup batcher when the CRM
    // has one (one search for many numbers), else as a search of its own.
    const b = batchersOf(crm);
    const { contacts } = await lookup.candidates(account, crm, number, (n) =>
      b ? b.lookups.submit(n) : crm.findContactsByPhone(n),
    );
    const choose = (list: CrmContact[]) => chooseContact(list, rules.matchRule, ownerId);
    const found = choose(contacts);
    if (found || !rules.createUnknownContacts) return found;
    // Keyed per account and number: calls and callbacks of one unknown caller followed at once (on
    // any worker) create one contact between them.
    const { contact } = await ensureUnknownContact(deps.warehouse.db, crm, { account, e164: number }, choose);
    await lookup.remember(account, crm, number, contact);
    return contact;
  };

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
    /** Call follow-up settings from config (read through an activity: config is not history). */
    async callSettings(_input: {
      account: string;
    }): Promise<{ cdrWaitMs: number; recordingHorizonMs: number }> {
      return { cdrWaitMs: deps.config.calls.cdrWait, recordingHorizonMs: deps.config.calls.recordingHorizon };
    },

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

    /** Adds events to the call's timeline in the warehouse (each event once). */
    async recordCallEvents(input: {
      account: string;
      callId: number;
      events: CallEventSignal[];
    }): Promise<number> {
      return addCallEvents(deps.warehouse.db, input.account, input.callId, timelineEvents(input.events));
    },

    /** The ended call's facts from its CDR, or null while the CDR is not there yet. */
    async lookupCall(input: { account: string; callId: number }): Promise<CallFacts | null> {
      const cdr = await findCdr(input.account, input.callId);
      if (!cdr) return null;
      const queue = (cdr.context ?? '').toUpperCase() === 'QUEUE' ? Number(cdr.dst_id) : NaN;
      return {
        ...summarizeCdr(cdr, country),
        cdrId: cdr.id,
        startedAt: isoOfPlatformTime(cdr.calldate),
        userId: cdr.user_id ?? null,
        queueId: Number.isFinite(queue) ? queue : null,
      };
    },

    /** Whether the call's recording, and its transcript, exist on the platform now (no CRM request). */
    async recordingState(input: {
      account: string;
      callId: number;
    }): Promise<{ recording: boolean; transcript: boolean }> {
      return recordingFacts(await findRecording(input.account, input.callId));
    },

    /**
     * Writes the call's CRM log, exactly once per call: created the first time, updated in place
     * when the recording or the transcript has arrived since `known`.
     */
    async logCall(input: {
      account: string;
      callId: number;
      known: { recording: boolean; transcript: boolean } | null;
      crmId: string | null;
    }): Promise<LogCallResult> {
      await spendCrmDailyBudget(deps, input.account);
      const cdr = await findCdr(input.account, input.callId);
      if (!cdr) {
        throw ApplicationFailure.create({ type: 'CdrMissing', message: `no CDR for call ${input.callId}` });
      }
      const recording = await findRecording(input.account, input.callId);
      const state = recordingFacts(recording);
      if (
        input.known &&
        input.crmId &&
        input.known.recording === state.recording &&
        input.known.transcript === state.transcript
      ) {
        return { crmId: input.crmId, ...state, written: false };
      }
      const summary = summarizeCdr(cdr, country);
      const account = deps.config.accounts.find((a) => a.name === input.account);
      const log = buildCallLog({
        account: input.account,
        callId: input.callId,
        cdr,
        recording,
        recordingUrl:
          recording && account ? `${account.platform.baseUrl}/monitors/${recording.id}.mp3` : null,
        userEmail: await userEmail(input.account, cdr.user_id),
        contact: await matchContact(input.account, summary.externalNumber, cdr.user_id),
        defaultCountry: country,
        ivrDigits: (await callDtmfDigits(deps.warehouse.db, input.account, input.callId)).join(''),
        ivrRoute: ivrRouteText(
          ivrChoices(await callTimeline(deps.warehouse.db, input.account, input.callId)),
        ),
      });
      const { crmId, outcome } = await writeCallLog(deps.crm(input.account), log);
      metrics().crmWrites.inc({
        account: input.account,
        kind: outcome === 'created' ? 'call_log_created' : 'call_log_updated',
      });
      return { crmId, ...state, written: true };
    },

    /** Records that a call's or callback's follow-up gave up (shown by `callsync status`). */
    async recordCallFailure(input: CallFailureInput): Promise<void> {
      deps.logger.error(
        {
          account: input.account,
          workflowId: input.workflowId,
          activity: input.activity,
          type: input.failureType,
        },
        `call follow-up failed: ${input.message}`,
      );
      // The row outlives the history and is shown by status: no number in clear in it. A call's
      // subject is its id (digits only, kept); a callback's is the caller's number (masked).
      await recordCallFailure(deps.warehouse.db, {
        account: input.account,
        workflow_id: input.workflowId,
        run_id: input.runId,
        workflow_type: input.workflowType,
        subject: /^\d+$/.test(input.subject) ? input.subject : maskPhoneNumbers(input.subject),
        activity: input.activity,
        failure_type: input.failureType,
        message: maskPhoneNumbers(input.message).slice(0, 2000),
        retry_state: input.retryState,
        retry_of: input.retryOf ?? null,
      });
      metrics().callFailures.inc({ account: input.account });
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
        assignTo === 'called_user' ? await userEmail(input.account, first?.calledUserId) : null;
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
        contact: await matchContact(input.account, input.number, first?.calledUserId),
      };
      const { crmId, outcome } = await writeTask(deps.crm(input.account), task);
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

/**
 * A first attempt cannot have left a CRM object without its mapping (an attempt records the mapping
 * right after creating), so it skips the vendor's rate-limited search for the key.
 */
function firstAttempt(): { mayExist: boolean } {
  return { mayExist: Context.current().info.attempt > 1 };
}

export type CallActivities = ReturnType<typeof createCallActivities>;
