// The dashboard's HTML: escaping, the page frame (styles inline: no asset to fetch, nothing from the
// internet) and small formatters shared by the pages.

/** Text made safe for HTML content and attribute values. */
export function esc(value: string | number | bigint | boolean | null | undefined): string {
  return String(value ?? '')
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');
}

/** A query string from the defined, non-empty values. */
export function query(params: Record<string, string | number | undefined | null>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params))
    if (v !== undefined && v !== null && v !== '') q.set(k, String(v));
  const s = q.toString();
  return s ? `?${s}` : '';
}

/** A duration in seconds, short: 45s, 12m, 3h, 2d. */
export function duration(seconds: number | null | undefined): string {
  if (seconds === null || seconds === undefined || !Number.isFinite(seconds)) return '–';
  const s = Math.max(0, Math.round(seconds));
  if (s < 120) return `${s}s`;
  if (s < 7200) return `${Math.round(s / 60)}m`;
  if (s < 172_800) return `${Math.round(s / 3600)}h`;
  return `${Math.round(s / 86_400)}d`;
}

/** A time as `YYYY-MM-DD HH:MM:SS` UTC. */
export function time(value: Date | string | null | undefined): string {
  if (!value) return '–';
  const d = value instanceof Date ? value : new Date(value);
  return Number.isNaN(d.getTime()) ? String(value) : d.toISOString().slice(0, 19).replace('T', ' ');
}

/** A status word as a coloured pill. */
export function pill(text: string, tone: 'ok' | 'warn' | 'bad' | 'muted' = 'muted'): string {
  return `<span class="pill ${tone}">${esc(text)}</span>`;
}

const STYLE = `
:root{--bg:#f6f7f9;--card:#fff;--ink:#1d2330;--muted:#6b7385;--line:#e3e6ec;--accent:#2f6fde;--ok:#1f9d55;--warn:#c98a00;--bad:#d64545}
*{box-sizing:border-box}body{margin:0;font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;background:var(--bg);color:var(--ink)}
header{background:#1d2330;color:#fff;display:flex;align-items:center;gap:24px;padding:0 24px;height:52px}
header b{font-size:16px;letter-spacing:.3px}header nav a{color:#c9d1e3;text-decoration:none;margin-right:18px}
header nav a.on,header nav a:hover{color:#fff}header form{margin-left:auto}
header button{background:none;border:1px solid #4a5470;color:#c9d1e3;border-radius:6px;padding:4px 10px;cursor:pointer}
main{max-width:1240px;margin:0 auto;padding:24px}h1{font-size:20px;margin:0 0 16px}h2{font-size:15px;margin:0 0 12px}
.grid{display:grid;grid-template-columns:repeat(auto-fit,minmax(170px,1fr));gap:12px;margin-bottom:16px}
.card{background:var(--card);border:1px solid var(--line);border-radius:10px;padding:16px;margin-bottom:16px}
.stat .n{font-size:26px;font-weight:600}.stat .l{color:var(--muted);font-size:12px;text-transform:uppercase;letter-spacing:.4px}
table{width:100%;border-collapse:collapse}th,td{text-align:left;padding:7px 8px;border-bottom:1px solid var(--line);vertical-align:top}
th{font-size:12px;color:var(--muted);font-weight:600;text-transform:uppercase;letter-spacing:.3px}
td.num,th.num{text-align:right;font-variant-numeric:tabular-nums}tr:last-child td{border-bottom:0}
a{color:var(--accent)}.muted{color:var(--muted)}.pill{display:inline-block;padding:1px 8px;border-radius:10px;font-size:12px;background:#eef0f4}
.pill.ok{background:#e3f5ea;color:var(--ok)}.pill.warn{background:#fdf3dc;color:var(--warn)}.pill.bad{background:#fbe5e5;color:var(--bad)}
.charts{display:grid;grid-template-columns:repeat(auto-fit,minmax(480px,1fr));gap:16px}.charts .card{margin:0}
svg text{font:11px system-ui,sans-serif;fill:var(--muted)}.legend{display:flex;gap:14px;flex-wrap:wrap;font-size:12px;color:var(--muted);margin-top:6px}
.legend i{display:inline-block;width:10px;height:10px;border-radius:2px;margin-right:5px;vertical-align:-1px}
form.inline{display:inline}input,select{font:inherit;padding:6px 8px;border:1px solid var(--line);border-radius:6px;background:#fff}
button.primary{background:var(--accent);color:#fff;border:0;border-radius:6px;padding:6px 12px;font:inherit;cursor:pointer}
button.small{padding:3px 9px;font-size:12px}.filters{display:flex;gap:8px;flex-wrap:wrap;align-items:end;margin-bottom:12px}
.filters label{display:flex;flex-direction:column;font-size:12px;color:var(--muted);gap:3px}
.flash{padding:10px 14px;border-radius:8px;margin-bottom:16px;background:#e8f0fd;border:1px solid #c8daf9}.flash.bad{background:#fbe5e5;border-color:#f2c4c4}
.timeline{list-style:none;margin:0;padding:0}.timeline li{padding:6px 0 6px 16px;border-left:2px solid var(--line);position:relative}
.timeline li:before{content:"";position:absolute;left:-6px;top:11px;width:10px;height:10px;border-radius:50%;background:var(--accent)}
pre{white-space:pre-wrap;background:#f3f4f7;padding:10px;border-radius:6px;margin:0;max-height:320px;overflow:auto}
.reason{font-family:ui-monospace,monospace;font-size:12px;max-width:520px;word-break:break-word}
.who{color:#c9d1e3;margin-right:10px}.login{max-width:360px;margin:12vh auto}.login input{width:100%;margin:8px 0 12px}.pager{display:flex;gap:12px;margin-top:12px}
`;

export type Section = 'overview' | 'calls' | 'failures' | 'quarantine';

/** Who is looking: shown in the header, and the CSRF token every form of theirs carries. */
export interface PageSession {
  username: string;
  /** admin | viewer: a viewer only reads (no retry buttons). */
  role: string;
  csrf: string;
}

/** The hidden field with the session's CSRF token (every POST form has one). */
export function csrfField(csrf: string | undefined): string {
  return `<input type="hidden" name="_csrf" value="${esc(csrf)}">`;
}

/** A whole page: header with navigation and log-out, then the content. */
export function page(title: string, section: Section | null, body: string, session?: PageSession): string {
  const link = (s: Section, href: string, label: string) =>
    `<a href="${href}" class="${s === section ? 'on' : ''}">${label}</a>`;
  const nav =
    section === null
      ? ''
      : `<nav>${link('overview', '/dashboard', 'Overview')}${link('calls', '/dashboard/calls', 'Calls')}${link('failures', '/dashboard/failures', 'Failures')}${link('quarantine', '/dashboard/quarantine', 'Quarantine')}</nav>
<form method="post" action="/dashboard/logout">${session ? `<span class="who">${esc(session.username)}</span>` : ''}${csrfField(session?.csrf)}<button type="submit">Log out</button></form>`;
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${esc(title)} · callsync</title><style>${STYLE}</style></head>
<body><header><b>callsync</b>${nav}</header><main>${body}</main></body></html>`;
}
