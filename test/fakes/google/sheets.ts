// Sheets v4 for the local Google server: spreadsheets.create/get, batchUpdate (addSheet,
// deleteSheet), values.batchUpdate, values.clear and values.get, with A1 ranges as Sheets reads them.
//
// The cell cap: a spreadsheet holds at most 10 million cells, counted over the grids of all its tabs
// (empty cells too; a new tab's grid is 1000 rows by 26 columns, grown to fit what is written).
// https://support.google.com/drive/answer/37603 ("Spreadsheets: Up to 10 million cells or 18,278
// columns"). A request that would pass it is refused with a 400 INVALID_ARGUMENT, "This action would
// increase the number of cells in the workbook above the limit of 10000000 cells." Tests lower the
// cap with `cellLimit`.
import { randomBytes } from 'node:crypto';
import type { FakeDriveFile, FakeDriveState } from './drive';
import { badRequest, notFound, type FakeGoogleModule } from './router';

export type FakeCell = string | number | boolean;

export interface FakeSheet {
  sheetId: number;
  title: string;
  frozenRowCount: number;
  /** The grid's size (grown to fit what is written, never shrunk by a clear). */
  rowCount: number;
  columnCount: number;
  /** Rows of cells; holes are empty cells. */
  cells: FakeCell[][];
}

export interface FakeSpreadsheet {
  spreadsheetId: string;
  title: string;
  sheets: FakeSheet[];
  nextSheetId: number;
}

/** Google's cap on the cells of one spreadsheet. */
export const SHEETS_CELL_LIMIT = 10_000_000;

const NEW_GRID = { rowCount: 1000, columnCount: 26 };

export class FakeSheetsState {
  readonly spreadsheets = new Map<string, FakeSpreadsheet>();
  /** The most cells a spreadsheet may hold (Google: 10 million; tests set less). */
  cellLimit = SHEETS_CELL_LIMIT;

  create(title: string, spreadsheetId = randomBytes(16).toString('base64url')): FakeSpreadsheet {
    const book: FakeSpreadsheet = {
      spreadsheetId,
      title,
      sheets: [{ sheetId: 0, title: 'Sheet1', frozenRowCount: 0, ...NEW_GRID, cells: [] }],
      nextSheetId: 1_000,
    };
    this.spreadsheets.set(spreadsheetId, book);
    return book;
  }

  get(id: string): FakeSpreadsheet {
    const book = this.spreadsheets.get(id);
    if (!book) throw notFound('Requested entity was not found.');
    return book;
  }

  /** The cells of a spreadsheet's grids, as the cap counts them. */
  cellCount(book: FakeSpreadsheet): number {
    return book.sheets.reduce((n, s) => n + s.rowCount * s.columnCount, 0);
  }

  /** Refuses, as Sheets does, a change that takes the spreadsheet from `before` to `after` cells over the cap. */
  checkCells(before: number, after: number, request = ''): void {
    if (after > this.cellLimit && after > before) {
      throw badRequest(
        `${request}This action would increase the number of cells in the workbook above the limit of ${this.cellLimit} cells.`,
      );
    }
  }

  /** A tab's values as values.get answers them (trailing empties trimmed). */
  values(spreadsheetId: string, title: string): FakeCell[][] {
    const sheet = this.get(spreadsheetId).sheets.find((s) => s.title === title);
    if (!sheet) throw badRequest(`Unable to parse range: ${title}`);
    return trimmed(sheet.cells);
  }
}

function trimmed(cells: FakeCell[][]): FakeCell[][] {
  const rows = cells.map((r) => {
    const row = Array.from(r, (c) => c ?? '');
    while (row.length && row[row.length - 1] === '') row.pop();
    return row;
  });
  while (rows.length && (rows[rows.length - 1]?.length ?? 0) === 0) rows.pop();
  return rows;
}

