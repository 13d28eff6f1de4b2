// Every activity's retry policy, timeouts and heartbeat timeout, in one place: workflows take their
// proxyActivities options from here, and activities/ the heartbeat cadence. Pure data (no I/O), so
// workflow code may import it.
import type { ActivityOptions, LocalActivityOptions, RetryPolicy } from '@temporalio/common';

/**
 * Failure types that retrying cannot fix: the platform's (bad request, no permission, gone,
 * unreadable, pages out of the order asked for, bad credentials), the CRM's (activities/failures.ts
 * names them), and bad state.
 */
export const NON_RETRYABLE_TYPES = [
  'BadRequestError',
  'ForbiddenError',
  'NotFoundError',
  'SchemaError',
  'PageOrderError',
  'UnauthorizedError',
  'ConfigError',
  'CheckpointMissing',
  'CrmBadRequestError',
  'CrmUnauthorizedError',
  'CrmForbiddenError',
  'CrmNotFoundError',
  'CrmConflictError',
  'CrmRejectedError',
];

/**
 * How long an activity may go without a heartbeat before Temporal retries it elsewhere (a worker
 * that died). Every activity heartbeats while it runs (activities/index.ts), well within this, so
 * waiting out a Retry-After or reading a slow page never trips it.
 */
export const HEARTBEAT_TIMEOUT = '15 seconds';

/**
 * Sync and backfill pages: transient errors (5xx, network, 429 after its Retry-After) retry with
 * backoff for as long as it takes. A page resumes from its checkpoint, so a retry repeats nothing,
 * and a stream that cannot advance shows in `callsync status` as lag.
 */
export const SYNC_RETRY: RetryPolicy = {
  initialInterval: '1 second',
  backoffCoefficient: 2,
  maximumInterval: '1 minute',
  nonRetryableErrorTypes: NON_RETRYABLE_TYPES,
};

/**
 * The account sync loop's turn (syncStreams): each stream reads for at most ACCOUNT_SYNC_BUDGET_MS
 * and goes on in the next turn, so the turn ends well within its timeout. A failure of one stream
 * ends in its result, not the activity's; the activity itself retries like a page.
 */
export const ACCOUNT_SYNC_ACTIVITIES: ActivityOptions = {
  startToCloseTimeout: '10 minutes',
  heartbeatTimeout: HEARTBEAT_TIMEOUT,
  retry: SYNC_RETRY,
};

/** How long one stream reads in one turn of the account sync loop. */
export const ACCOUNT_SYNC_BUDGET_MS = 3 * 60_000;

/** Activities of syncStream, backfill and backfillWindow. */
export const SYNC_ACTIVITIES: ActivityOptions = {
  startToCloseTimeout: '5 minutes',
  heartbeatTimeout: HEARTBEAT_TIMEOUT,
  retry: SYNC_RETRY,
};

/**
 * The dashboard's quarantine retry: an operator waits for it, so a platform that keeps failing ends
 * it after a few attempts with the error on the page (and the records still quarantined).
 */
export const QUARANTINE_RETRY_ACTIVITIES: ActivityOptions = {
  startToCloseTimeout: '5 minutes',
  heartbeatTimeout: HEARTBEAT_TIMEOUT,
  retry: { ...SYNC_RETRY, maximumAttempts: 4 },
};

/**
 * A call's follow-up (CDR lookup, CRM call log, callback task) retries a bounded number of times:
 * a CRM that keeps refusing ends the workflow with a recorded failure (call_failures, shown by
 * `callsync status`) instead of retrying for ever. Ten attempts span about 20 minutes of backoff,
 * longer when the vendor's Retry-After asks for it.
 */
export const CALL_RETRY: RetryPolicy = {
  initialInterval: '2 seconds',
  backoffCoefficient: 2,
  maximumInterval: '5 minutes',
  maximumAttempts: 10,
  nonRetryableErrorTypes: NON_RETRYABLE_TYPES,
};

/** Activities of callLifecycle and callback. */
export const CALL_ACTIVITIES: ActivityOptions = {
  startToCloseTimeout: '2 minutes',
  // Caps the whole retry sequence too, even when Retry-After delays stretch it.
  scheduleToCloseTimeout: '12 hours',
  heartbeatTimeout: HEARTBEAT_TIMEOUT,
  retry: CALL_RETRY,
};

/**
 * The short steps of a call's follow-up that run inside its workflow task (a warehouse insert, a
 * platform read, a signal): local activities, so each costs no activity task, no round trip through
 * the task queue and three fewer history events. Retries of more than a minute apart become timers.
 */
export const CALL_LOCAL_ACTIVITIES: LocalActivityOptions = {
  startToCloseTimeout: '1 minute',
  scheduleToCloseTimeout: '12 hours',
  retry: CALL_RETRY,
};

