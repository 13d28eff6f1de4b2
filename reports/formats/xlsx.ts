// XLSX through exceljs's streaming WorkbookWriter: each row is committed as it is written, so the
// sheet never sits in memory. Cells are typed (numbers, dates, booleans), durations are numbers of
// days with an [h]:mm:ss format, the header row is styled and frozen, and columns have widths.
import { EventEmitter, once } from 'node:events';
import type ExcelJS from 'exceljs';
import { lazyPackage } from '../../lib/lazy-package';
import type { Cell, ColumnType } from '../columns';
import type { Culture } from '../culture';
import { wallClockMsConverter } from '../zone';
import { copyBytesRenderer } from './xlsx-copy-bytes';
import { sheetRowRenderer } from './xlsx-rows';
import type { ReportDocument } from './document';

const SECONDS_PER_DAY = 86_400;
/**
 * exceljs's streaming writer alone: the package's main module loads its readers, CSV support and
 * unzipper too (673 modules, 37 MB of resident memory against the writer's 212 and 24 MB).
 */
const workbookWriter = lazyPackage<typeof ExcelJS.stream.xlsx.WorkbookWriter>(
  'exceljs/lib/stream/xlsx/workbook-writer',
);

/** The Excel number format of a column type in a culture (separators follow the reader's locale). */
export function excelNumberFormat(type: ColumnType, culture: Culture): string | undefined {
  switch (type) {
    case 'integer':
      return '#,##0';
    case 'decimal':
      return '#,##0.0#';
    case 'money':
      return '#,##0.00##';
    case 'percent':
      return '0.0%';
    case 'duration':
      return '[h]:mm:ss';
    case 'datetime':
      return culture.xlsxDateTimeFormat;
    case 'date':
      return culture.xlsxDateFormat;
    default:
      return undefined;
  }
}

/** The value exceljs writes for a cell: Excel has no time zones, so instants become local wall-clock. */
export function excelValue(cell: Cell, type: ColumnType, toLocal: (d: Date) => Date): ExcelJS.CellValue {
  if (cell === null) return null;
  if (cell instanceof Date) return type === 'date' ? cell : toLocal(cell);
  if (type === 'date' && typeof cell === 'string') return new Date(`${cell}T00:00:00Z`);
  if (type === 'duration' && typeof cell === 'number') return cell / SECONDS_PER_DAY;
  return cell;
}

/** A worksheet name Excel accepts: at most 31 characters, none of : \ / ? * [ ]. */
export function sheetName(title: string): string {
  return (
    title
      .replace(/[:\\/?*[\]]/g, ' ')
      .replace(/\s+/g, ' ')
      .slice(0, 31)
      .trim() || 'Report'
  );
}

/**
 * Deflate level of the zip: the fastest. Deflating the sheet XML is the largest cost after
 * rendering it (about 4 µs a row at level 1, 20 at zlib's default 6, for a file a quarter
 * smaller); archiver's zip engine defaults to level 1 too, stated here so it stays so.
 */
const ZIP_LEVEL = 1;
/**
 * Output buffer of the deflater: a piece of work on zlib's thread fills at most this, so a larger
 * one means fewer round trips per block of rows (the sheet deflates to about a sixth).
 */
const ZIP_CHUNK_BYTES = 256 * 1024;
/** Rows are handed to the sheet stream in batches of about this many bytes (characters). */
const BATCH_BYTES = 256 * 1024;
/** Unzipped sheet XML waiting for the deflater beyond this, the writer waits (backpressure). */
const MAX_PENDING_BYTES = 1024 * 1024;

/** exceljs's WorksheetWriter as its typings omit it: its stream into the zip entry. */
interface StreamingSheet {
  stream: { uncork(): void; pipes?: unknown[] };
}

/** The writable end exceljs's sheet stream feeds, and how many bytes wait in it. */
interface SheetSink extends EventEmitter {
  write(chunk: Buffer): boolean;
  _writableState: { length: number };
}

