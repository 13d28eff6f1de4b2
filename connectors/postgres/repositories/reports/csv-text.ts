// Cells formatted as text by PostgreSQL, for CSV files written straight from COPY: each expression
// yields exactly what the JS formatter (reports/culture.ts cellFormatter, no grouping) writes, and
// NULL for an empty cell (COPY's CSV writes NULL unquoted and empty text as "", csv-stringify as
// nothing).
import { sql, type Expression, type RawBuilder } from 'kysely';

/** How a culture writes cells in CSV, in the terms PostgreSQL's to_char understands. */
export interface CsvTextFormat {
  /** to_char pattern of a local date and time (`DD.MM.YYYY", "HH24:MI:SS`). */
  dateTimePattern: string;
  /** `,` or `.`. */
  decimalSeparator: string;
  /** The schedule's IANA time zone: instants are shown in it. */
  timezone: string;
}

/** Text, with empty strings as NULL (an empty cell either way). */
export function plainText(e: Expression<string | null>): RawBuilder<string | null> {
  return sql<string | null>`nullif(${e}, '')`;
}

/** An integer as digits (JS String(n)). */
export function integerText(e: Expression<number | null>): RawBuilder<string | null> {
  return sql<string | null>`(${e})::text`;
}

/** An instant as local date and time in the format's zone and pattern (seconds truncated, as JS). */
export function dateTimeText(e: Expression<Date | null>, f: CsvTextFormat): RawBuilder<string | null> {
  return sql<string | null>`to_char((${e}) at time zone ${f.timezone}, ${f.dateTimePattern})`;
}

/** Seconds as `h:mm:ss` (formatDuration): minutes and seconds two digits, hours as many as needed. */
export function durationText(e: Expression<number | null>): RawBuilder<string | null> {
  const s = sql`round(${e})::bigint`;
  return sql<string | null>`(case when ${s} < 0 then '-' else '' end
    || (abs(${s}) / 3600)::text
    || ':' || lpad(((abs(${s}) % 3600) / 60)::text, 2, '0')
    || ':' || lpad((abs(${s}) % 60)::text, 2, '0'))`;
}

/**
 * Money without grouping as plainMoney writes it: four decimals, trailing zeros dropped down to
 * two, the culture's decimal separator.
 */
export function moneyText(e: Expression<number | null>, f: CsvTextFormat): RawBuilder<string | null> {
  // round(…, 4) always has four decimals, so only the last two can be trailing zeros to drop.
  const trimmed = sql`regexp_replace(round((${e})::numeric, 4)::text, '0{1,2}$', '')`;
  return f.decimalSeparator === '.'
    ? sql<string | null>`${trimmed}`
    : sql<string | null>`replace(${trimmed}, '.', ${f.decimalSeparator})`;
}