/**
 * Placing a callback (POST /calls). Each retry first looks for the call an earlier attempt may have
 * placed, and while that call could still be invisible (ended, its CDR not written yet) it waits
 * (fails retryably, DialUnconfirmed) for up to calls.cdrWait before dialling again: so retries go on,
 * at most a minute apart, for as long as that takes, within two hours. A dial that keeps failing is
 * then recorded like other call failures.
 */
export const DIAL_ACTIVITIES: ActivityOptions = {
  startToCloseTimeout: '1 minute',
  scheduleToCloseTimeout: '2 hours',
  heartbeatTimeout: HEARTBEAT_TIMEOUT,
  // No attempt limit: the schedule-to-close timeout bounds the retries.
  retry: {
    initialInterval: '2 seconds',
    backoffCoefficient: 2,
    maximumInterval: '1 minute',
    nonRetryableErrorTypes: NON_RETRYABLE_TYPES,
  },
};

/** Failures of a report run that retrying cannot fix: the run fails with its reason in report_runs. */
export const REPORT_NON_RETRYABLE_TYPES = [
  ...NON_RETRYABLE_TYPES,
  'UnknownReportError',
  'UnknownCodeError',
  'UnknownCultureError',
  'ReportScheduleError',
  'ReportScheduleMissing',
  'PeriodError',
];

/**
 * Report exports: building a month of a million rows takes minutes (heartbeating all along);
 * transient failures (the warehouse restarting) retry a bounded number of times, then the run fails
 * with its reason in report_runs and shows in `callsync status`.
 */
export const REPORT_ACTIVITIES: ActivityOptions = {
  startToCloseTimeout: '30 minutes',
  heartbeatTimeout: HEARTBEAT_TIMEOUT,
  retry: {
    initialInterval: '2 seconds',
    backoffCoefficient: 2,
    maximumInterval: '2 minutes',
    maximumAttempts: 8,
    nonRetryableErrorTypes: REPORT_NON_RETRYABLE_TYPES,
  },
};

/**
 * Report delivery failures retrying cannot fix: the SMTP server's 5xx (bad credentials, refused
 * sender or recipients), Google's 4xx (no access to the folder, a bad request), and a run that cannot
 * be delivered (no file, no valid recipient, too large to attach without Drive).
 */
export const REPORT_DELIVERY_NON_RETRYABLE_TYPES = [
  ...NON_RETRYABLE_TYPES,
  'SmtpRejectedError',
  'SmtpAuthError',
  'GoogleBadRequestError',
  'GoogleUnauthorizedError',
  'GoogleForbiddenError',
  'GoogleNotFoundError',
  'GoogleConflictError',
  'GoogleRequestError',
  'ReportRunMissing',
  'ReportScheduleMissing',
  'ReportNotBuilt',
  'ReportRecipientsInvalid',
  'ReportTooLargeForEmail',
  'ReportTooLargeForSheets',
];

/**
 * deliverReportEmail / deliverReportDrive / deliverReportSheets: an SMTP 4xx or a lost connection,
 * Google's 429 and 5xx retry with backoff (Google's Retry-After honoured) for up to about six hours;
 * each retry first checks what an earlier attempt delivered, so none sends twice.
 */
export const REPORT_DELIVERY_ACTIVITIES: ActivityOptions = {
  startToCloseTimeout: '30 minutes',
  scheduleToCloseTimeout: '6 hours',
  heartbeatTimeout: HEARTBEAT_TIMEOUT,
  retry: {
    initialInterval: '5 seconds',
    backoffCoefficient: 2,
    maximumInterval: '10 minutes',
    nonRetryableErrorTypes: REPORT_DELIVERY_NON_RETRYABLE_TYPES,
  },
};

/**
 * Transcription of one recording: a long-running recognition polled inside the activity (heartbeating
 * with the operation's name), so an attempt may take a while; a retry resumes the same operation.
 */
export const TRANSCRIPTION_ACTIVITIES: ActivityOptions = {
  startToCloseTimeout: '1 hour',
  heartbeatTimeout: '1 minute',
  retry: { ...SYNC_RETRY, maximumAttempts: 10 },
};

/**
 * Screen-pop's local activity: a link is only useful while the call rings, so three quick tries
 * within half a minute, then the workflow fails and shows as such (the call log is unaffected).
 */
export const SCREEN_POP_ACTIVITY: LocalActivityOptions = {
  startToCloseTimeout: '10 seconds',
  scheduleToCloseTimeout: '30 seconds',
  retry: {
    initialInterval: '200 milliseconds',
    backoffCoefficient: 2,
    maximumAttempts: 3,
    nonRetryableErrorTypes: NON_RETRYABLE_TYPES,
  },
};
