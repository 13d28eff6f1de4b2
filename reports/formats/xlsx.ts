// XLSX through exceljs's streaming WorkbookWriter: each row is committed as it is written, so the
// sheet never sits in memory. Cells are typed (numbers, dates, booleans), durations are numbers of
// days with an [h]:mm:ss format, the header row is styled and frozen, and columns have widths.
import ExcelJS from 'exceljs';
import type { Cell, ColumnType } from '../columns';
import type { Culture } from '../culture';
import { wallClockConverter } from '../zone';
import type { ReportDocument } from './document';

const SECONDS_PER_DAY = 86_400;

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

/** Writes the document as XLSX; returns its row count (header not counted). */
export async function writeXlsx(doc: ReportDocument, outPath: string): Promise<number> {
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({
    filename: outPath,
    useStyles: true,
    useSharedStrings: false,
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
  // One style object per column, shared by all its cells: exceljs caches a style's id by object
  // identity, so shared objects are looked up once instead of re-serialized for every cell (column
  // styles would give each cell its own copy, and a million-row sheet three times the work).
  const styles = doc.columns.map((c): Partial<ExcelJS.Style> => {
    const numFmt = excelNumberFormat(c.type, doc.culture);
    return numFmt ? { numFmt } : {};
  });
  const header = sheet.getRow(1);
  header.font = { bold: true, color: { argb: 'FFFFFFFF' } };
  header.fill = { type: 'pattern', pattern: 'solid', fgColor: { argb: 'FF1F4E79' } };
  header.alignment = { vertical: 'middle', wrapText: true };
  header.commit();

  const toLocal = wallClockConverter(doc.timeZone);
  const types = doc.columns.map((c) => c.type);
  let count = 0;
  for await (const row of doc.rows) {
    const added = sheet.addRow(row.map((cell, i) => excelValue(cell, types[i] ?? 'text', toLocal)));
    added.eachCell((cell, n) => {
      cell.style = styles[n - 1] as ExcelJS.Style;
    });
    added.commit();
    count++;
  }
  sheet.commit();
  await workbook.commit();
  return count;
}
