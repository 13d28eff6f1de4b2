// The quarantine: open records with their reason and last retry, a retry button per record and per
// stream, the result of the last retry, and what was recently cleared.
import { openQuarantinePage, recentlyResolved } from '../../connectors/postgres';
import type { DashboardOptions } from './context';
import { csrfField, esc, page, pill, query, time } from './html';
import type { QuarantineQuery } from './params';

const PAGE_SIZE = 100;

export type { QuarantineQuery } from './params';

const outcomeTone = (o: string | null) => (o === 'stored' ? 'ok' : o === 'still-invalid' ? 'bad' : 'muted');

function flash(q: QuarantineQuery): string {
  if (q.error) return `<div class="flash bad" id="retry-result">Retry failed: ${esc(q.error)}</div>`;
  if (q.running)
    return `<div class="flash" id="retry-result">Retry still running (workflow ${esc(q.running)}); reload to see its results.</div>`;
  if (q.stored === undefined) return '';
  const parts = [`${Number(q.stored)} stored (left the quarantine)`, `${Number(q.still ?? 0)} still invalid`];
  if (Number(q.skipped ?? 0) > 0) parts.push(`${Number(q.skipped)} not retryable`);
  return `<div class="flash" id="retry-result">Retry done: ${parts.join(', ')}.</div>`;
}

export async function quarantinePage(
  opts: DashboardOptions,
  q: QuarantineQuery,
  now = new Date(),
): Promise<string> {
  const accounts = q.account && opts.accounts.includes(q.account) ? [q.account] : opts.accounts;
  const offset = Math.max(0, Number(q.offset ?? 0) || 0);
  const [open, resolved] = await Promise.all([
    openQuarantinePage(opts.db, { accounts, stream: q.stream || undefined, limit: PAGE_SIZE + 1, offset }),
    recentlyResolved(opts.db, accounts, new Date(now.getTime() - 86_400_000)),
  ]);
  const canRetry = opts.temporal !== undefined && opts.session?.role !== 'viewer';
  const button = (fields: Record<string, string>, label: string, cls = 'small') =>
    canRetry
      ? `<form class="inline" method="post" action="/dashboard/quarantine/retry">${csrfField(opts.session?.csrf)}${Object.entries(
          fields,
        )
          .map(([k, v]) => `<input type="hidden" name="${k}" value="${esc(v)}">`)
          .join('')}<button class="primary ${cls}" type="submit">${label}</button></form>`
      : '';
  const rows = open
    .slice(0, PAGE_SIZE)
    .map(
      (
        r,
      ) => `<tr data-record="${esc(`${r.stream}/${r.record_id}`)}"><td>${esc(r.account)}</td><td>${esc(r.stream)}</td><td>${esc(r.record_id)}</td>
<td class="reason">${esc(r.reason)}</td><td class="muted">${time(r.first_seen_at)}<br>${time(r.last_seen_at)}</td>
<td>${r.last_retry_at ? `${pill(r.last_retry_outcome ?? '?', outcomeTone(r.last_retry_outcome))}<br><span class="muted">${time(r.last_retry_at)}</span>` : '<span class="muted">never</span>'}</td>
<td>${button({ account: r.account, stream: r.stream, recordId: r.record_id }, 'Retry')}</td></tr>`,
    )
    .join('');
  const streams = [...new Map(open.map((r) => [`${r.account}\u0000${r.stream}`, r])).values()];
  const retryAll = streams
    .map((s) =>
      button(
        { account: s.account, stream: s.stream },
        `Retry all of ${esc(s.stream)}${accounts.length > 1 ? ` (${esc(s.account)})` : ''}`,
        '',
      ),
    )
    .join(' ');
  const cleared = resolved
    .map(
      (r) =>
        `<tr><td>${esc(r.account)}</td><td>${esc(r.stream)}</td><td>${esc(r.record_id)}</td><td>${pill(r.last_retry_outcome ?? 'resolved', 'ok')}</td><td class="muted">${time(r.resolved_at)}</td></tr>`,
    )
    .join('');
  const body = `<h1>Quarantine${q.stream ? ` · ${esc(q.stream)}` : ''}</h1>${flash(q)}
${canRetry || opts.session?.role === 'viewer' ? '' : '<div class="flash bad">Retry needs Temporal: this server runs without it (--no-relay).</div>'}
<div class="card"><div class="filters">${retryAll || '<span class="muted">Nothing quarantined.</span>'}${q.stream ? ` <a href="/dashboard/quarantine">all streams</a>` : ''}</div>
<table id="quarantine"><thead><tr><th>Account</th><th>Stream</th><th>Record</th><th>Reason</th><th>First / last seen</th><th>Last retry</th><th></th></tr></thead>
<tbody>${rows || '<tr><td colspan="7" class="muted">No open quarantined records.</td></tr>'}</tbody></table>
<div class="pager">${offset > 0 ? `<a href="/dashboard/quarantine${query({ account: q.account, stream: q.stream, offset: Math.max(0, offset - PAGE_SIZE) })}">← Newer</a>` : ''}${open.length > PAGE_SIZE ? `<a href="/dashboard/quarantine${query({ account: q.account, stream: q.stream, offset: offset + PAGE_SIZE })}">Older →</a>` : ''}</div></div>
<div class="card"><h2>Cleared in the last 24 hours</h2>${cleared ? `<table id="cleared"><tbody>${cleared}</tbody></table>` : '<span class="muted">None.</span>'}</div>`;
  return page('Quarantine', 'quarantine', body, opts.session);
}
