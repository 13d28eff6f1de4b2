// The data rows of an XLSX sheet as SpreadsheetML text, written in batches into exceljs's sheet
// stream. exceljs builds a Row and a Cell object per cell and renders them through its XML writer
// (about 17 µs a row); the rows of a report are flat and typed, so we render the same XML as
// exceljs does (test/unit/reports-xlsx-rows.test.ts compares the two) straight from the cells.
import type { Cell, ColumnType } from '../columns';

const MS_PER_DAY = 86_400_000;
const SECONDS_PER_DAY = 86_400;
/** Excel's serial day number of 1970-01-01 (the 1900 date system, as exceljs writes). */
const EXCEL_EPOCH_DAYS = 25_569;

// The control characters are the point: XML 1.0 cannot hold them, so exceljs drops them.
// eslint-disable-next-line no-control-regex
const XML_SPECIAL = /["&'<>\x00-\x08\x0b\x0c\x0e-\x1f\x7f]/;
// eslint-disable-next-line no-control-regex
const XML_SPECIAL_ALL = /["&'<>\x00-\x08\x0b\x0c\x0e-\x1f\x7f]/g;
const ENTITIES: Readonly<Record<string, string>> = {
  '"': '&quot;',
  '&': '&amp;',
  "'": '&apos;',
  '<': '&lt;',
  '>': '&gt;',
};

/** Text as exceljs writes it in XML: the five entities escaped, characters XML 1.0 forbids dropped. */
export function xmlText(s: string): string {
  return XML_SPECIAL.test(s) ? s.replace(XML_SPECIAL_ALL, (c) => ENTITIES[c] ?? '') : s;
}

/** Column letters of a 1-based column number (1 → A, 27 → AA). */
export function columnLetters(n: number): string {
  let letters = '';
  for (let k = n; k > 0; k = Math.floor((k - 1) / 26))
    letters = String.fromCharCode(65 + ((k - 1) % 26)) + letters;
  return letters;
}

/** How the rows of one sheet are rendered: each column's type and exceljs style id. */
export interface SheetRowsLayout {
  types: readonly ColumnType[];
  /** Style id (index into cellXfs) per column; 0 writes no `s`. */
  styleIds: readonly number[];
  /** Local wall-clock epoch milliseconds of an instant (Excel dates have no time zone). */
  toLocalMs: (epochMs: number) => number;
}

/**
 * A row's opening tag. exceljs adds `spans` (a hint of the row's columns) and `x14ac:dyDescent` (an
 * Excel 2010 extension for the text baseline); both are optional in SpreadsheetML, and Excel,
 * LibreOffice, openpyxl and exceljs read rows without them. Left out, the sheet is a tenth smaller
 * to render and to deflate.
 */
function rowOpen(rowNumber: string): string {
  return `<row r="${rowNumber}">`;
}

/** A renderer of rows: `row(number, cells)` returns the `<row>` element of the cells. */
export function sheetRowRenderer(
  layout: SheetRowsLayout,
): (rowNumber: number, cells: readonly Cell[]) => string {
  const cell = cellRenderer(layout);
  return (rowNumber, cells) => {
    const r = String(rowNumber);
    let xml = rowOpen(r);
    for (let i = 0; i < cells.length; i++) xml += cell(i, r, cells[i] ?? null);
    return `${xml}</row>`;
  };
}

/** `<c r="B` of a column: the row number and then its style follow. */
function cellOpen(i: number): string {
  return `<c r="${columnLetters(i + 1)}`;
}

/** Per column, what comes before a cell's row number and what between it and the value's type. */
function cellFragments(layout: SheetRowsLayout): { opens: string[]; closes: string[] } {
  return {
    opens: layout.types.map((_, i) => cellOpen(i)),
    closes: layout.styleIds.map((id) => (id ? `" s="${id}"` : '"')),
  };
}

/** `cell(index, rowNumber, value)`: the `<c>` element of one cell ('' for null, as exceljs). */
function cellRenderer(layout: SheetRowsLayout): (i: number, rowNumber: string, cell: Cell) => string {
  const { types, toLocalMs } = layout;
  const { opens, closes } = cellFragments(layout);
  return (i, rowNumber, cell) => {
    if (cell === null) return '';
    const open = `${opens[i] ?? cellOpen(i)}${rowNumber}${closes[i] ?? '"'}`;
    const type = types[i] ?? 'text';
    if (typeof cell === 'number')
      return `${open}><v>${type === 'duration' ? cell / SECONDS_PER_DAY : cell}</v></c>`;
    if (typeof cell === 'string') {
      if (type === 'date') return `${open}><v>${excelSerial(Date.parse(`${cell}T00:00:00Z`))}</v></c>`;
      return `${open} t="str"><v>${xmlText(cell)}</v></c>`;
    }
    if (typeof cell === 'boolean') return `${open} t="b"><v>${cell ? '1' : '0'}</v></c>`;
    return `${open}><v>${excelSerial(type === 'date' ? cell.getTime() : toLocalMs(cell.getTime()))}</v></c>`;
  };
}

/** Excel's serial date of epoch milliseconds, computed as exceljs's dateToExcel does. */
export function excelSerial(ms: number): number {
  return EXCEL_EPOCH_DAYS + ms / MS_PER_DAY;
}
