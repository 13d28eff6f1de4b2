// Activities of a call's follow-up: its timeline, its CDR, its CRM call log, and the record of a
// follow-up that gave up. The callbacks a call opens are in callback-activities.ts.
import { ApplicationFailure } from '@temporalio/activity';
import type { CountryCode } from 'libphonenumber-js';
import { buildCallLog, summarizeCdr } from '../connectors/crm/call-log';
import { findCallCdr } from './call-cdr';
import type { Cdr, Monitor } from '../connectors/platform';
import { ivrChoices, ivrRouteText } from '../connectors/crm/ivr-route';
import { addCallEvents, callDtmfDigits, callTimeline, recordCallFailure } from '../connectors/postgres';
import { timelineEvents, type CallEventSignal, type CallFacts, type LogCallResult } from '../contracts';
import { isoOfPlatformTime } from '../sync/time';
import { metrics } from '../lib/metrics';
import { maskPhoneNumbers } from '../lib/redact-pii';
import { createCallCrm, type CallCrm } from './call-crm';
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

/** What a call log holds of a recording: whether there is one, and whether it has its transcript. */
function recordingFacts(recording: Monitor | null): { recording: boolean; transcript: boolean } {
  return { recording: recording !== null, transcript: Boolean(recording?.transcript?.trim()) };
}

export function createCallActivities(deps: ActivityDeps, callCrm: CallCrm = createCallCrm(deps)) {
  const country = deps.config.crm.defaultCountry as CountryCode;

  const findCdr = (account: string, callId: number): Promise<Cdr | null> =>
    findCallCdr(deps.platform(account), callId);

  const findRecording = async (account: string, callId: number): Promise<Monitor | null> => {
    const page = await deps
      .platform(account)
      .history.monitors.list({ filter: [{ property: 'live_id', operator: 'eq', value: callId }], limit: 10 })
      .readPage(1);
    return page.data[0] ?? null;
  };

  return {
    /** Call follow-up settings from config (read through an activity: config is not history). */
    async callSettings(_input: {
      account: string;
    }): Promise<{ cdrWaitMs: number; recordingHorizonMs: number }> {
      return { cdrWaitMs: deps.config.calls.cdrWait, recordingHorizonMs: deps.config.calls.recordingHorizon };
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
        userEmail: await callCrm.userEmail(input.account, cdr.user_id),
        contact: await callCrm.matchContact(input.account, summary.externalNumber, cdr.user_id),
        defaultCountry: country,
        ivrDigits: (await callDtmfDigits(deps.warehouse.db, input.account, input.callId)).join(''),
        ivrRoute: ivrRouteText(
          ivrChoices(await callTimeline(deps.warehouse.db, input.account, input.callId)),
        ),
      });
      const { crmId, outcome } = await callCrm.writeCallLog(
        deps.crm(input.account),
        log,
        input.crmId !== null,
      );
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
  };
}

export type CallActivities = ReturnType<typeof createCallActivities>;
