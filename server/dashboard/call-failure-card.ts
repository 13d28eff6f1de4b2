// A call's follow-up on its page: the latest failure (step, failure type, message as recorded —
// numbers masked by the activity that wrote it — when, and how Temporal stopped retrying), the state
// of its retry (who asked, when, how it ended), and the Retry form for an admin.
import { retryable, retryState } from '../../activities/call-failure-retry';
import type { CallFailureRow } from '../../connectors/postgres';
import type { DashboardOptions } from './context';
import { csrfField, esc, pill, time } from './html';
import type { CallPageQuery } from './params';

/** Why Temporal stopped retrying the step, for people. */
const ATTEMPTS: Readonly<Record<string, string>> = {
  NON_RETRYABLE_FAILURE: 'not retried: the error cannot be fixed by retrying',
  MAXIMUM_ATTEMPTS_REACHED: 'every attempt failed',
  TIMEOUT: 'gave up after its time ran out',
};

const FLASH: Readonly<Record<NonNullable<CallPageQuery['retry']>, string>> = {
  started: 'Retry started: the follow-up runs again from the CDR.',
  'already-retried': 'This failure was already retried: its state is below.',
  'not-failed': "The call's follow-up is not failed now (it is running or done): nothing was started.",
  'no-failure': "The call's follow-up has no failure to retry.",
  error: 'The retry could not be started (see the server log); try again.',
};

const tone = (state: string | null) =>
  state === 'succeeded' ? 'ok' : state === 'failed' ? 'bad' : state === 'running' ? 'warn' : 'muted';

/** The flash a Retry's redirect shows on the call page ('' without one). */
export function callRetryFlash(q: CallPageQuery): string {
  if (!q.retry) return '';
  return `<div class="flash${q.retry === 'error' ? ' bad' : ''}" id="retry-result">${esc(FLASH[q.retry])}</div>`;
}

/** The card; '' when the call's follow-up never failed. */
export function callFailureCard(
  opts: DashboardOptions,
  account: string,
  cdrId: number,
  f: CallFailureRow | undefined,
): string {
  if (!f) return '';
  const state = retryState(f);
  const attempts = f.retry_state ? (ATTEMPTS[f.retry_state] ?? f.retry_state) : 'unknown';
  const retried = f.retry_requested_at
    ? `${pill(state ?? 'running', tone(state))} asked by ${esc(f.retry_requested_by)} ${time(f.retry_requested_at)}${f.retry_finished_at ? `, ended ${time(f.retry_finished_at)}` : ''}`
    : state
      ? pill(state, tone(state))
      : '<span class="muted">not retried</span>';
  const canRetry = opts.temporal !== undefined && opts.session?.role === 'admin' && retryable(f);
  const form = canRetry
    ? `<form class="inline" method="post" action="/dashboard/calls/${esc(encodeURIComponent(account))}/${cdrId}/retry">${csrfField(opts.session?.csrf)}<input type="hidden" name="failure" value="${esc(f.id)}"><button class="primary" type="submit">Retry the follow-up</button></form>`
    : '';
  const earlier = f.retry_of ? ` <span class="muted">(a retry of failure #${esc(f.retry_of)})</span>` : '';
  const heading = state === 'succeeded' ? 'Follow-up failed, then retried' : 'Follow-up failed';
  return `<div class="card" id="failure"><h2>${heading} ${pill(f.failure_type, 'bad')}</h2>
<table><tbody>
<tr><th>Step</th><td id="failure-step">${esc(f.activity)}</td></tr>
<tr><th>Reason</th><td class="reason" id="failure-reason">${esc(f.message)}</td></tr>
<tr><th>When</th><td>${time(f.failed_at)}${earlier}</td></tr>
<tr><th>Attempts</th><td>${esc(attempts)}</td></tr>
<tr><th>Retry</th><td id="failure-retry" data-state="${esc(state ?? 'none')}">${retried}</td></tr>
</tbody></table>${form}</div>`;
}
