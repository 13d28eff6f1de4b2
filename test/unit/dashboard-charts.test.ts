// The dashboard's charts draw what their data says: a bar segment per hour and outcome, as tall as
// its calls on the axis the busiest hour sets, stacked in order; a point per value, placed by its time
// and value. Read back from the SVG the server sends.
import { stackedHourBars, timeLines } from '../../server/dashboard/charts';

interface Rect {
  x: number;
  y: number;
  height: number;
  title: string;
}

function rects(svg: string): Rect[] {
  return [
    ...svg.matchAll(
      /<rect x="([\d.]+)" y="([\d.]+)" width="[\d.]+" height="([\d.]+)"[^>]*><title>([^<]*)<\/title>/g,
    ),
  ].map((m) => ({ x: Number(m[1]), y: Number(m[2]), height: Number(m[3]), title: m[4]! }));
}

function points(svg: string): Array<{ cx: number; cy: number; title: string }> {
  return [...svg.matchAll(/<circle cx="([\d.]+)" cy="([\d.]+)"[^>]*><title>([^<]*)<\/title>/g)].map((m) => ({
    cx: Number(m[1]),
    cy: Number(m[2]),
    title: m[3]!,
  }));
}

const axisLabels = (svg: string) =>
  [...svg.matchAll(/<text x="[\d.]+" y="[\d.]+" text-anchor="end">([^<]*)<\/text>/g)].map((m) => m[1]);

// The plot area: 560 × 200 with 10 px above and 26 below.
const BOTTOM = 174;
const INNER_H = 164;

describe('stackedHourBars', () => {
  const at = (h: number) => new Date(Date.UTC(2026, 10, 27, h));
  const hours = [at(10), at(11), at(12)];
  const svg = stackedHourBars(
    hours,
    [
      { hour: at(10), outcome: 'CONNECTED', calls: 3 },
      { hour: at(10), outcome: 'RINGING', calls: 1 },
      { hour: at(12), outcome: 'CONNECTED', calls: 5 },
      { hour: at(12), outcome: 'CONNECTED', calls: 1 },
    ],
    'Calls per hour by outcome',
  );
  const bars = rects(svg);

  it('draws one segment per hour and outcome with its calls, none for an hour without calls', () => {
    expect(bars.map((b) => b.title)).toEqual([
      '10:00 CONNECTED: 3',
      '10:00 RINGING: 1',
      '12:00 CONNECTED: 6',
    ]);
  });

  it('makes each segment as tall as its calls on an axis of whole calls above the busiest hour', () => {
    // Six calls at most: the axis goes to 12 in steps of 3.
    expect(axisLabels(svg)).toEqual(['0', '3', '6', '9', '12']);
    const [connected10, ringing10, connected12] = bars as [Rect, Rect, Rect];
    expect(connected10.height).toBeCloseTo((INNER_H * 3) / 12, 0);
    expect(ringing10.height).toBeCloseTo((INNER_H * 1) / 12, 0);
    expect(connected12.height).toBeCloseTo((INNER_H * 6) / 12, 0);
    // Stacked: the first outcome stands on the axis, the next on top of it.
    expect(connected10.y + connected10.height).toBeCloseTo(BOTTOM, 0);
    expect(ringing10.y + ringing10.height).toBeCloseTo(connected10.y, 0);
    // Hours left to right, in their slots (the empty 11:00 between them).
    expect(ringing10.x).toBe(connected10.x);
    expect(connected12.x - connected10.x).toBeCloseTo((2 * (560 - 44 - 12)) / 3, 0);
  });

  it('says so when there were no calls', () => {
    const empty = stackedHourBars(hours, [], 'Calls per hour by outcome');
    expect(rects(empty)).toEqual([]);
    expect(empty).toContain('no calls in this period');
  });
});

describe('timeLines', () => {
  const from = new Date(Date.UTC(2026, 10, 27, 0));
  const to = new Date(Date.UTC(2026, 10, 28, 0));
  const svg = timeLines(
    [
      {
        label: 'median',
        points: [
          { at: from, value: 1 },
          { at: new Date(Date.UTC(2026, 10, 27, 12)), value: 2 },
        ],
      },
      { label: '95th percentile', points: [{ at: to, value: 2 }] },
    ],
    { from, to },
    (v) => `${v} s`,
    'Latency',
  );

  it('places each value by its time across the range and its height on the axis', () => {
    expect(axisLabels(svg)).toEqual(['0 s', '0.5 s', '1 s', '1.5 s', '2 s']);
    expect(points(svg)).toEqual([
      { cx: 44, cy: BOTTOM - INNER_H / 2, title: 'median 00:00: 1 s' },
      { cx: 44 + (560 - 44 - 12) / 2, cy: BOTTOM - INNER_H, title: 'median 12:00: 2 s' },
      { cx: 560 - 12, cy: BOTTOM - INNER_H, title: '95th percentile 00:00: 2 s' },
    ]);
    // A line joins a series' points; a series of one point has none.
    expect([...svg.matchAll(/<polyline /g)]).toHaveLength(1);
  });
});
