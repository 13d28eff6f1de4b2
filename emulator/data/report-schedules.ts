import type { Row } from '../store/types';
import { formatEpoch, zonedParts, zonedToUtc } from './calendar';
import type { Rng } from './prng';
import type { CustomerProfile, IdAllocator } from './profiles';

/** The platform's frequency object (POST body form); the model stores it as a JSON string. */
export interface Frequency {
  type: 'daily' | 'weekly' | 'monthly';
  time_of_day: string[];
  /** ISO weekdays, 1 = Monday … 7 = Sunday. */
  day_of_week: number[];
  day_of_month: number[];
}

export interface ScheduleSpec {
  name: string;
  description: string;
  reportId: number;
  frequency: Frequency;
  timezone: string;
  format: number;
  culture: number;
  active: boolean;
}

/** Schedules of the larger customer; `format` and `culture` codes are the dictionary's. */
export const ACME_SCHEDULES: readonly ScheduleSpec[] = [
  {
    name: 'Daily call summary',
    description: 'Calls, answered rate and talk time per user for the previous day',
    reportId: 1,
    frequency: { type: 'daily', time_of_day: ['07:00'], day_of_week: [], day_of_month: [] },
    timezone: 'Europe/London',
    format: 1,
    culture: 1,
    active: true,
  },
  {
    name: 'Weekly queue performance',
    description: 'Service level, abandoned calls and average wait per queue',
    reportId: 4,
    frequency: { type: 'weekly', time_of_day: ['08:00'], day_of_week: [1], day_of_month: [] },
    timezone: 'Europe/London',
    format: 2,
    culture: 1,
    active: true,
  },
  {
    name: 'Monthly billing export',
    description: 'All charged calls of the previous month',
    reportId: 7,
    frequency: { type: 'monthly', time_of_day: ['06:00'], day_of_week: [], day_of_month: [1] },
    timezone: 'Europe/London',
    format: 1,
    culture: 1,
    active: true,
  },
  {
    name: 'US missed calls',
    description: 'Missed calls on the US numbers',
    reportId: 2,
    frequency: { type: 'daily', time_of_day: ['09:00', '17:30'], day_of_week: [], day_of_month: [] },
    timezone: 'America/New_York',
    format: 2,
    culture: 2,
    active: true,
  },
  {
    name: 'APAC weekly activity',
    description: 'Calls to and from Australia',
    reportId: 3,
    frequency: { type: 'weekly', time_of_day: ['09:00'], day_of_week: [1, 4], day_of_month: [] },
    timezone: 'Australia/Sydney',
    format: 1,
    culture: 1,
    active: false,
  },
  {
    name: 'Agent wrap-up',
    description: 'Recordings and CX scores per agent',
    reportId: 5,
    frequency: { type: 'weekly', time_of_day: ['17:30'], day_of_week: [5], day_of_month: [] },
    timezone: 'Europe/Berlin',
    // PDF: the agents' weekly sheet is printed for the wrap-up meeting.
    format: 0,
    culture: 1,
    active: true,
  },
];

/** Schedules of the smaller, German customer. */
export const GLOBEX_SCHEDULES: readonly ScheduleSpec[] = [
  {
    name: 'Tagesbericht Anrufe',
    description: 'Anrufe des Vortags',
    reportId: 1,
    frequency: { type: 'daily', time_of_day: ['07:30'], day_of_week: [], day_of_month: [] },
    timezone: 'Europe/Berlin',
    format: 1,
    culture: 3,
    active: true,
  },
  {
    name: 'Monatsabrechnung',
    description: 'Gebühren des Vormonats',
    reportId: 7,
    frequency: { type: 'monthly', time_of_day: ['06:00'], day_of_week: [], day_of_month: [1, 15] },
    timezone: 'Europe/Berlin',
    format: 2,
    culture: 3,
    active: true,
  },
];

/** Run instants (ms) of a schedule on the local day `dayOffset` days from `ms`'s local date. */
function runsOnDay(f: Frequency, tz: string, ms: number, dayOffset: number): number[] {
  const today = zonedParts(ms, tz);
  const noon = Date.UTC(today.y, today.m0, today.d + dayOffset, 12, 0, 0);
  const d = new Date(noon);
  const isoDow = d.getUTCDay() === 0 ? 7 : d.getUTCDay();
  if (f.type === 'weekly' && !f.day_of_week.includes(isoDow)) return [];
  if (f.type === 'monthly' && !f.day_of_month.includes(d.getUTCDate())) return [];
  return f.time_of_day.map((t) => {
    const [h, m] = t.split(':').map(Number);
    return zonedToUtc(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate(), h ?? 0, m ?? 0, tz);
  });
}

/** The previous and next run (ms) around `ms`, in the schedule's time zone (DST-aware). */
export function scheduleRuns(f: Frequency, tz: string, ms: number): { last?: number; next?: number } {
  let last: number | undefined;
  let next: number | undefined;
  for (let off = -62; off <= 62; off++) {
    for (const run of runsOnDay(f, tz, ms, off)) {
      if (run <= ms && (last === undefined || run > last)) last = run;
      if (run > ms && (next === undefined || run < next)) next = run;
    }
  }
  return { ...(last !== undefined ? { last } : {}), ...(next !== undefined ? { next } : {}) };
}

/** The customer's report schedules, with last/next runs computed from the clock. */
export function buildReportSchedules(
  profile: CustomerProfile,
  rng: Rng,
  ids: IdAllocator,
  nowMs: number,
): Row[] {
  const specs = profile.users > 10 ? ACME_SCHEDULES : GLOBEX_SCHEDULES;
  return specs.map((s, i) => {
    const created = nowMs / 1000 - (200 - i * 17) * 86_400 + rng.int(0, 40_000);
    const runs = scheduleRuns(s.frequency, s.timezone, nowMs);
    return {
      id: ids.take('reportschedules'),
      created_at: formatEpoch(created),
      culture: s.culture,
      description: s.description,
      emails: [profile.adminEmail, `reports@${profile.domain}`].slice(0, 1 + (i % 2)).join(','),
      end_at: i === 4 ? formatEpoch(nowMs / 1000 + 90 * 86_400) : null,
      format: s.format,
      frequency: JSON.stringify(s.frequency),
      last_run_at: s.active && runs.last !== undefined ? formatEpoch(runs.last / 1000) : null,
      name: s.name,
      next_run_at: s.active && runs.next !== undefined ? formatEpoch(runs.next / 1000) : null,
      report_id: s.reportId,
      start_at: formatEpoch(created - (created % 86_400) + 86_400),
      status: s.active ? 1 : 0,
      timezone: s.timezone,
    };
  });
}