/**
 * archiver wraps the sheet's stream (exceljs's own StreamBuf) in a PassThrough (readable-stream
 * 2, hence no writableLength) that it reads as it deflates. The data rows go straight into it:
 * through the StreamBuf they would be copied into 64 KB buffers and deflated 64 KB at a time, each
 * piece a round trip between the deflater's thread and this one (4 s of a million rows' 6 went
 * to waiting on those). The writer waits for it to drain past a bound, or the sheet would pile
 * up in memory as fast as COPY reads it.
 */
function sheetSink(sheet: StreamingSheet): SheetSink {
  const pipes = sheet.stream.pipes;
  const sink = pipes?.[0] as Partial<SheetSink> | undefined;
  if (
    !(sink instanceof EventEmitter) ||
    typeof sink.write !== 'function' ||
    typeof sink._writableState?.length !== 'number'
  )
    throw new Error('exceljs sheet stream is not piped into the zip: cannot write the rows into it');
  // What exceljs has written so far (the sheet's head and the header row) goes first.
  sheet.stream.uncork();
  return sink as SheetSink;
}

/** Writes the document as XLSX; returns its row count (header not counted). */
export async function writeXlsx(doc: ReportDocument, outPath: string): Promise<number> {
  const workbook = new (workbookWriter())({
    filename: outPath,
    useStyles: true,
    useSharedStrings: false,
    zip: { zlib: { level: ZIP_LEVEL, chunkSize: ZIP_CHUNK_BYTES } },
  });
  workbook.creator = 'callsync';
  const sheet = workbook.addWorksheet(sheetName(doc.title), {
    views: [{ state: 'frozen', ySplit: 1, xSplit: 0 }],
  });
  sheet.columns = doc.columns.map((c) => ({
    header: c.header,
    key: c.key,
    width: Math.max(c.width, Math.min(c.header.length + 2, 40)),
  }));
  const header = sheet.getRow(1);
  header.font = { bold: true, color: { argb: 'FFFFFFFF' } };
  header.fill = { type: 'pattern', pattern: 'solid', fgColor: { argb: 'FF1F4E79' } };
  header.alignment = { vertical: 'middle', wrapText: true };
  header.commit();

  // One style per column with its number format, registered once; the data rows are rendered
  // by sheetRowRenderer (the XML exceljs writes, without a Row and Cell object per cell).
  const styles = (workbook as unknown as { styles: StyleRegistry }).styles;
  const layout = {
    types: doc.columns.map((c) => c.type),
    styleIds: doc.columns.map((c) => {
      const numFmt = excelNumberFormat(c.type, doc.culture);
      return numFmt ? styles.addStyleModel({ numFmt }) : 0;
    }),
    toLocalMs: wallClockMsConverter(doc.timeZone),
  };
  const streaming = sheet as unknown as StreamingSheet;
  const sink = sheetSink(streaming);
  const write = async (xml: Buffer): Promise<void> => {
    sink.write(xml);
    if (sink._writableState.length > MAX_PENDING_BYTES) await once(sink, 'drain');
  };
  let count = 0;
  if (doc.copyBlocks) {
    // COPY text blocks (about a chunk each) rendered from their bytes: no row objects or strings.
    const renderer = copyBytesRenderer(layout, 2 * BATCH_BYTES);
    for await (const block of doc.copyBlocks) {
      count += renderer.add(block, count + 2);
      if (renderer.size >= BATCH_BYTES) await write(renderer.take());
    }
    if (renderer.size > 0) await write(renderer.take());
  } else {
    const render = sheetRowRenderer(layout);
    let batch = '';
    for await (const row of doc.rows) {
      count++;
      batch += render(count + 1, row);
      if (batch.length >= BATCH_BYTES) {
        await write(Buffer.from(batch, 'utf8'));
        batch = '';
      }
    }
    if (batch !== '') await write(Buffer.from(batch, 'utf8'));
  }
  sheet.commit();
  await workbook.commit();
  return count;
}

/** The part of exceljs's style registry the writer uses (WorkbookWriter#styles). */
interface StyleRegistry {
  addStyleModel(style: Partial<ExcelJS.Style>): number;
}
