// A report's culture: the locale of its numbers, dates and headers, and the CSV delimiter that goes
// with its decimal separator. Formatting goes through Intl, built once per report, not per cell.
import type { Cell, ColumnType } from './columns';
import { DICTIONARIES, type Dictionary, type DictionaryKey } from './culture-dictionary';
import { wallClockConverter } from './zone';

/** A culture tag callsync cannot build a report in (its language has no dictionary, or Intl rejects it). */
export class UnknownCultureError extends Error {
  override readonly name = 'UnknownCultureError';
}

/** Everything a writer needs to show a report in one locale. */
export interface Culture {
  /** BCP 47 tag (`de-DE`). */
  tag: string;
  dictionary: Dictionary;
  /** `,` or `.`, as Intl writes 1.5 in this locale. */
  decimalSeparator: string;
  /** `;` where the decimal separator is a comma (so spreadsheets split columns right), else `,`. */
  csvDelimiter: ',' | ';';
  /** Excel number format of a date and of a date with time, in this locale's field order. */
  xlsxDateFormat: string;
  xlsxDateTimeFormat: string;
}

/** Builds the culture of a BCP 47 tag whose language has a dictionary (en, de, fr, es). */
export function cultureFor(tag: string): Culture {
  let canonical: string;
  try {
    canonical = Intl.getCanonicalLocales(tag)[0] ?? '';
  } catch {
    throw new UnknownCultureError(`culture "${tag}" is not a valid BCP 47 language tag`);
  }
  const language = canonical.split('-')[0] ?? '';
  const dictionary = DICTIONARIES[language];
  if (!dictionary) {
    throw new UnknownCultureError(
      `culture "${tag}" has no dictionary: supported languages are ${Object.keys(DICTIONARIES).join(', ')}`,
    );
  }
  const decimalSeparator =
    new Intl.NumberFormat(canonical).formatToParts(1.5).find((p) => p.type === 'decimal')?.value ?? '.';
  const xlsxDateFormat = excelDatePattern(canonical);
  return {
    tag: canonical,
    dictionary,
    decimalSeparator,
    csvDelimiter: decimalSeparator === ',' ? ';' : ',',
    xlsxDateFormat,
    xlsxDateTimeFormat: `${xlsxDateFormat} hh:mm`,
  };
}

/** The locale's numeric date order as an Excel format (`dd.mm.yyyy`, `mm/dd/yyyy`, …). */
export function excelDatePattern(tag: string): string {
  const parts = new Intl.DateTimeFormat(tag, {
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    timeZone: 'UTC',
  }).formatToParts(new Date(Date.UTC(2026, 10, 23)));
  const codes: Partial<Record<string, string>> = { day: 'dd', month: 'mm', year: 'yyyy' };
  return parts.map((p) => (p.type === 'literal' ? p.value : (codes[p.type] ?? ''))).join('');
}

/** A dictionary word, with `{name}` placeholders filled. */
export function translate(
  culture: Culture,
  key: DictionaryKey,
  vars: Record<string, string | number> = {},
): string {
  return culture.dictionary[key].replace(/\{(\w+)\}/g, (m, name: string) =>
    name in vars ? String(vars[name]) : m,
  );
}

/** `1:02:03` for 3723 seconds; minutes and seconds always two digits. */
export function formatDuration(seconds: number): string {
  const s = Math.round(seconds);
  const sign = s < 0 ? '-' : '';
  const abs = Math.abs(s);
  const h = Math.floor(abs / 3600);
  const m = Math.floor((abs % 3600) / 60);
  const sec = abs % 60;
  return `${sign}${h}:${String(m).padStart(2, '0')}:${String(sec).padStart(2, '0')}`;
}

/** Turns cells into text for one culture and time zone. */
export type CellFormatter = (value: Cell, type: ColumnType) => string;

/**
 * Cell text for CSV (`grouping: false`: no thousands separators, so the file parses back) or for
 * reading (PDF: grouped). Instants are shown in `timeZone`; `date` cells are local dates (YYYY-MM-DD).
 */
