// The seam between report runs and the report builder (issue 9 part B, `reports/build-report.ts`):
// the run activity calls `buildReportFile` with this signature. Until part B's builder is merged, an
// interim builder writes the period's CDRs as CSV for every report id of the default catalogue, so
// the run bookkeeping can be exercised end to end; it is replaced by a re-export when part B lands.
import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';
import { Readable } from 'node:stream';
import type { Kysely } from 'kysely';
import { stringify } from 'csv-stringify';
import { periodCdrs, type Database } from '../connectors/postgres';

export type ReportFormat = 'csv' | 'xlsx' | 'pdf';

/** What to build: part B's `buildReportFile` input. */
export interface BuildReportRequest {
  account: string;
  reportId: number;
  period: { from: Date; to: Date; timezone: string; label: string };
  format: ReportFormat;
  culture: string;
}

/** What was built. */
export interface BuiltReport {
  rows: number;
  bytes: number;
  sha256: string;
}

/** A report id the catalogue does not know. */
export class UnknownReportError extends Error {
  override readonly name = 'UnknownReportError';
}

/** A format or culture code the code maps do not list. */
export class UnknownCodeError extends Error {
  override readonly name = 'UnknownCodeError';
}

const INTERIM_REPORT_IDS = [1, 2, 3, 4, 5, 6, 7];
const INTERIM_FORMATS: Record<string, ReportFormat> = { '0': 'pdf', '1': 'csv', '2': 'xlsx' };

/** The file format of a schedule's format code. */
export function formatFromCode(code: unknown): ReportFormat {
  const key = typeof code === 'number' || typeof code === 'string' ? String(code).trim() : '';
  const format = Object.hasOwn(INTERIM_FORMATS, key) ? INTERIM_FORMATS[key] : undefined;
  if (!format) {
    throw new UnknownCodeError(
      `format code "${key}" is not known; known codes: ${Object.keys(INTERIM_FORMATS).join(', ')}`,
    );
  }
  return format;
}

/** Builds the report file at `outPath`. */
export async function buildReportFile(
  db: Kysely<Database>,
  req: BuildReportRequest,
  outPath: string,
): Promise<BuiltReport> {
  if (!INTERIM_REPORT_IDS.includes(req.reportId)) {
    throw new UnknownReportError(
      `report_id ${req.reportId} is not in the report catalogue; known ids: ${INTERIM_REPORT_IDS.join(', ')}`,
    );
  }
  const rows = await periodCdrs(db, req.account, req.period.from, req.period.to);
  const hash = createHash('sha256');
  const csv = stringify({ header: true, columns: ['id', 'calldate', 'src', 'dst', 'billsec', 'charge'] });
  csv.on('data', (chunk: Buffer) => hash.update(chunk));
  await pipeline(
    Readable.from(rows.map((r) => ({ ...r, calldate: r.calldate?.toISOString() ?? '' }))),
    csv,
    createWriteStream(outPath),
  );
  return { rows: rows.length, bytes: (await stat(outPath)).size, sha256: hash.digest('hex') };
}
