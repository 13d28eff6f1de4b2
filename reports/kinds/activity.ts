// Activity by country (of the other party's number) and by company number (DDI).
import { parsePhoneNumberFromString } from 'libphonenumber-js';
import {
  streamActivityByDdi,
  streamActivityByNumber,
  type ActivityRecord,
} from '../../connectors/postgres/repositories/reports';
import { col, type ReportColumn, type ReportRow } from '../columns';
import { translate, type Culture } from '../culture';
import { mapRows, type ReportDefinition } from '../definition';

/** ISO 3166 country of a number (E.164, or digits with their country code), or null. */
export function countryOfNumber(number: string | null): string | null {
  if (!number) return null;
  const digits = number.trim();
  const e164 = digits.startsWith('+') ? digits : /^00\d/.test(digits) ? `+${digits.slice(2)}` : `+${digits}`;
  return parsePhoneNumberFromString(e164)?.country ?? null;
}

type Figures = Omit<ActivityRecord, 'key'>;

/** Adds one number's figures to its country's sums; `null` collects numbers without a country. */
export function addByCountry(byCountry: Map<string | null, Figures>, r: ActivityRecord): void {
  const country = countryOfNumber(r.key);
  const sum = byCountry.get(country) ?? { calls_in: 0, calls_out: 0, answered: 0, talk_time: 0, cost: 0 };
  sum.calls_in += r.calls_in;
  sum.calls_out += r.calls_out;
  sum.answered += r.answered;
  sum.talk_time += r.talk_time;
  // Money in ten-thousandths (numeric(12,4)), so sums of many calls do not drift.
  sum.cost = Math.round(sum.cost * 10_000 + r.cost * 10_000) / 10_000;
  byCountry.set(country, sum);
}

/** Sums per-number figures by country. */
export function foldByCountry(records: Iterable<ActivityRecord>): Map<string | null, Figures> {
  const byCountry = new Map<string | null, Figures>();
  for (const r of records) addByCountry(byCountry, r);
  return byCountry;
}

/** Country rows, by localized country name; the unknown group last. */
export function countryRows(byCountry: Map<string | null, Figures>, culture: Culture): ReportRow[] {
  const names = new Intl.DisplayNames([culture.tag], { type: 'region' });
  const known = [...byCountry.entries()]
    .filter((e): e is [string, Figures] => e[0] !== null)
    .map(([code, f]) => ({ name: names.of(code) ?? code, f }))
    .sort((a, b) => a.name.localeCompare(b.name, culture.tag));
  const unknown = byCountry.get(null);
  const all = unknown ? [...known, { name: translate(culture, 'unknown'), f: unknown }] : known;
  return all.map(({ name, f }) => [name, f.calls_in, f.calls_out, f.answered, f.talk_time, f.cost]);
}

const FIGURE_COLUMNS: readonly ReportColumn[] = [
  col('calls_in', 'integer'),
  col('calls_out', 'integer'),
  col('answered', 'integer', 10),
  col('talk_time', 'duration'),
  col('cost', 'money', 12),
];

export const activityByCountryReport: ReportDefinition = {
  kind: 'activity_by_country',
  title: 'title_activity_by_country',
  columns: [col('country', 'text', 22), ...FIGURE_COLUMNS],
  // Countries are a few hundred at most: the per-number stream is folded, then the groups emitted.
  async *rows(db, q, _entry, culture) {
    const byCountry = new Map<string | null, Figures>();
    for await (const r of streamActivityByNumber(db, q)) addByCountry(byCountry, r);
    yield* countryRows(byCountry, culture);
  },
  chart: 'all',
};

/** A DDI's row; calls whose DDI the platform did not record are grouped as unknown. */
export function ddiRow(r: ActivityRecord, culture: Culture): ReportRow {
  return [r.key ?? translate(culture, 'unknown'), r.calls_in, r.calls_out, r.answered, r.talk_time, r.cost];
}

export const activityByDdiReport: ReportDefinition = {
  kind: 'activity_by_ddi',
  title: 'title_activity_by_ddi',
  columns: [col('ddi', 'text', 18), ...FIGURE_COLUMNS],
  rows: (db, q, _entry, culture) => mapRows(streamActivityByDdi(db, q), (r) => ddiRow(r, culture)),
  chart: 'all',
};