/** A parsed A1 range: the tab's title and the top-left cell (0-based), if given. */
export function parseA1(range: string): { title: string; row: number; col: number } {
  const m = /^(?:'((?:[^']|'')+)'|([^!']+?))(?:!([A-Z]+)(\d+)(?::[A-Z]+\d*)?)?$/.exec(range.trim());
  if (!m) throw badRequest(`Unable to parse range: ${range}`);
  const title = m[1] !== undefined ? m[1].replace(/''/g, "'") : (m[2] ?? '');
  let col = 0;
  for (const ch of m[3] ?? 'A') col = col * 26 + (ch.charCodeAt(0) - 64);
  return { title, row: Number(m[4] ?? 1) - 1, col: col - 1 };
}

function sheetOf(book: FakeSpreadsheet, range: string): { sheet: FakeSheet; row: number; col: number } {
  const { title, row, col } = parseA1(range);
  const sheet = book.sheets.find((s) => s.title === title);
  if (!sheet) throw badRequest(`Unable to parse range: ${range}`);
  return { sheet, row, col };
}

function bookResource(book: FakeSpreadsheet): unknown {
  return {
    spreadsheetId: book.spreadsheetId,
    properties: { title: book.title },
    sheets: book.sheets.map((s, index) => ({
      properties: {
        sheetId: s.sheetId,
        title: s.title,
        index,
        sheetType: 'GRID',
        gridProperties: {
          rowCount: s.rowCount,
          columnCount: s.columnCount,
          frozenRowCount: s.frozenRowCount,
        },
      },
    })),
    spreadsheetUrl: `https://docs.google.com/spreadsheets/d/${book.spreadsheetId}/edit`,
  };
}

const VALID_TITLE = /^[^[\]*?:/\\]{1,100}$/;

const BOOKS = /^\/v4\/spreadsheets$/;
const BOOK = /^\/v4\/spreadsheets\/(?<id>[^/:]+)$/;
const BATCH = /^\/v4\/spreadsheets\/(?<id>[^/:]+):batchUpdate$/;
const VALUES_BATCH = /^\/v4\/spreadsheets\/(?<id>[^/:]+)\/values:batchUpdate$/;
const VALUES_CLEAR = /^\/v4\/spreadsheets\/(?<id>[^/:]+)\/values\/(?<range>[^/]+):clear$/;
const VALUES = /^\/v4\/spreadsheets\/(?<id>[^/:]+)\/values\/(?<range>[^/:]+)$/;

