// The call list (search by number, user, outcome and date; keyset pages) and a call's own page.
import { callDetail, callUsers, latestCallFailure, searchCalls } from '../../connectors/postgres';
import { callFailureCard, callRetryFlash } from './call-failure-card';
import type { DashboardOptions } from './context';
import { esc, page, pill, query, time } from './html';
import { OUTCOMES, type CallListQuery, type CallPageQuery } from './params';

const PAGE_SIZE = 50;

export type { CallListQuery } from './params';

const outcomeTone = (d: string | null) =>
  d === 'CONNECTED' ? 'ok' : d === 'INITIAL' ? 'bad' : d === 'RINGING' || d === 'VM' ? 'warn' : 'muted';

/** A date field (YYYY-MM-DD) as the start of that UTC day; `next` gives the day after. */
function day(value: string | undefined, next = false): Date | undefined {
  if (!value || !/^\d{4}-\d{2}-\d{2}$/.test(value)) return undefined;
  const d = new Date(`${value}T00:00:00Z`);
  if (Number.isNaN(d.getTime())) return undefined;
  return next ? new Date(d.getTime() + 86_400_000) : d;
}

function parseBefore(value: string | undefined) {
  const m = /^(.+)_(\d+)$/.exec(value ?? '');
  if (!m) return undefined;
  const calldate = new Date(m[1]!);
  return Number.isNaN(calldate.getTime()) ? undefined : { calldate, id: Number(m[2]) };
}

