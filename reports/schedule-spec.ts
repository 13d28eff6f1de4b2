// A platform report schedule as a Temporal ScheduleSpec: one calendar per time of day in the
// schedule's IANA time zone, bounded by start_at/end_at, paused while inactive.
//
// Temporal matches calendars against the local clock literally (checked on the dev server): a local
// time that does not exist on a spring-forward day never fires, and a repeated local time may fire
// twice. So for every spring-forward day in the coming years this adds one pinned calendar at the
// first local time after the gap (02:30 → 03:30), and a repeated hour is made harmless by the run's
// period: both firings cover the same period, and report_runs keeps one run per period.
import { createHash } from 'node:crypto';
import type { CalendarSpec, DayOfWeek, Month, ScheduleSpec } from '@temporalio/client';
import { DateTime } from 'luxon';
import { checkTimeZone, parseFrequency, ReportScheduleError, type Frequency } from './schedule-frequency';

/** The fields of a synced report schedule (warehouse row or API record) that shape its Temporal Schedule. */
export interface ReportScheduleFields {
  id: number;
  frequency: unknown;
  timezone: unknown;
  status: unknown;
  start_at?: Date | string | null;
  end_at?: Date | string | null;
}

/** What the mirror makes of one report schedule. */
export interface ReportScheduleSpec {
  spec: ScheduleSpec;
  paused: boolean;
  frequency: Frequency;
  timezone: string;
}

// ISO weekday (1 = Monday … 7 = Sunday) → Temporal's names.
const DAY_NAMES: Record<number, DayOfWeek> = {
  1: 'MONDAY',
  2: 'TUESDAY',
  3: 'WEDNESDAY',
  4: 'THURSDAY',
  5: 'FRIDAY',
  6: 'SATURDAY',
  7: 'SUNDAY',
};
const MONTH_NAMES: readonly Month[] = [
  'JANUARY',
  'FEBRUARY',
  'MARCH',
  'APRIL',
  'MAY',
  'JUNE',
  'JULY',
  'AUGUST',
  'SEPTEMBER',
  'OCTOBER',
  'NOVEMBER',
  'DECEMBER',
];

/** Years ahead for which spring-forward days get their pinned calendar (the mirror refreshes yearly). */
export const DST_HORIZON_YEARS = 2;

/** Status codes: 1 (or "active") runs, 0 (or "inactive") pauses; anything else is not understood. */
export function isActiveStatus(status: unknown): boolean {
  const s =
    typeof status === 'string' || typeof status === 'number' ? String(status).trim().toLowerCase() : '';
  if (s === '1' || s === 'active') return true;
  if (s === '0' || s === 'inactive') return false;
  throw new ReportScheduleError(
    'status',
    `unknown status ${JSON.stringify(status) ?? 'undefined'} (1 active, 0 inactive)`,
  );
}

function toDate(value: Date | string | null | undefined, field: string): Date | undefined {
  if (value === null || value === undefined || value === '') return undefined;
  const d =
    value instanceof Date ? value : new Date(value.includes('T') ? value : `${value.replace(' ', 'T')}Z`);
  if (Number.isNaN(d.getTime())) throw new ReportScheduleError(field, `"${String(value)}" is not a date`);
  return d;
}

/** True when the local date is one the frequency runs on. */
function runsOn(f: Frequency, day: DateTime): boolean {
  if (f.type === 'weekly') return f.daysOfWeek.includes(day.weekday);
  if (f.type === 'monthly') return f.daysOfMonth.includes(day.day);
  return true;
}

/**
 * Pinned calendars for local run times that a spring-forward gap swallows, from `fromYear` through
 * DST_HORIZON_YEARS later: each fires at the first valid local time after the gap on that date.
 */
export function springForwardCalendars(f: Frequency, timezone: string, fromYear: number): CalendarSpec[] {
  const out: CalendarSpec[] = [];
  let day = DateTime.fromObject({ year: fromYear, month: 1, day: 1 }, { zone: timezone });
  const end = day.plus({ years: DST_HORIZON_YEARS + 1 });
  for (; day < end; day = day.plus({ days: 1 })) {
    const next = day.plus({ days: 1 });
    // A spring-forward day is shorter than 24 hours; only those can lack a local time.
    if (next.diff(day, 'hours').hours >= 24 || !runsOn(f, day)) continue;
    for (const t of f.timesOfDay) {
      const at = day.set({ hour: t.hour, minute: t.minute });
      if (at.hour === t.hour && at.minute === t.minute) continue;
      out.push({
        year: at.year,
        month: MONTH_NAMES[at.month - 1]!,
        dayOfMonth: at.day,
        hour: at.hour,
        minute: at.minute,
        comment: `${t.hour}:${String(t.minute).padStart(2, '0')} does not exist on ${at.toISODate()}`,
      });
    }
  }
  return out;
}

/**
 * Builds the Temporal ScheduleSpec of a report schedule; throws a ReportScheduleError (field and
 * reason) for a frequency, time zone, status or bound callsync cannot understand. `now` chooses the
 * years whose spring-forward days get pinned calendars.
 */
export function buildReportScheduleSpec(s: ReportScheduleFields, now: Date): ReportScheduleSpec {
  const frequency = parseFrequency(s.frequency);
  const timezone = checkTimeZone(s.timezone);
  const paused = !isActiveStatus(s.status);
  const startAt = toDate(s.start_at, 'start_at');
  const endAt = toDate(s.end_at, 'end_at');
  if (startAt && endAt && endAt <= startAt) throw new ReportScheduleError('end_at', 'is not after start_at');

  const days: Pick<CalendarSpec, 'dayOfWeek' | 'dayOfMonth'> =
    frequency.type === 'weekly'
      ? { dayOfWeek: frequency.daysOfWeek.map((d) => DAY_NAMES[d]!) }
      : frequency.type === 'monthly'
        ? { dayOfMonth: frequency.daysOfMonth }
        : {};
  const calendars: CalendarSpec[] = frequency.timesOfDay.map((t) => ({
    hour: t.hour,
    minute: t.minute,
    ...days,
  }));
  const fromYear = Math.max(now.getUTCFullYear(), startAt?.getUTCFullYear() ?? 0);
  calendars.push(...springForwardCalendars(frequency, timezone, fromYear));
  return {
    spec: {
      calendars,
      timezone,
      ...(startAt ? { startAt } : {}),
      ...(endAt ? { endAt } : {}),
    },
    paused,
    frequency,
    timezone,
  };
}

/** A short stable hash of what a schedule should be (spec, paused, action), kept in the action's memo. */
export function specHash(value: unknown): string {
  return createHash('sha256')
    .update(JSON.stringify(value, (_k, v: unknown) => (v instanceof Date ? v.toISOString() : v)))
    .digest('hex')
    .slice(0, 16);
}
