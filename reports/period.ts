// The period a report run covers, in the schedule's time zone: the previous day, ISO week (Monday
// start) or month before the run's scheduled time, or a period asked for by hand. Pure: the same
// scheduled time always gives the same period, so a retried run builds the same report.
import { DateTime } from 'luxon';
import type { FrequencyType } from './schedule-frequency';

/** A report period: [from, to) in UTC instants, its label, and the time zone its days begin in. */
export interface ReportPeriod {
  from: Date;
  to: Date;
  timezone: string;
  /** `2026-10-05` (day), `2026-W40` (ISO week), `2026-10` (month) or `2026-10-01..2026-10-15` (from..to, inclusive). */
  label: string;
}

/** A period asked for by hand (CLI `--period` or `--from/--to`). */
export type PeriodRequest = { period: string } | { from: string; to: string };

/** A period request callsync cannot read. */
export class PeriodError extends Error {
  override readonly name = 'PeriodError';
}

function period(from: DateTime, to: DateTime, timezone: string, label: string): ReportPeriod {
  return { from: from.toUTC().toJSDate(), to: to.toUTC().toJSDate(), timezone, label };
}

/** A local day as a period. */
function dayPeriod(day: DateTime, timezone: string): ReportPeriod {
  const from = day.startOf('day');
  return period(from, from.plus({ days: 1 }), timezone, from.toISODate()!);
}

/** An ISO week (Monday start) as a period. */
function weekPeriod(monday: DateTime, timezone: string): ReportPeriod {
  const from = monday.startOf('week');
  return period(from, from.plus({ weeks: 1 }), timezone, from.toFormat("kkkk-'W'WW"));
}

/** A calendar month as a period. */
function monthPeriod(first: DateTime, timezone: string): ReportPeriod {
  const from = first.startOf('month');
  return period(from, from.plus({ months: 1 }), timezone, from.toFormat('yyyy-MM'));
}

/**
 * The period a scheduled run covers: the local day, ISO week or month before the one the run's
 * scheduled time falls in, in `timezone` (a DST day is 23 or 25 hours long).
 */
export function scheduledPeriod(type: FrequencyType, scheduledAt: Date, timezone: string): ReportPeriod {
  const local = DateTime.fromJSDate(scheduledAt, { zone: timezone });
  if (!local.isValid) throw new PeriodError(`timezone: "${timezone}" is not an IANA time zone`);
  if (type === 'daily') return dayPeriod(local.minus({ days: 1 }), timezone);
  if (type === 'weekly') return weekPeriod(local.startOf('week').minus({ weeks: 1 }), timezone);
  return monthPeriod(local.startOf('month').minus({ months: 1 }), timezone);
}

function localDate(value: string, what: string, timezone: string): DateTime {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value))
    throw new PeriodError(`${what}: "${value}" is not a date YYYY-MM-DD`);
  const d = DateTime.fromISO(value, { zone: timezone });
  if (!d.isValid)
    throw new PeriodError(`${what}: "${value}" is not a date (${d.invalidExplanation ?? 'invalid'})`);
  return d;
}

/**
 * A period asked for by hand, in `timezone`: `2026-10` (month), `2026-W40` (ISO week), `2026-10-05`
 * (day), or from/to dates (both days included). Throws a PeriodError naming the option.
 */
export function requestedPeriod(req: PeriodRequest, timezone: string): ReportPeriod {
  if ('period' in req) {
    const p = req.period.trim();
    if (/^\d{4}-\d{2}$/.test(p)) {
      const d = DateTime.fromISO(`${p}-01`, { zone: timezone });
      if (!d.isValid) throw new PeriodError(`--period: "${p}" is not a month YYYY-MM`);
      return monthPeriod(d, timezone);
    }
    if (/^\d{4}-W\d{2}$/.test(p)) {
      const d = DateTime.fromISO(`${p}-1`, { zone: timezone });
      if (!d.isValid) throw new PeriodError(`--period: "${p}" is not an ISO week YYYY-Www`);
      return weekPeriod(d, timezone);
    }
    if (/^\d{4}-\d{2}-\d{2}$/.test(p)) return dayPeriod(localDate(p, '--period', timezone), timezone);
    throw new PeriodError(
      `--period: "${p}" is not a month (2026-10), an ISO week (2026-W40) or a day (2026-10-05)`,
    );
  }
  const from = localDate(req.from.trim(), '--from', timezone);
  const to = localDate(req.to.trim(), '--to', timezone);
  if (to < from) throw new PeriodError(`--to: ${req.to} is before --from ${req.from}`);
  return period(from, to.plus({ days: 1 }), timezone, `${from.toISODate()!}..${to.toISODate()!}`);
}
