// CSV through csv-stringify, streamed to the file: the culture's delimiter (`;` where the decimal
// separator is a comma), a UTF-8 byte-order mark so spreadsheets read accents right, numbers in
// the culture's decimal notation without grouping, instants in the schedule's zone.
import { stringify } from 'csv-stringify';
import { createWriteStream } from 'node:fs';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { cellFormatter } from '../culture';
import type { ReportDocument } from './document';

/** Rows handed to csv-stringify per write: fewer, larger writes than one per row. */
const BATCH = 500;

/** Writes the document as CSV; returns its row count (header not counted). */
export async function writeCsv(doc: ReportDocument, outPath: string): Promise<number> {
  const format = cellFormatter(doc.culture, doc.timeZone, { grouping: false });
  const types = doc.columns.map((c) => c.type);
  let count = 0;
  async function* records(): AsyncGenerator<string[]> {
    yield doc.columns.map((c) => c.header);
    for await (const row of doc.rows) {
      count++;
      yield row.map((cell, i) => format(cell, types[i] ?? 'text'));
    }
  }
  await pipeline(
    Readable.from(records(), { highWaterMark: BATCH }),
    stringify({ delimiter: doc.culture.csvDelimiter, bom: true, record_delimiter: 'windows' }),
    createWriteStream(outPath),
  );
  return count;
}
