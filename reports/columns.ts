// What a report row is made of: typed cells in column order, and how each column is shown.

/** How a column's values are typed and shown (durations are seconds; ratios are 0..1). */
export type ColumnType =
  'text' | 'integer' | 'decimal' | 'money' | 'percent' | 'duration' | 'datetime' | 'date' | 'boolean';

/** One cell: numbers stay numbers, instants are Dates (shown in the report's time zone). */
export type Cell = string | number | boolean | Date | null;

/** A row of cells in the order of the report's columns. */
export type ReportRow = readonly Cell[];

/** A column: `key` names its translated header in the culture dictionaries. */
export interface ReportColumn {
  key: string;
  type: ColumnType;
  /** Relative width (characters) in XLSX and PDF. */
  width: number;
}

/** A column with its header in the request's culture. */
export interface LocalizedColumn extends ReportColumn {
  header: string;
}

/** Shorthand for column lists. */
export function col(key: string, type: ColumnType, width = 14): ReportColumn {
  return { key, type, width };
}
