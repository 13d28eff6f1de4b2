import type { Rng } from './prng';

const DAY = 86_400;

/** Relative call volume per UTC hour: office hours in Europe, an evening tail from the Americas. */
const HOURLY = [
  1, 0.6, 0.4, 0.3, 0.3, 0.6, 2, 5, 10, 13, 14, 13, 11, 12, 13, 13, 11, 8, 5, 3.5, 2.5, 2, 1.6, 1.2,
];
/** Relative call volume per weekday, Sunday first. */
const WEEKDAY = [0.12, 1, 1.05, 1.05, 1, 0.9, 0.25];

/** Cumulative hourly weights, for sampling a second of the day. */
const CUMULATIVE = (() => {
  const c = new Float64Array(25);
  for (let h = 0; h < 24; h++) c[h + 1] = (c[h] ?? 0) + (HOURLY[h] ?? 0);
  return c;
})();

function sampleSecondOfDay(rng: Rng): number {
  const total = CUMULATIVE[24] ?? 1;
  const r = rng.next() * total;
  let h = 0;
  while (h < 23 && (CUMULATIVE[h + 1] ?? 0) <= r) h++;
  return h * 3600 + Math.floor(rng.next() * 3600);
}

/**
 * Start times (epoch seconds, ascending) of `count` calls spread over [from, to) with weekly and daily
 * rhythms. Returns a typed array so a million entries stay small.
 */
export function callSchedule(rng: Rng, count: number, from: number, to: number): Float64Array {
  const out = new Float64Array(count);
  if (count === 0 || to <= from) return out;
  const firstDay = Math.floor(from / DAY);
  const lastDay = Math.floor((to - 1) / DAY);
  const days = lastDay - firstDay + 1;
  const weights = new Float64Array(days);
  let total = 0;
  for (let i = 0; i < days; i++) {
    const day = firstDay + i;
    const dow = (day + 4) % 7; // 1970-01-01 was a Thursday
    const lo = Math.max(from, day * DAY);
    const hi = Math.min(to, (day + 1) * DAY);
    const share = (hi - lo) / DAY; // partial first and last days
    const w = (WEEKDAY[dow] ?? 1) * share * (0.85 + 0.3 * rng.next());
    weights[i] = w;
    total += w;
  }
  // Largest-remainder apportionment: exact total, deterministic.
  const counts = new Int32Array(days);
  const rema: { i: number; r: number }[] = [];
  let assigned = 0;
  for (let i = 0; i < days; i++) {
    const exact = ((weights[i] ?? 0) / total) * count;
    counts[i] = Math.floor(exact);
    assigned += counts[i] ?? 0;
    rema.push({ i, r: exact - Math.floor(exact) });
  }
  rema.sort((a, b) => b.r - a.r || a.i - b.i);
  for (let k = 0; k < count - assigned; k++) {
    const idx = (rema[k % rema.length] as { i: number }).i;
    counts[idx] = (counts[idx] ?? 0) + 1;
  }
  let n = 0;
  for (let i = 0; i < days; i++) {
    const dayStart = (firstDay + i) * DAY;
    const lo = Math.max(from, dayStart);
    const hi = Math.min(to, dayStart + DAY);
    const c = counts[i] ?? 0;
    const day = new Float64Array(c);
    for (let k = 0; k < c; k++) {
      let t = dayStart + sampleSecondOfDay(rng);
      // Partial days (the first and today) keep their calls inside the window.
      if (t < lo || t >= hi) t = lo + Math.floor(rng.next() * (hi - lo));
      day[k] = t;
    }
    day.sort();
    out.set(day, n);
    n += c;
  }
  return out;
}
