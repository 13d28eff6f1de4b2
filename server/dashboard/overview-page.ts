// The overview: each stream's data lag, last run, rate and quarantine; the day's calls, callbacks
// and report runs; and the charts.
import {
  callsPerHour,
  dashboardStreams,
  dayFollowUps,
  dayReportRuns,
  newestCallAt,
  syncRunSeries,
  webhookLatencyPerHour,
} from '../../connectors/postgres';
import { callbackWorkflow, callLifecycleWorkflow } from '../../contracts';
import { decodeCursor } from '../../sync/cursor';
import { STREAMS, type StreamDefinition } from '../../sync/streams';
import { platformTimeOrUndefined } from '../../sync/time';
import { stackedHourBars, timeLines, type LineSeries } from './charts';
import { startOfDay, temporalCount, type DashboardOptions } from './context';
import { duration, esc, page, pill, query, time } from './html';

const HOUR = 3_600_000;

function dataLag(stream: string, cursor: string | null, now: number): number | null {
  const def = (STREAMS as Record<string, StreamDefinition | undefined>)[stream];
  if (!cursor || def?.kind !== 'history') return null;
  try {
    const max = decodeCursor(cursor).max;
    const at = max ? platformTimeOrUndefined(max) : undefined;
    return at === undefined ? null : Math.max(0, (now - at) / 1000);
  } catch {
    return null;
  }
}

const runTone = (status: string) => (status === 'succeeded' ? 'ok' : status === 'failed' ? 'bad' : 'warn');

/** A number with its label; `href` links the label to where the number's items are listed. */
function stat(n: number | null, label: string, tone = '', href?: string): string {
  const l = href ? `<a href="${esc(href)}">${esc(label)}</a>` : esc(label);
  return `<div class="card stat"><div class="n ${tone}">${n === null ? '–' : n}</div><div class="l">${l}</div></div>`;
}

function hoursBetween(from: Date, to: Date): Date[] {
  const out: Date[] = [];
  for (let t = Math.floor(from.getTime() / HOUR) * HOUR; t < to.getTime(); t += HOUR) out.push(new Date(t));
  return out;
}

/** Groups points by a key into line series. */
function seriesBy<T>(
  rows: T[],
  key: (r: T) => string,
  point: (r: T) => { at: Date; value: number } | null,
): LineSeries[] {
  const map = new Map<string, LineSeries>();
  for (const r of rows) {
    const p = point(r);
    if (!p) continue;
    const k = key(r);
    const s = map.get(k) ?? { label: k, points: [] };
    s.points.push(p);
    map.set(k, s);
  }
  return [...map.values()];
}

