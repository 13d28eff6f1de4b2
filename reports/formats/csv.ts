// CSV through csv-stringify, streamed to the file: the culture's delimiter (`;` where the decimal
// separator is a comma), a UTF-8 byte-order mark so spreadsheets read accents right, numbers in
// the culture's decimal notation without grouping, instants in the schedule's zone.
import { stringify } from 'csv-stringify';
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { pipeline } from 'node:stream/promises';
import { cellFormatter } from '../culture';
import type { ReportDocument } from './document';

/** Writes the document as CSV; returns its row count (header not counted). */
export async function writeCsv(doc: ReportDocument, outPath: string): Promise<number> {
  const format = cellFormatter(doc.culture, doc.timeZone, { grouping: false });
  const types = doc.columns.map((c) => c.type);
  const stringifier = stringify({
    delimiter: doc.culture.csvDelimiter,
    bom: true,
    record_delimiter: 'windows',
    // csv-stringify leaves a lone LF inside a cell unquoted when records end in CRLF, which splits
    // the record for every reader; quoting it keeps the cell whole (and matches COPY's CSV).
    quoted_match: /[\r\n]/,
  });
  const written = pipeline(stringifier, createWriteStream(outPath));
  // Records are written straight into the stringifier, waiting only when it asks (backpressure):
  // no per-row stream or generator between the cursor and the file.
  const write = async (record: string[]) => {
    if (!stringifier.write(record)) await once(stringifier, 'drain');
  };
  let count = 0;
  try {
    await write(doc.columns.map((c) => c.header));
    for await (const row of doc.rows) {
      const record = new Array<string>(row.length);
      for (let i = 0; i < row.length; i++) record[i] = format(row[i] ?? null, types[i] ?? 'text');
      await write(record);
      count++;
    }
    stringifier.end();
  } catch (err) {
    stringifier.destroy(err as Error);
    await written.catch(() => undefined);
    throw err;
  }
  await written;
  return count;
}