export async function callListPage(opts: DashboardOptions, q: CallListQuery): Promise<string> {
  const [account, userId] = (q.user ?? '').split(':');
  const userFilter = userId && /^\d+$/.test(userId) ? { account: account!, id: Number(userId) } : undefined;
  const [result, users] = await Promise.all([
    searchCalls(opts.db, {
      // A user of an account this viewer may not see finds nothing (the route answers 403 first).
      accounts: userFilter ? opts.accounts.filter((a) => a === userFilter.account) : opts.accounts,
      number: q.number?.trim() || undefined,
      userId: userFilter?.id,
      outcome: q.outcome || undefined,
      from: day(q.from),
      to: day(q.to, true),
      before: parseBefore(q.before),
      limit: PAGE_SIZE,
    }),
    callUsers(opts.db, opts.accounts),
  ]);
  const multi = opts.accounts.length > 1;
  const rows = result.calls
    .map(
      (
        c,
      ) => `<tr><td><a href="/dashboard/calls/${esc(encodeURIComponent(c.account))}/${c.id}">${time(c.calldate)}</a></td>
${multi ? `<td>${esc(c.account)}</td>` : ''}<td>${esc(c.src_name ? `${c.src_name} ` : '')}<span class="muted">${esc(c.src)}</span></td>
<td>${esc(c.dst_name ? `${c.dst_name} ` : '')}<span class="muted">${esc(c.dst)}</span></td>
<td>${esc(c.user_name ?? (c.user_id === null ? '' : `#${c.user_id}`))}</td>
<td>${pill(c.disposition ?? 'unknown', outcomeTone(c.disposition))}</td><td class="num">${c.billsec ?? 0}s</td></tr>`,
    )
    .join('');
  const keep = { number: q.number, user: q.user, outcome: q.outcome, from: q.from, to: q.to };
  const next = result.next
    ? `<a id="older" href="/dashboard/calls${query({ ...keep, before: `${result.next.calldate.toISOString()}_${result.next.id}` })}">Older calls →</a>`
    : '';
  const body = `<h1>Calls</h1>
<form class="filters card" method="get" action="/dashboard/calls">
<label>Number<input name="number" value="${esc(q.number)}" placeholder="+44 20…"></label>
<label>User<select name="user"><option value="">anyone</option>${users.map((u) => `<option value="${esc(`${u.account}:${u.id}`)}"${q.user === `${u.account}:${u.id}` ? ' selected' : ''}>${esc(u.name.trim() || u.email || `#${u.id}`)}</option>`).join('')}</select></label>
<label>Outcome<select name="outcome"><option value="">any</option>${OUTCOMES.map((o) => `<option${q.outcome === o ? ' selected' : ''}>${o}</option>`).join('')}</select></label>
<label>From<input type="date" name="from" value="${esc(q.from)}"></label>
<label>To<input type="date" name="to" value="${esc(q.to)}"></label>
<button class="primary" type="submit">Search</button></form>
<div class="card"><table id="calls"><thead><tr><th>When (UTC)</th>${multi ? '<th>Account</th>' : ''}<th>From</th><th>To</th><th>User</th><th>Outcome</th><th class="num">Talk</th></tr></thead>
<tbody>${rows || `<tr><td colspan="7" class="muted">No calls match.</td></tr>`}</tbody></table>
<div class="pager">${q.before ? `<a href="/dashboard/calls${query(keep)}">← Newest</a>` : ''}${next}</div></div>`;
  return page('Calls', 'calls', body, opts.session);
}

const SALESFORCE = 'salesforce:';

/** A CRM object as a link where the CRM has a page for it (a Salesforce org's identity is its URL). */
function crmLink(destination: string, crmId: string, sobject: string): string {
  if (destination.startsWith(SALESFORCE)) {
    const org = destination.slice(SALESFORCE.length);
    return `<a href="${esc(`${org}/lightning/r/${sobject}/${encodeURIComponent(crmId)}/view`)}" target="_blank" rel="noopener">${esc(crmId)}</a>`;
  }
  return esc(crmId);
}

/** How long the call page waits for a CRM's page address (a HubSpot portal id is one request). */
const CRM_PAGE_WAIT_MS = 2000;

/** A call log as a link to its page in the CRM that logged it, where that CRM has pages. */
async function callLogLink(opts: DashboardOptions, account: string, destination: string, crmId: string) {
  if (!opts.callLogPage) return crmLink(destination, crmId, 'Task');
  const timeout = new Promise<null>((resolve) => setTimeout(() => resolve(null), CRM_PAGE_WAIT_MS).unref());
  let url: string | null = null;
  try {
    url = await Promise.race([opts.callLogPage(account, destination, crmId), timeout]);
  } catch (err) {
    opts.logger.warn({ err, destination: destinationType(destination) }, 'dashboard: no CRM page address');
  }
  return url === null
    ? crmLink(destination, crmId, 'Task')
    : `<a class="crm-page" href="${esc(url)}" target="_blank" rel="noopener">${esc(crmId)}</a>`;
}

/** The destination's type for people (`hubspot`): its identity holds a token digest or a URL. */
const destinationType = (destination: string) => destination.split(':')[0] ?? destination;

export async function callPage(
  opts: DashboardOptions,
  account: string,
  cdrId: number,
  q: CallPageQuery = {},
): Promise<string | undefined> {
  if (!opts.accounts.includes(account)) return undefined;
  const d = await callDetail(opts.db, account, cdrId, opts.destinations[account] ?? 'builtin');
  if (!d) return undefined;
  const c = d.cdr;
  // A call's follow-up is keyed by its live id (the CDR's own id for a call without one).
  const callId = Number(c.live_id ?? c.id);
  const failure = await latestCallFailure(opts.db, account, callId);
  const events = d.events
    .map(
      (e) =>
        `<li><b>${esc(e.name)}</b> ${e.state ? pill(e.state) : ''} <span class="muted">${time(e.event_time)}</span></li>`,
    )
    .join('');
  const legs = d.legs
    .map(
      (l) =>
        `<tr><td>${l.id}</td><td>${time(l.calldate)}</td><td>${esc(l.src)}</td><td>${esc(l.dst)}</td><td>${pill(l.disposition ?? 'unknown', outcomeTone(l.disposition))}</td><td class="num">${l.billsec ?? 0}s</td><td>${esc(l.t_cause)}</td></tr>`,
    )
    .join('');
  const recordings = d.recordings
    .map((r) => {
      const player = r.audio_archived_at
        ? `<audio controls preload="none" src="/dashboard/audio/${esc(encodeURIComponent(account))}/${r.id}"></audio>`
        : '<span class="muted">audio not archived</span>';
      return `<div class="card"><h2>Recording ${r.id} <span class="muted">${time(r.created_at)}</span></h2>${player}
${r.summary ? `<p><b>Summary:</b> ${esc(r.summary)}</p>` : ''}${r.sentiment ? `<p><b>Sentiment:</b> ${esc(r.sentiment)}</p>` : ''}
<h2 style="margin-top:12px">Transcript</h2>${r.transcript ? `<pre id="transcript">${esc(r.transcript)}</pre>` : '<span class="muted">no transcript yet</span>'}</div>`;
    })
    .join('');
  const logs = (
    await Promise.all(
      d.crm.map(
        async (o) =>
          `<tr><td>${esc(destinationType(o.destination))}</td><td>${await callLogLink(opts, account, o.destination, o.crm_id)}</td><td class="muted">${time(o.updated_at)}</td></tr>`,
      ),
    )
  ).join('');
  const builtin = d.builtinLog
    ? `<p>Built-in call log #${d.builtinLog.id}: ${esc(d.builtinLog.title)} ${pill(d.builtinLog.status)}</p>`
    : '';
  const tasks = d.tasks
    .map(
      (t) =>
        `<tr><td>${esc(destinationType(t.destination))}</td><td>${crmLink(t.destination, t.crm_id, 'Task')}</td><td class="muted">${time(t.created_at)}</td></tr>`,
    )
    .join('');
  const body = `<h1>Call ${esc(c.src)} → ${esc(c.dst)} <span class="muted">${time(c.calldate)}</span></h1>
${callRetryFlash(q)}${callFailureCard(opts, account, cdrId, failure)}
<div class="grid">
<div class="card stat"><div class="n">${pill(c.disposition ?? 'unknown', outcomeTone(c.disposition))}</div><div class="l">outcome</div></div>
<div class="card stat"><div class="n">${c.billsec ?? 0}s</div><div class="l">talk time</div></div>
<div class="card stat"><div class="n">${esc(c.type ?? '–')}</div><div class="l">type</div></div>
<div class="card stat"><div class="n">${esc(c.live_id ?? '–')}</div><div class="l">call id</div></div>
</div>
<div class="card"><h2>Timeline</h2>${events ? `<ul class="timeline" id="timeline">${events}</ul>` : '<span class="muted">No webhook events for this call.</span>'}</div>
<div class="card"><h2>CDR</h2><table id="cdr"><thead><tr><th>Leg</th><th>Start</th><th>From</th><th>To</th><th>Outcome</th><th class="num">Talk</th><th>Cause</th></tr></thead><tbody>${legs}</tbody></table></div>
${recordings || '<div class="card"><h2>Recording</h2><span class="muted">No recording.</span></div>'}
<div class="card"><h2>CRM call log</h2>${logs ? `<table id="crm"><tbody>${logs}</tbody></table>` : '<span class="muted">Not logged yet.</span>'}${builtin}</div>
<div class="card"><h2>Callback</h2>${tasks ? `<table id="callback"><tbody>${tasks}</tbody></table>` : '<span class="muted">No callback task for this call.</span>'}</div>`;
  return page(`Call ${c.id}`, 'calls', body, opts.session);
}