export async function overviewPage(opts: DashboardOptions, now = new Date()): Promise<string> {
  const { db, accounts } = opts;
  const today = startOfDay(now);
  const dayAgo = new Date(now.getTime() - 24 * HOUR);
  // The calls chart shows the last 24 hours, or the 24 hours up to the newest call when the
  // warehouse is further behind (a backfill, a stopped sync): a chart of nothing tells nobody anything.
  const newest = await newestCallAt(db, accounts);
  const callsTo =
    newest && newest < dayAgo ? new Date((Math.floor(newest.getTime() / HOUR) + 1) * HOUR) : now;
  const callsFrom = new Date(callsTo.getTime() - 24 * HOUR);
  const [
    streams,
    followUps,
    reports,
    calls,
    todayCalls,
    runs,
    latency,
    waiting,
    openCallbacks,
    closedCallbacks,
  ] = await Promise.all([
    dashboardStreams(db, accounts, opts.streams),
    dayFollowUps(db, accounts, today, opts.destinations),
    dayReportRuns(db, accounts, today),
    callsPerHour(db, accounts, callsFrom, callsTo),
    callsTo === now ? null : callsPerHour(db, accounts, today),
    syncRunSeries(db, accounts, dayAgo),
    webhookLatencyPerHour(db, dayAgo, accounts),
    temporalCount(opts, `WorkflowType='${callLifecycleWorkflow.name}' AND ExecutionStatus='Running'`),
    temporalCount(opts, `WorkflowType='${callbackWorkflow.name}' AND ExecutionStatus='Running'`),
    temporalCount(
      opts,
      `WorkflowType='${callbackWorkflow.name}' AND ExecutionStatus='Completed' AND CloseTime >= '${today.toISOString()}'`,
    ),
  ]);
  const multi = accounts.length > 1;
  const streamRows = streams
    .map((s) => {
      const lag = dataLag(s.stream, s.cursor, now.getTime());
      const run = s.lastRun;
      return `<tr>${multi ? `<td>${esc(s.account)}</td>` : ''}<td>${esc(s.stream)}</td>
<td class="num">${lag === null ? '<span class="muted">–</span>' : duration(lag)}</td>
<td>${run ? `${pill(run.status, runTone(run.status))} <span class="muted">${time(run.finishedAt ?? run.startedAt)}</span>` : '<span class="muted">never</span>'}</td>
<td class="num">${run ? run.records : '–'}</td>
<td class="num">${s.recordsPerSecond === null ? '–' : Math.round(s.recordsPerSecond).toLocaleString('en')}</td>
<td class="num">${s.quarantined > 0 ? `<a href="/dashboard/quarantine${query({ account: s.account, stream: s.stream })}">${s.quarantined}</a>` : '0'}</td></tr>`;
    })
    .join('');
  const rootCallsToday = (todayCalls ?? calls)
    .filter((c) => c.hour >= today)
    .reduce((a, c) => a + c.calls, 0);
  const contacts = streams.filter((s) => s.stream === 'contacts' && s.lastRun);
  const reportCounts = reports.byStatus.map((r) => `${pill(r.status, runTone(r.status))} ${r.n}`).join(' ');
  const lagSeries = seriesBy(
    runs.filter((r) => r.dataLagSeconds !== null),
    (r) => (multi ? `${r.account}/${r.stream}` : r.stream),
    (r) => ({ at: r.at, value: r.dataLagSeconds! }),
  );
  const rateSeries = seriesBy(
    runs.filter((r) => r.records > 0),
    (r) => (multi ? `${r.account}/${r.stream}` : r.stream),
    (r) => ({ at: r.at, value: r.recordsPerSecond }),
  );
  const latencySeries: LineSeries[] = [
    { label: 'median', points: latency.map((l) => ({ at: l.hour, value: l.p50 })) },
    { label: '95th percentile', points: latency.map((l) => ({ at: l.hour, value: l.p95 })) },
  ];
  const range = { from: dayAgo, to: now };
  const body = `<h1>Overview</h1>
<div class="grid">
${stat(rootCallsToday, 'calls today')}
${stat(followUps.logged, 'logged to the CRM today')}
${stat(waiting, 'waiting (follow-ups running)')}
${stat(followUps.failed, 'failed today', followUps.failed > 0 ? 'bad' : '', '/dashboard/failures')}
${stat(openCallbacks, 'callbacks open')}
${stat(closedCallbacks, 'callbacks closed today')}
</div>
<div class="charts">
<div class="card"><h2>Calls per hour by outcome (${callsTo === now ? 'last 24 h' : `24 h up to the newest call, ${time(callsTo)}`})</h2>${stackedHourBars(hoursBetween(callsFrom, callsTo), calls, 'Calls per hour by outcome')}</div>
<div class="card"><h2>Sync data lag (newest record's age at each run's end)</h2>${timeLines(lagSeries, range, duration, 'Sync data lag')}</div>
<div class="card"><h2>Sync throughput (records per second, per run)</h2>${timeLines(rateSeries, range, (v) => String(Math.round(v)), 'Sync throughput')}</div>
<div class="card"><h2>Webhook latency (received → in Temporal, seconds)</h2>${timeLines(latencySeries, range, (v) => (v < 1 ? v.toFixed(3) : v.toFixed(v < 10 ? 1 : 0)), 'Webhook latency')}</div>
</div>
<div class="card" style="margin-top:16px"><h2>Streams</h2><table id="streams"><thead><tr>${multi ? '<th>Account</th>' : ''}<th>Stream</th><th class="num">Data lag</th><th>Last run</th><th class="num">Records</th><th class="num">Records/s</th><th class="num">Quarantined</th></tr></thead><tbody>${streamRows}</tbody></table></div>
<div class="grid">
<div class="card"><h2>Report runs today</h2>${reportCounts || '<span class="muted">none today</span>'}
${reports.latest.length ? `<table style="margin-top:8px"><tbody>${reports.latest.map((r) => `<tr><td>${esc(r.schedule_id)}</td><td>${esc(r.period_label)}</td><td>${pill(r.status, runTone(r.status))}</td><td class="muted">${time(r.finished_at ?? r.created_at)}</td></tr>`).join('')}</tbody></table>` : ''}</div>
<div class="card"><h2>Callbacks today</h2>${followUps.callbackTasks} tasks opened, ${followUps.callbackFailures} failed</div>
${contacts.length ? `<div class="card"><h2>Contact sync</h2>${contacts.map((c) => `${pill(c.lastRun!.status, runTone(c.lastRun!.status))} ${c.lastRun!.records} contacts, ${time(c.lastRun!.finishedAt ?? c.lastRun!.startedAt)}`).join('<br>')}</div>` : ''}
</div>`;
  return page('Overview', 'overview', body, opts.session);
}