export function cellFormatter(
  culture: Culture,
  timeZone: string,
  opts: { grouping: boolean },
): CellFormatter {
  const useGrouping = opts.grouping;
  const integer = new Intl.NumberFormat(culture.tag, { maximumFractionDigits: 0, useGrouping });
  const decimal = new Intl.NumberFormat(culture.tag, { maximumFractionDigits: 2, useGrouping });
  const money = new Intl.NumberFormat(culture.tag, {
    minimumFractionDigits: 2,
    maximumFractionDigits: 4,
    useGrouping,
  });
  const percent = new Intl.NumberFormat(culture.tag, {
    style: 'percent',
    minimumFractionDigits: 1,
    maximumFractionDigits: 1,
    useGrouping,
  });
  const dateTime = new Intl.DateTimeFormat(culture.tag, {
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
    timeZone,
  });
  const date = new Intl.DateTimeFormat(culture.tag, {
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    timeZone: 'UTC',
  });
  const fastDateTime = dateTimeTemplate(dateTime, wallClockConverter(timeZone));
  const yes = translate(culture, 'yes');
  const no = translate(culture, 'no');
  return (value, type) => {
    if (value === null) return '';
    if (typeof value === 'boolean') return value ? yes : no;
    if (value instanceof Date) return type === 'date' ? date.format(value) : fastDateTime(value);
    if (typeof value === 'string') {
      return type === 'date' ? date.format(new Date(`${value}T00:00:00Z`)) : value;
    }
    switch (type) {
      case 'integer':
        return !useGrouping && Number.isSafeInteger(value) ? String(value) : integer.format(value);
      case 'money':
        return useGrouping ? money.format(value) : plainMoney(value, culture.decimalSeparator, money);
      case 'percent':
        return percent.format(value);
      case 'duration':
        return formatDuration(value);
      default:
        return decimal.format(value);
    }
  };
}

type Field = 'year' | 'month' | 'day' | 'hour' | 'minute' | 'second';
const FIELDS = new Set<string>(['year', 'month', 'day', 'hour', 'minute', 'second']);

/**
 * Formats instants as `format` does, without an Intl call per cell: the locale's field order and
 * separators are read once from formatToParts, and each instant's local fields come from the
 * zone's cached offset. (A million-row export spends most of its time formatting dates otherwise.)
 */
export function dateTimeTemplate(
  format: Intl.DateTimeFormat,
  toLocal: (d: Date) => Date,
): (d: Date) => string {
  const parts = format.formatToParts(new Date(Date.UTC(2026, 10, 23, 14, 5, 9)));
  const digitsOnly = parts.every((p) => p.type === 'literal' || /^\d+$/.test(p.value));
  if (!digitsOnly) return (d) => format.format(d);
  const template = parts.map((p) => (FIELDS.has(p.type) ? (p.type as Field) : { literal: p.value }));
  const pad = (n: number, width: number) => String(n).padStart(width, '0');
  return (d) => {
    const local = toLocal(d);
    let out = '';
    for (const t of template) {
      if (typeof t !== 'string') out += t.literal;
      else if (t === 'year') out += pad(local.getUTCFullYear(), 4);
      else if (t === 'month') out += pad(local.getUTCMonth() + 1, 2);
      else if (t === 'day') out += pad(local.getUTCDate(), 2);
      else if (t === 'hour') out += pad(local.getUTCHours(), 2);
      else if (t === 'minute') out += pad(local.getUTCMinutes(), 2);
      else out += pad(local.getUTCSeconds(), 2);
    }
    return out;
  };
}

/**
 * Money without grouping (CSV) as Intl writes it (two to four decimals), without an Intl call:
 * amounts are numeric(12,4), so four decimals are exact and toFixed(4) rounds nothing away.
 */
export function plainMoney(value: number, decimalSeparator: string, fallback: Intl.NumberFormat): string {
  if (!Number.isFinite(value) || Math.abs(value) >= 1e15) return fallback.format(value);
  let s = value.toFixed(4);
  while (s.endsWith('0') && s.length - s.indexOf('.') > 3) s = s.slice(0, -1);
  return decimalSeparator === '.' ? s : s.replace('.', decimalSeparator);
}
