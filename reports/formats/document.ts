// What the format writers are given: the report's localized heading and columns, and its rows as
// a stream. Each writer returns how many rows the report had.
import type { LocalizedColumn, ReportRow } from '../columns';
import type { Culture } from '../culture';

/** One bar of a chart: a label and its value. */
export interface ChartBar {
  label: string;
  value: number;
}

/** A bar chart of a report over time (PDF). */
export interface Chart {
  title: string;
  bars: readonly ChartBar[];
}

export interface ReportDocument {
  /** Localized report title. */
  title: string;
  /** Lines under the title: period, time zone, notes. */
  subtitle: readonly string[];
  columns: readonly LocalizedColumn[];
  culture: Culture;
  /** The schedule's time zone: instants are shown in it. */
  timeZone: string;
  rows: AsyncIterable<ReportRow>;
  /**
   * The same rows as blocks of whole COPY text lines in PostgreSQL's bytes (reports/copy-rows.ts),
   * when they come from a COPY: the XLSX writer renders them without a row object or a string.
   */
  copyBlocks?: AsyncIterable<Buffer>;
}

/** A writer of one format: streams the document to `outPath`, returns the number of rows. */
export type FormatWriter = (doc: ReportDocument, outPath: string) => Promise<number>;
