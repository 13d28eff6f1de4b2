// A report schedule's `frequency`, as the platform stores it (a JSON string of
// `{type, time_of_day[], day_of_week[], day_of_month[]}`, or that object), parsed and checked.
import { z } from 'zod';

/** A report schedule callsync cannot turn into a Temporal Schedule: which field, and why. */
export class ReportScheduleError extends Error {
  override readonly name = 'ReportScheduleError';
  constructor(
    /** The schedule field at fault, e.g. `frequency.time_of_day[1]` or `timezone`. */
    readonly field: string,
    /** What is wrong with it. */
    readonly reason: string,
  ) {
    super(`${field}: ${reason}`);
  }
}

/** How often a report runs. */
export type FrequencyType = 'daily' | 'weekly' | 'monthly';

/** A local clock time. */
export interface TimeOfDay {
  hour: number;
  minute: number;
}

/** A parsed frequency: every list checked, sorted and without duplicates. */
export interface Frequency {
  type: FrequencyType;
  timesOfDay: TimeOfDay[];
  /** ISO weekdays (1 = Monday … 7 = Sunday); weekly only. */
  daysOfWeek: number[];
  /** Days of the month (1–31); monthly only. */
  daysOfMonth: number[];
}

const TIME = /^([01]?\d|2[0-3]):([0-5]\d)(?::00)?$/;

// The platform sends numbers as strings at times; lists may be missing or null.
const intList = z
  .array(z.union([z.number(), z.string().regex(/^\d+$/).transform(Number)]))
  .nullish()
  .transform((v) => v ?? []);

const rawFrequency = z.looseObject({
  type: z.string(),
  time_of_day: z
    .array(z.string())
    .nullish()
    .transform((v) => v ?? []),
  day_of_week: intList,
  day_of_month: intList,
});

const uniqueSorted = (xs: number[]): number[] => [...new Set(xs)].sort((a, b) => a - b);

function checkRange(field: string, values: number[], min: number, max: number): number[] {
  values.forEach((v, i) => {
    if (!Number.isInteger(v) || v < min || v > max) {
      throw new ReportScheduleError(`${field}[${i}]`, `${v} is not a whole number from ${min} to ${max}`);
    }
  });
  return uniqueSorted(values);
}

/** Parses `HH:MM` (or `HH:MM:00`); throws a ReportScheduleError naming `field`. */
export function parseTimeOfDay(value: string, field: string): TimeOfDay {
  const m = TIME.exec(value.trim());
  if (!m) throw new ReportScheduleError(field, `"${value}" is not a time of day HH:MM (00:00 to 23:59)`);
  return { hour: Number(m[1]), minute: Number(m[2]) };
}

/** Parses a stored frequency (JSON text or object); throws a ReportScheduleError naming the field. */
export function parseFrequency(stored: unknown): Frequency {
  let value = stored;
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value) as unknown;
    } catch {
      throw new ReportScheduleError('frequency', 'is not valid JSON');
    }
  }
  const parsed = rawFrequency.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const path = issue?.path.length ? `.${issue.path.join('.')}` : '';
    throw new ReportScheduleError(`frequency${path}`, issue?.message ?? 'is not a frequency object');
  }
  const f = parsed.data;
  const type = f.type.trim().toLowerCase();
  if (type !== 'daily' && type !== 'weekly' && type !== 'monthly') {
    throw new ReportScheduleError(
      'frequency.type',
      `unknown frequency "${f.type}" (daily, weekly or monthly)`,
    );
  }
  if (f.time_of_day.length === 0) throw new ReportScheduleError('frequency.time_of_day', 'is empty');
  const seen = new Set<string>();
  const timesOfDay = f.time_of_day
    .map((t, i) => parseTimeOfDay(t, `frequency.time_of_day[${i}]`))
    .filter((t) => !seen.has(`${t.hour}:${t.minute}`) && seen.add(`${t.hour}:${t.minute}`))
    .sort((a, b) => a.hour * 60 + a.minute - (b.hour * 60 + b.minute));
  const daysOfWeek = type === 'weekly' ? checkRange('frequency.day_of_week', f.day_of_week, 1, 7) : [];
  const daysOfMonth = type === 'monthly' ? checkRange('frequency.day_of_month', f.day_of_month, 1, 31) : [];
  if (type === 'weekly' && daysOfWeek.length === 0) {
    throw new ReportScheduleError('frequency.day_of_week', 'a weekly schedule needs at least one day');
  }
  if (type === 'monthly' && daysOfMonth.length === 0) {
    throw new ReportScheduleError('frequency.day_of_month', 'a monthly schedule needs at least one day');
  }
  return { type, timesOfDay, daysOfWeek, daysOfMonth };
}

/** Checks an IANA time zone name with Intl; returns its canonical spelling. */
export function checkTimeZone(value: unknown): string {
  if (typeof value !== 'string' || value.trim() === '') {
    throw new ReportScheduleError('timezone', 'is missing');
  }
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone: value.trim() }).resolvedOptions().timeZone;
  } catch {
    throw new ReportScheduleError('timezone', `"${value}" is not an IANA time zone`);
  }
}
