// A report's rows as typed cells, without a file: for writers, and for destinations that take rows
// (Google Sheets batches them).
import type { Kysely } from 'kysely';
import type { ReportQuery } from '../connectors/postgres/repositories/reports';
import type { Database } from '../connectors/postgres/tables';
import { resolveReport, type ReportCatalogue, type ReportEntry } from './catalogue';
import type { LocalizedColumn, ReportRow } from './columns';
import { cultureFor, translate, type Culture } from './culture';
import type { ReportDefinition } from './definition';
import type { ReportFormat } from './config';
import { REPORT_DEFINITIONS } from './kinds';

/** The period a run covers: [from, to) in the schedule's zone, and how it is named (`2026-10`). */
export interface ReportPeriod {
  from: Date;
  to: Date;
  timezone: string;
  label: string;
}

/** What part A's reportExport activity asks for. */
export interface ReportRequest {
  account: string;
  reportId: number;
  period: ReportPeriod;
  format: ReportFormat;
  /** BCP 47 tag (see cultureFromCode). */
  culture: string;
}

/** The request without a file format, for row consumers. */
export type RowsRequest = Omit<ReportRequest, 'format'>;

/** A report's kind, localized title and columns. */
export interface ReportDescription {
  kind: ReportEntry['kind'];
  title: string;
  columns: LocalizedColumn[];
  culture: Culture;
  entry: ReportEntry;
  definition: ReportDefinition;
}

/** Resolves and localizes a request's report (UnknownReportError, UnknownCultureError). */
export function describeReport(request: RowsRequest, catalogue: ReportCatalogue): ReportDescription {
  const entry = resolveReport(catalogue, request.reportId);
  const culture = cultureFor(request.culture);
  const definition = REPORT_DEFINITIONS[entry.kind];
  return {
    kind: entry.kind,
    title: translate(culture, definition.title),
    columns: definition.columns.map((c) => ({
      ...c,
      header: culture.dictionary[c.key as keyof Culture['dictionary']] ?? c.key,
    })),
    culture,
    entry,
    definition,
  };
}

/** The query window of a request. */
export function reportQuery(request: Pick<RowsRequest, 'account' | 'period'>): ReportQuery {
  return {
    account: request.account,
    from: request.period.from,
    to: request.period.to,
    timezone: request.period.timezone,
  };
}

/** The report's rows, typed cells in the order of describeReport's columns, streamed from the warehouse. */
export function reportRows(
  db: Kysely<Database>,
  request: RowsRequest,
  catalogue: ReportCatalogue,
): AsyncIterable<ReportRow> {
  const d = describeReport(request, catalogue);
  return d.definition.rows(db, reportQuery(request), d.entry, d.culture);
}
