// What each report kind provides: its columns, its rows (streamed from its repository query and
// mapped by a pure function), and the calls its chart counts when it is a report over time.
import type { CompiledQuery, Kysely } from 'kysely';
import type { CallFilter, CsvTextFormat, ReportQuery } from '../connectors/postgres/repositories/reports';
import type { Database } from '../connectors/postgres/tables';
import type { ReportEntry, ReportKind } from './catalogue';
import type { ReportColumn, ReportRow } from './columns';
import type { Culture } from './culture';
import type { DictionaryKey } from './culture-dictionary';

/** One report kind. */
export interface ReportDefinition {
  kind: ReportKind;
  title: DictionaryKey;
  columns: readonly ReportColumn[];
  /** The rows, streamed; never all in memory. */
  rows(db: Kysely<Database>, q: ReportQuery, entry: ReportEntry, culture: Culture): AsyncIterable<ReportRow>;
  /**
   * The rows with every cell as CSV text in a culture, for COPY straight into the file; kinds
   * without it are written by the JS CSV writer.
   */
  csvQuery?(db: Kysely<Database>, q: ReportQuery, f: CsvTextFormat): { compile(): CompiledQuery };
  /**
   * The rows as raw typed values in column order (datetime as epoch milliseconds), for reading
   * through COPY text instead of a cursor; kinds without it stream through rows().
   */
  copyRowsQuery?(db: Kysely<Database>, q: ReportQuery): { compile(): CompiledQuery };
  /** Reports over time get a chart of these calls per day (per hour for a one-day period) in PDF. */
  chart?: CallFilter;
  /** A line under the title explaining a figure (e.g. the service-level threshold). */
  note?(entry: ReportEntry, culture: Culture): string;
}

/** Maps each streamed record through a pure mapper. */
export async function* mapRows<R>(
  records: AsyncIterable<R>,
  map: (r: R) => ReportRow,
): AsyncIterable<ReportRow> {
  for await (const r of records) yield map(r);
}

/** part / whole, or null when there is nothing to divide. */
export function ratio(part: number, whole: number): number | null {
  return whole > 0 ? part / whole : null;
}
