// buildReportFile: one report of one period, built from the warehouse into a CSV, XLSX or PDF file.
// The file is written under a temporary name and renamed when complete, so a retried run replaces
// it whole and a reader never sees half a file.
import { createHash, randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { Kysely } from 'kysely';
import { escapeLiteral, type Pool } from 'pg';
import { billingQuery, callsOverTime } from '../connectors/postgres/repositories/reports';
import type { Database } from '../connectors/postgres/tables';
import type { ReportCatalogue } from './catalogue';
import { translate } from './culture';
import type { Chart, ReportDocument } from './formats/document';
import { writeCsv } from './formats/csv';
import { copyCsv, toCharDateTimePattern } from './formats/csv-copy';
import { copyByteBlocks, copyRows } from './copy-rows';
import { writePdf } from './formats/pdf';
import { writeXlsx } from './formats/xlsx';
import { describeReport, reportQuery, type ReportDescription, type ReportRequest } from './report-rows';
import { localBuckets } from './zone';

export { UnknownReportError } from './catalogue';

/** What was built. */
export interface BuiltReport {
  rows: number;
  bytes: number;
  /** Hex SHA-256 of the file. */
  sha256: string;
}

/** Periods up to this long get an hourly chart; longer ones a daily chart. */
const HOURLY_CHART_UP_TO_MS = 25 * 3_600_000;

/** The PDF chart of a report over time: calls per local hour or day, empty buckets shown. */
async function buildChart(
  db: Kysely<Database>,
  request: ReportRequest,
  d: ReportDescription,
): Promise<Chart | undefined> {
  const filter = d.definition.chart;
  if (!filter) return undefined;
  const { from, to, timezone } = request.period;
  const unit = to.getTime() - from.getTime() <= HOURLY_CHART_UP_TO_MS ? 'hour' : 'day';
  const counted = new Map(
    (await callsOverTime(db, reportQuery(request), unit, filter)).map((b) => [b.bucket, b.calls]),
  );
  const dayLabel = new Intl.DateTimeFormat(d.culture.tag, {
    day: '2-digit',
    month: '2-digit',
    timeZone: 'UTC',
  });
  return {
    title: translate(d.culture, unit === 'hour' ? 'calls_per_hour' : 'calls_per_day'),
    bars: localBuckets(from, to, timezone, unit).map((bucket) => ({
      label: unit === 'hour' ? bucket.slice(11) : dayLabel.format(new Date(`${bucket}T00:00:00Z`)),
      value: counted.get(bucket) ?? 0,
    })),
  };
}

async function fileDigest(path: string): Promise<{ bytes: number; sha256: string }> {
  const hash = createHash('sha256');
  await pipeline(createReadStream(path), hash);
  return { bytes: (await stat(path)).size, sha256: hash.digest('hex') };
}

/** What buildReportFile may use besides kysely. */
export interface BuildOptions {
  /** The pool under `db`: with it, CSV of flat report kinds is written by PostgreSQL's COPY. */
  pool?: Pool;
}

/**
 * The COPY statements a request's file is built from, when its kind has them: `csv`, the query
 * whose cells are already text in the culture (COPY … (FORMAT csv) writes the file), with the CSV
 * delimiter; `rows`, the query of raw typed values read as COPY text (XLSX). The benchmark runs the
 * same statements as its baseline.
 */
export function copyStatements(
  db: Kysely<Database>,
  request: ReportRequest,
  catalogue: ReportCatalogue,
): { csv?: { sql: string; delimiter: string }; rows?: string } {
  return copyStatementsOf(db, request, describeReport(request, catalogue));
}

function copyStatementsOf(
  db: Kysely<Database>,
  request: ReportRequest,
  d: ReportDescription,
): { csv?: { sql: string; delimiter: string }; rows?: string } {
  const inline = (q: { compile(): { sql: string; parameters: readonly unknown[] } }) => {
    const compiled = q.compile();
    return inlineParameters(compiled.sql, compiled.parameters);
  };
  const dateTimePattern = toCharDateTimePattern(d.culture);
  const csvQuery =
    d.definition.csvQuery && dateTimePattern !== undefined
      ? d.definition.csvQuery(db, reportQuery(request), {
          dateTimePattern,
          decimalSeparator: d.culture.decimalSeparator,
          timezone: request.period.timezone,
        })
      : undefined;
  const rowsQuery = d.definition.copyRowsQuery?.(db, reportQuery(request));
  return {
    ...(csvQuery ? { csv: { sql: inline(csvQuery), delimiter: d.culture.csvDelimiter } } : {}),
    ...(rowsQuery ? { rows: inline(rowsQuery) } : {}),
  };
}

/**
 * Builds the report a request names into `outPath`. An unknown report id throws UnknownReportError
 * (its message names the id and the known ids); an unsupported culture, UnknownCultureError.
 */
export async function buildReportFile(
  db: Kysely<Database>,
  request: ReportRequest,
  catalogue: ReportCatalogue,
  outPath: string,
  options: BuildOptions = {},
): Promise<BuiltReport> {
  const d = describeReport(request, catalogue);
  const copy = options.pool ? copyStatementsOf(db, request, d) : {};
  const { culture, entry } = d;
  const note = d.definition.note?.(entry, culture);
  const doc: ReportDocument = {
    title: d.title,
    subtitle: [
      `${translate(culture, 'period')}: ${request.period.label}`,
      `${translate(culture, 'time_zone')}: ${request.period.timezone}`,
      ...(note ? [note] : []),
    ],
    columns: d.columns,
    culture,
    timeZone: request.period.timezone,
    rows: d.definition.rows(db, reportQuery(request), entry, culture),
  };
  // XLSX rows through COPY text when the kind has the query: no driver row objects.
  if (request.format === 'xlsx' && options.pool && copy.rows !== undefined) {
    const { pool } = options;
    const selectSql = copy.rows;
    doc.rows = copyRows(
      pool,
      selectSql,
      d.columns.map((c) => c.type),
    );
    doc.copyBlocks = copyByteBlocks(pool, selectSql);
  }
  await mkdir(dirname(outPath), { recursive: true });
  const partial = `${outPath}.${randomBytes(4).toString('hex')}.partial`;
  try {
    if (request.format === 'csv' && copy.csv !== undefined && options.pool) {
      const copied = await copyCsv(
        options.pool,
        copy.csv.sql,
        d.columns.map((c) => c.header),
        culture,
        partial,
      );
      await rename(partial, outPath);
      return copied;
    }
    let rows: number;
    if (request.format === 'csv') rows = await writeCsv(doc, partial);
    else if (request.format === 'xlsx') rows = await writeXlsx(doc, partial);
    else {
      const chart = await buildChart(db, request, d);
      rows = await writePdf(doc, partial, {
        ...(chart ? { chart } : {}),
        maxRows: entry.pdfMaxRows,
        capNote: (shown, total) => translate(culture, 'rows_capped', { shown, total }),
        pageLabel: (n) => translate(culture, 'page', { n }),
      });
    }
    await rename(partial, outPath);
    return { rows, ...(await fileDigest(outPath)) };
  } catch (err) {
    await rm(partial, { force: true });
    throw err;
  }
}

/** SQL text with `$n` parameters written as literals, for statements that take none (COPY). */
export function inlineParameters(sqlText: string, parameters: readonly unknown[]): string {
  return sqlText.replace(/\$(\d+)\b/g, (m, n: string) => {
    const value = parameters[Number(n) - 1];
    if (value instanceof Date) return `${escapeLiteral(value.toISOString())}::timestamptz`;
    if (typeof value === 'number' && Number.isFinite(value)) return String(value);
    if (typeof value === 'string') return escapeLiteral(value);
    throw new Error(`parameter ${m} of type ${typeof value} cannot be inlined`);
  });
}

/**
 * The billing report's SQL and parameters (the benchmark's baseline runs the same query through
 * COPY), and `copySql`: the same query with its parameters inlined, as COPY needs.
 */
export function billingReportQuery(
  db: Kysely<Database>,
  request: Pick<ReportRequest, 'account' | 'period'>,
): { sql: string; parameters: readonly unknown[]; copySql: string } {
  const compiled = billingQuery(db, reportQuery(request)).compile();
  return {
    sql: compiled.sql,
    parameters: compiled.parameters,
    copySql: inlineParameters(compiled.sql, compiled.parameters),
  };
}
