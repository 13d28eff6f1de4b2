// Platform date strings → PostgreSQL timestamptz input text. The schemas accept the spec's
// `YYYY-MM-DD H:I:S` (UTC) and date-only / ISO 8601 variants by shape only; PostgreSQL rejects a
// 13th month or a 30th of February, and one such value would fail a whole COPY page, so the
// ranges are checked here and a bad value fails only its own record.

const SHAPE = /^(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{1,2}):(\d{2})(?::(\d{2})(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/;
const DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function daysIn(year: number, month: number): number {
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  return month === 2 && leap ? 29 : (DAYS[month - 1] ?? 0);
}

function digit(s: string, i: number): number {
  const c = s.charCodeAt(i) - 48;
  return c >= 0 && c <= 9 ? c : -1000;
}

function two(s: string, i: number): number {
  return digit(s, i) * 10 + digit(s, i + 1);
}

/** Thrown for a date string that has the right shape but names no real time. */
export class InvalidTimestampError extends Error {
  override readonly name = 'InvalidTimestampError';
}

/**
 * Normalises a platform date string to `YYYY-MM-DD HH:MM:SS[.fff]±ZZ` (UTC when no zone is given).
 * Throws InvalidTimestampError when the string is not a real date and time.
 */
export function toTimestampText(value: string): string {
  // Fast path for the spec's own form, which is almost every value.
  if (value.length === 19 && value.charCodeAt(10) === 32) {
    const year = digit(value, 0) * 1000 + digit(value, 1) * 100 + two(value, 2);
    const month = two(value, 5);
    const day = two(value, 8);
    const hour = two(value, 11);
    const minute = two(value, 14);
    const second = two(value, 17);
    if (
      value.charCodeAt(4) === 45 &&
      value.charCodeAt(7) === 45 &&
      value.charCodeAt(13) === 58 &&
      value.charCodeAt(16) === 58 &&
      check(year, month, day, hour, minute, second)
    ) {
      return `${value}+00`;
    }
  }
  const m = SHAPE.exec(value.trim());
  if (!m) throw new InvalidTimestampError('must be a date (YYYY-MM-DD HH:MM:SS)');
  const [, y, mo, d, h = '0', mi = '00', s = '00', frac = '', zone] = m;
  if (!check(Number(y), Number(mo), Number(d), Number(h), Number(mi), Number(s))) {
    throw new InvalidTimestampError('is not a real date and time');
  }
  const offset = zone === undefined || zone === 'Z' ? '+00' : zone;
  return `${y}-${mo}-${d} ${h.padStart(2, '0')}:${mi}:${s}${frac}${offset}`;
}

function check(year: number, month: number, day: number, hour: number, minute: number, second: number) {
  // Second 60 is a leap second, which PostgreSQL accepts.
  return (
    year >= 1 &&
    month >= 1 &&
    month <= 12 &&
    day >= 1 &&
    day <= daysIn(year, month) &&
    hour >= 0 &&
    hour <= 23 &&
    minute >= 0 &&
    minute <= 59 &&
    second >= 0 &&
    second <= 60
  );
}
