// Failed call follow-ups: each call's latest failure, newest first, with its reason (masked as
// recorded), its retry state and a Retry button for an admin (server/dashboard/retry-routes.ts).
import { retryable, retryState } from '../../activities/call-failure-retry';
import { latestCallFailures } from '../../connectors/postgres';
import { callRetryFlash } from './call-failure-card';
import type { DashboardOptions } from './context';
import { csrfField, esc, page, pill, time } from './html';
import type { CallPageQuery } from './params';

const PAGE_SIZE = 100;

const tone = (state: string | null) =>
  state === 'succeeded' ? 'ok' : state === 'failed' ? 'bad' : state === 'running' ? 'warn' : 'muted';

export async function failuresPage(opts: DashboardOptions, q: CallPageQuery): Promise<string> {
  const rows = await latestCallFailures(opts.db, { accounts: opts.accounts, limit: PAGE_SIZE });
  const canRetry = opts.temporal !== undefined && opts.session?.role === 'admin';
  const body = rows
    .map((f) => {
      const state = retryState(f);
      const call = f.cdr_id
        ? `<a href="/dashboard/calls/${esc(encodeURIComponent(f.account))}/${esc(f.cdr_id)}">${esc(f.subject)}</a>`
        : esc(f.subject);
      const asked = state
        ? `${pill(state, tone(state))}<br><span class="muted">${esc(f.retry_requested_by)} ${time(f.retry_requested_at)}</span>`
        : '';
      const retry =
        canRetry && retryable(f)
          ? `${asked ? `${asked}<br>` : ''}<form class="inline" method="post" action="/dashboard/failures/retry">${csrfField(opts.session?.csrf)}<input type="hidden" name="failure" value="${esc(f.id)}"><button class="primary small" type="submit">Retry</button></form>`
          : asked || '<span class="muted">not retried</span>';
      return `<tr data-failure="${esc(f.id)}"><td class="muted">${time(f.failed_at)}</td><td>${esc(f.account)}</td><td>${call}</td>
<td>${esc(f.activity)}<br>${pill(f.failure_type, 'bad')}</td><td class="reason">${esc(f.message)}</td><td>${retry}</td></tr>`;
    })
    .join('');
  const html = `<h1>Failed call follow-ups</h1>${callRetryFlash(q)}
<div class="card"><table id="failures"><thead><tr><th>Failed (UTC)</th><th>Account</th><th>Call</th><th>Step</th><th>Reason</th><th>Retry</th></tr></thead>
<tbody>${body || '<tr><td colspan="6" class="muted">No call follow-up has failed.</td></tr>'}</tbody></table></div>`;
  return page('Failed follow-ups', 'failures', html, opts.session);
}
