// Charts drawn as SVG on the server: no chart library to ship, no script to run, nothing to fetch.

const W = 560;
const H = 200;
const PAD = { left: 44, right: 12, top: 10, bottom: 26 };

/** Colours of series, in order (outcomes get theirs by name). */
export const PALETTE = ['#2f6fde', '#1f9d55', '#c98a00', '#d64545', '#7a4fd1', '#0f9bb0', '#8a8f9c'];
const OUTCOME_COLOURS: Record<string, string> = {
  CONNECTED: '#1f9d55',
  RINGING: '#c98a00',
  VM: '#7a4fd1',
  ON_HOLD: '#0f9bb0',
  INITIAL: '#d64545',
};

export function outcomeColour(outcome: string, index: number): string {
  return OUTCOME_COLOURS[outcome] ?? PALETTE[(index + 4) % PALETTE.length]!;
}

const escText = (s: string) => s.replaceAll('&', '&amp;').replaceAll('<', '&lt;');

/** A round upper bound for an axis. */
function niceMax(v: number): number {
  if (v <= 0) return 1;
  const p = 10 ** Math.floor(Math.log10(v));
  const m = v / p;
  return (m <= 1 ? 1 : m <= 2 ? 2 : m <= 5 ? 5 : 10) * p;
}

function frame(max: number, fmt: (v: number) => string, xLabels: Array<{ x: number; text: string }>): string {
  const innerH = H - PAD.top - PAD.bottom;
  let out = '';
  for (let i = 0; i <= 4; i++) {
    const y = PAD.top + innerH - (innerH * i) / 4;
    out += `<line x1="${PAD.left}" x2="${W - PAD.right}" y1="${y}" y2="${y}" stroke="#e3e6ec"/>`;
    out += `<text x="${PAD.left - 6}" y="${y + 4}" text-anchor="end">${escText(fmt((max * i) / 4))}</text>`;
  }
  for (const l of xLabels)
    out += `<text x="${l.x}" y="${H - 8}" text-anchor="middle">${escText(l.text)}</text>`;
  return out;
}

function legend(items: Array<{ label: string; colour: string }>): string {
  return `<div class="legend">${items.map((i) => `<span><i style="background:${i.colour}"></i>${escText(i.label)}</span>`).join('')}</div>`;
}

const hourLabel = (d: Date) => `${String(d.getUTCHours()).padStart(2, '0')}:00`;

/** Stacked bars: one bar per hour, one segment per outcome. */
export function stackedHourBars(
  hours: Date[],
  rows: Array<{ hour: Date; outcome: string; calls: number }>,
  title: string,
): string {
  const outcomes = [...new Set(rows.map((r) => r.outcome))].sort();
  const byHour = new Map<number, Map<string, number>>();
  for (const r of rows) {
    const m = byHour.get(r.hour.getTime()) ?? new Map<string, number>();
    m.set(r.outcome, (m.get(r.outcome) ?? 0) + r.calls);
    byHour.set(r.hour.getTime(), m);
  }
  const totals = hours.map((h) => [...(byHour.get(h.getTime())?.values() ?? [])].reduce((a, b) => a + b, 0));
  // Whole calls: at least 4 on the axis so its five labels are distinct integers.
  const max = Math.ceil(niceMax(Math.max(4, ...totals)) / 4) * 4;
  const innerW = W - PAD.left - PAD.right;
  const innerH = H - PAD.top - PAD.bottom;
  const slot = innerW / Math.max(1, hours.length);
  const barW = Math.max(2, slot * 0.72);
  let bars = '';
  hours.forEach((h, i) => {
    let y = PAD.top + innerH;
    const x = PAD.left + i * slot + (slot - barW) / 2;
    outcomes.forEach((o, oi) => {
      const n = byHour.get(h.getTime())?.get(o) ?? 0;
      if (n === 0) return;
      const hgt = (innerH * n) / max;
      y -= hgt;
      bars += `<rect x="${x.toFixed(1)}" y="${y.toFixed(1)}" width="${barW.toFixed(1)}" height="${hgt.toFixed(1)}" fill="${outcomeColour(o, oi)}"><title>${hourLabel(h)} ${escText(o)}: ${n}</title></rect>`;
    });
  });
  const labels = hours
    .map((h, i) => ({ x: PAD.left + i * slot + slot / 2, text: hourLabel(h), i }))
    .filter((l) => l.i % Math.max(1, Math.ceil(hours.length / 8)) === 0);
  const empty =
    rows.length === 0
      ? `<text x="${W / 2}" y="${H / 2}" text-anchor="middle">no calls in this period</text>`
      : '';
  return `<svg viewBox="0 0 ${W} ${H}" width="100%" role="img" aria-label="${escText(title)}">${frame(max, (v) => String(Math.round(v)), labels)}${bars}${empty}</svg>${legend(outcomes.map((o, i) => ({ label: o, colour: outcomeColour(o, i) })))}`;
}

export interface LineSeries {
  label: string;
  points: Array<{ at: Date; value: number }>;
}

/** Lines over a time range (x: time, y: value), one per series. */
export function timeLines(
  series: LineSeries[],
  range: { from: Date; to: Date },
  fmt: (v: number) => string,
  title: string,
): string {
  const values = series.flatMap((s) => s.points.map((p) => p.value));
  const max = niceMax(Math.max(0, ...values));
  const innerW = W - PAD.left - PAD.right;
  const innerH = H - PAD.top - PAD.bottom;
  const span = Math.max(1, range.to.getTime() - range.from.getTime());
  const x = (d: Date) => PAD.left + (innerW * (d.getTime() - range.from.getTime())) / span;
  const y = (v: number) => PAD.top + innerH - (innerH * Math.min(v, max)) / max;
  let lines = '';
  series.forEach((s, i) => {
    const colour = PALETTE[i % PALETTE.length]!;
    const pts = s.points.map((p) => `${x(p.at).toFixed(1)},${y(p.value).toFixed(1)}`);
    if (pts.length > 1)
      lines += `<polyline fill="none" stroke="${colour}" stroke-width="1.8" points="${pts.join(' ')}"/>`;
    if (pts.length <= 40)
      for (const p of s.points)
        lines += `<circle cx="${x(p.at).toFixed(1)}" cy="${y(p.value).toFixed(1)}" r="2.4" fill="${colour}"><title>${escText(s.label)} ${hourLabel(p.at)}: ${escText(fmt(p.value))}</title></circle>`;
  });
  const labels: Array<{ x: number; text: string }> = [];
  for (let i = 0; i <= 6; i++) {
    const at = new Date(range.from.getTime() + (span * i) / 6);
    labels.push({
      x: x(at),
      text: `${String(at.getUTCHours()).padStart(2, '0')}:${String(at.getUTCMinutes()).padStart(2, '0')}`,
    });
  }
  const empty =
    values.length === 0
      ? `<text x="${W / 2}" y="${H / 2}" text-anchor="middle">no data in this period</text>`
      : '';
  return `<svg viewBox="0 0 ${W} ${H}" width="100%" role="img" aria-label="${escText(title)}">${frame(max, fmt, labels)}${lines}${empty}</svg>${legend(series.map((s, i) => ({ label: s.label, colour: PALETTE[i % PALETTE.length]! })))}`;
}