/** Registers the Sheets routes; a spreadsheet created through Drive gets its book here too. */
export const sheetsModule: FakeGoogleModule<{ drive: FakeDriveState; sheets: FakeSheetsState }> = (
  router,
  ctx,
) => {
  const { sheets } = ctx;
  ctx.drive.onCreate.push((file: FakeDriveFile) => {
    if (file.mimeType === 'application/vnd.google-apps.spreadsheet') sheets.create(file.name, file.id);
  });
  router.add('POST', BOOKS, (req) => {
    const body = req.json<{ properties?: { title?: string } }>();
    return {
      status: 200,
      body: bookResource(sheets.create(body.properties?.title ?? 'Untitled spreadsheet')),
    };
  });
  router.add('GET', BOOK, (req) => ({ status: 200, body: bookResource(sheets.get(req.params.id ?? '')) }));
  router.add('POST', BATCH, (req) => {
    const book = sheets.get(req.params.id ?? '');
    const body = req.json<{ requests?: Record<string, Record<string, unknown>>[] }>();
    if (!Array.isArray(body.requests) || body.requests.length === 0)
      throw badRequest('Must specify at least one request.');
    const replies = body.requests.map((r, at) => {
      if (r.addSheet) {
        const props = (r.addSheet.properties ?? {}) as {
          title?: string;
          gridProperties?: { frozenRowCount?: number; rowCount?: number; columnCount?: number };
        };
        const title = props.title ?? `Sheet${book.sheets.length + 1}`;
        if (!VALID_TITLE.test(title)) throw badRequest(`Invalid sheet title: ${title}`);
        if (book.sheets.some((s) => s.title === title)) {
          throw badRequest(
            `Invalid requests[0].addSheet: A sheet with the name "${title}" already exists. Please enter another name.`,
          );
        }
        const rowCount = props.gridProperties?.rowCount ?? NEW_GRID.rowCount;
        const columnCount = props.gridProperties?.columnCount ?? NEW_GRID.columnCount;
        const before = sheets.cellCount(book);
        sheets.checkCells(before, before + rowCount * columnCount, `Invalid requests[${at}].addSheet: `);
        const sheet: FakeSheet = {
          sheetId: book.nextSheetId++,
          title,
          frozenRowCount: props.gridProperties?.frozenRowCount ?? 0,
          rowCount,
          columnCount,
          cells: [],
        };
        book.sheets.push(sheet);
        return { addSheet: { properties: { sheetId: sheet.sheetId, title, index: book.sheets.length - 1 } } };
      }
      if (r.deleteSheet) {
        const id = Number(r.deleteSheet.sheetId);
        const at = book.sheets.findIndex((s) => s.sheetId === id);
        if (at === -1) throw badRequest(`No grid with id: ${id}`);
        book.sheets.splice(at, 1);
        return {};
      }
      throw badRequest(`Unsupported request: ${Object.keys(r).join(', ')}`);
    });
    return { status: 200, body: { spreadsheetId: book.spreadsheetId, replies } };
  });
  router.add('POST', VALUES_BATCH, (req) => {
    const book = sheets.get(req.params.id ?? '');
    const body = req.json<{ valueInputOption?: string; data?: { range: string; values: FakeCell[][] }[] }>();
    if (body.valueInputOption !== 'RAW' && body.valueInputOption !== 'USER_ENTERED') {
      throw badRequest("Invalid valueInputOption: must be 'RAW' or 'USER_ENTERED'");
    }
    // The grids grow to fit the values; the whole request is refused if that passes the cap.
    const before = sheets.cellCount(book);
    const grown = new Map<FakeSheet, { rowCount: number; columnCount: number }>();
    for (const d of body.data ?? []) {
      const { sheet, row, col } = sheetOf(book, d.range);
      const grid = grown.get(sheet) ?? { rowCount: sheet.rowCount, columnCount: sheet.columnCount };
      grid.rowCount = Math.max(grid.rowCount, row + d.values.length);
      grid.columnCount = Math.max(grid.columnCount, col + Math.max(0, ...d.values.map((v) => v.length)));
      grown.set(sheet, grid);
    }
    let after = before;
    for (const [sheet, grid] of grown) {
      after += grid.rowCount * grid.columnCount - sheet.rowCount * sheet.columnCount;
    }
    sheets.checkCells(before, after);
    for (const [sheet, grid] of grown) Object.assign(sheet, grid);
    let updatedCells = 0;
    for (const d of body.data ?? []) {
      const { sheet, row, col } = sheetOf(book, d.range);
      d.values.forEach((values, i) => {
        const target = (sheet.cells[row + i] ??= []);
        values.forEach((v, j) => {
          target[col + j] = v;
          updatedCells += 1;
        });
      });
    }
    return {
      status: 200,
      body: {
        spreadsheetId: book.spreadsheetId,
        totalUpdatedCells: updatedCells,
        totalUpdatedSheets: (body.data ?? []).length,
      },
    };
  });
  router.add('POST', VALUES_CLEAR, (req) => {
    const book = sheets.get(req.params.id ?? '');
    const { sheet } = sheetOf(book, req.params.range ?? '');
    sheet.cells = [];
    return { status: 200, body: { spreadsheetId: book.spreadsheetId, clearedRange: req.params.range } };
  });
  router.add('GET', VALUES, (req) => {
    const book = sheets.get(req.params.id ?? '');
    const { sheet } = sheetOf(book, req.params.range ?? '');
    return {
      status: 200,
      body: { range: req.params.range, majorDimension: 'ROWS', values: trimmed(sheet.cells) },
    };
  });
};
