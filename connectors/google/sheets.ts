// Report rows into Google Sheets through the official client (@googleapis/sheets, sheets v4): one
// spreadsheet per schedule (found in Drive by its key), one tab per period, written in batches.
// Writing a period again clears its tab first, so a retry gives the same content, never twice.
// A spreadsheet holds at most 10 million cells (https://support.google.com/drive/answer/37603), and
// a tab is added per period and never removed: before a new tab would take the schedule's
// spreadsheet past 90 % of the cap, the schedule moves on to a new spreadsheet (`<key>#2`, …).
import type { sheets_v4 } from '@googleapis/sheets';
import type { AuthClient } from 'google-auth-library';
import { lazyPackage } from '../../lib/lazy-package';
import { googleAuthLibrary } from './credentials';
import type { DriveFiles } from './drive';

const sheetsApi = lazyPackage<typeof import('@googleapis/sheets')>('@googleapis/sheets');

export const SHEETS_SCOPES = ['https://www.googleapis.com/auth/spreadsheets'] as const;

export const SPREADSHEET_MIME = 'application/vnd.google-apps.spreadsheet';

/** Google's cap on the cells of one spreadsheet, counted over every tab's grid (empty cells too). */
export const SHEETS_CELL_LIMIT = 10_000_000;

/** A new tab goes to a new spreadsheet when it would take the current one past this share of the cap. */
export const SHEETS_ROTATE_AT = 0.9;

/** The cells a tab's grid takes: Sheets starts a tab at 1000 rows by 26 columns and grows it to fit. */
export function tabCells(rows: number, columns: number): number {
  return Math.max(1000, rows) * Math.max(26, columns);
}

/** The Drive key of the schedule's `part`-th spreadsheet (the first keeps the plain key). */
export function spreadsheetPartKey(key: string, part: number): string {
  return part === 1 ? key : `${key}#${part}`;
}

/** A cell as the values API takes it (RAW input: numbers stay numbers, text stays text). */
export type SheetCell = string | number | boolean;

/** A tab title Sheets accepts: no `[ ] * ? : / \`, at most 100 characters, never empty. */
export function sheetTitle(label: string): string {
  const clean = label
    .replace(/[[\]*?:/\\]/g, '-')
    .trim()
    .slice(0, 100);
  return clean || 'report';
}

/** An A1 range on a tab, the title quoted as Sheets wants (`'It''s'!A1`). */
export function a1Range(title: string, cell = ''): string {
  const quoted = `'${title.replace(/'/g, "''")}'`;
  return cell ? `${quoted}!${cell}` : quoted;
}

/** A report value as a cell: numbers and booleans as they are, dates as ISO text, nothing as empty. */
export function toSheetCell(value: unknown): SheetCell {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return Number.isFinite(value) ? value : String(value);
  if (typeof value === 'boolean' || typeof value === 'string') return value;
  if (typeof value === 'bigint') return Number(value);
  if (value instanceof Date) return value.toISOString();
  return JSON.stringify(value) ?? '';
}

/** Where a tab was written. */
export interface WrittenTab {
  spreadsheetId: string;
  sheetId: number;
  title: string;
  /** The A1 range the header and rows occupy. */
  range: string;
  /** Data rows written (the header not counted). */
  rows: number;
  url: string;
}

/** Spreadsheet operations for report delivery. */
export class SheetsReports {
  private readonly api: sheets_v4.Sheets;

  private readonly cellLimit: number;

  /** `cellLimit`: the cap the rotation keeps under (Google's; tests set a small one). */
  constructor(
    auth: AuthClient,
    private readonly drive: DriveFiles,
    rootUrl?: string,
    options: { cellLimit?: number } = {},
  ) {
    this.cellLimit = options.cellLimit ?? SHEETS_CELL_LIMIT;
    this.api = sheetsApi().sheets({
      version: 'v4',
      auth: new (googleAuthLibrary().GoogleAuth)({ authClient: auth }),
      ...(rootUrl ? { rootUrl } : {}),
    });
  }

  /**
   * The spreadsheet that takes the tab `tab.title` of the schedule `key` in `folderId`: the one that
   * has the tab already (a retry or a forced re-run rewrites it in place), else the schedule's latest
   * spreadsheet while the new tab keeps it under SHEETS_ROTATE_AT of the cap, else a new one
   * (`<title> (2)`, …). Each is a Drive file found by its key before one is created, so a retry never
   * makes a second. The folder must be one callsync can create files in (`setting` names it).
   */
  async ensureSpreadsheet(input: {
    folderId: string;
    setting: string;
    key: string;
    title: string;
    tab: { title: string; rows: number; columns: number };
  }): Promise<string> {
    await this.drive.requireWritableFolder(input.folderId, input.setting);
    const books: { id: string; tabs: string[]; cells: number }[] = [];
    for (let part = 1; ; part += 1) {
      const found = await this.drive.findByKey(input.folderId, spreadsheetPartKey(input.key, part));
      if (!found) break;
      const book = { id: found.id, ...(await this.grid(found.id)) };
      if (book.tabs.includes(input.tab.title)) return book.id;
      books.push(book);
    }
    const last = books.at(-1);
    // A book holding only its first, empty tab takes the tab whatever its size: a new one would not help.
    const room = SHEETS_ROTATE_AT * this.cellLimit;
    const needed = tabCells(input.tab.rows + 1, input.tab.columns);
    if (last && (last.tabs.length <= 1 || last.cells + needed <= room)) return last.id;
    const part = books.length + 1;
    const created = await this.drive.createEmpty({
      folderId: input.folderId,
      key: spreadsheetPartKey(input.key, part),
      name: part === 1 ? input.title : `${input.title} (${part})`,
      mimeType: SPREADSHEET_MIME,
    });
    return created.id;
  }

  /** A spreadsheet's tab titles and the cells of all its grids. */
  private async grid(spreadsheetId: string): Promise<{ tabs: string[]; cells: number }> {
    const res = await this.api.spreadsheets.get({
      spreadsheetId,
      fields: 'sheets.properties(title,gridProperties(rowCount,columnCount))',
    });
    const sheets = res.data.sheets ?? [];
    return {
      tabs: sheets.map((t) => t.properties?.title ?? ''),
      cells: sheets.reduce(
        (n, t) =>
          n +
          (t.properties?.gridProperties?.rowCount ?? 0) * (t.properties?.gridProperties?.columnCount ?? 0),
        0,
      ),
    };
  }

  /** Writes `header` then `rows` into the tab `title` (created if missing, cleared if there), in batches. */
  async writeTab(input: {
    spreadsheetId: string;
    title: string;
    header: string[];
    rows: AsyncIterable<readonly unknown[]>;
    batchRows: number;
    onBatch?: (rowsSoFar: number) => void;
  }): Promise<WrittenTab> {
    const { spreadsheetId, title } = input;
    const sheetId = await this.ensureTab(spreadsheetId, title);
    await this.api.spreadsheets.values.clear({ spreadsheetId, range: a1Range(title), requestBody: {} });
    let batch: SheetCell[][] = [input.header];
    let nextRow = 1;
    let rows = 0;
    let width = input.header.length;
    const flush = async () => {
      if (batch.length === 0) return;
      await this.api.spreadsheets.values.batchUpdate({
        spreadsheetId,
        requestBody: {
          valueInputOption: 'RAW',
          data: [{ range: a1Range(title, `A${nextRow}`), values: batch }],
        },
      });
      nextRow += batch.length;
      batch = [];
      input.onBatch?.(rows);
    };
    for await (const row of input.rows) {
      batch.push(row.map(toSheetCell));
      width = Math.max(width, row.length);
      rows += 1;
      if (batch.length >= input.batchRows) await flush();
    }
    await flush();
    const range = a1Range(title, `A1:${columnName(width)}${rows + 1}`);
    return {
      spreadsheetId,
      sheetId,
      title,
      range,
      rows,
      url: `https://docs.google.com/spreadsheets/d/${spreadsheetId}/edit#gid=${sheetId}`,
    };
  }

  /** The tab's sheet id, adding the tab (header row frozen) when the spreadsheet has none of that title. */
  private async ensureTab(spreadsheetId: string, title: string): Promise<number> {
    const existing = await this.api.spreadsheets.get({
      spreadsheetId,
      fields: 'sheets.properties(sheetId,title)',
    });
    const tab = existing.data.sheets?.find((s) => s.properties?.title === title);
    if (tab?.properties?.sheetId !== undefined && tab.properties.sheetId !== null)
      return tab.properties.sheetId;
    const res = await this.api.spreadsheets.batchUpdate({
      spreadsheetId,
      requestBody: {
        requests: [{ addSheet: { properties: { title, gridProperties: { frozenRowCount: 1 } } } }],
      },
    });
    const added = res.data.replies?.[0]?.addSheet?.properties?.sheetId;
    if (added === undefined || added === null)
      throw new Error(`Sheets did not answer the id of tab ${title}`);
    return added;
  }
}

/** The column letters of a 1-based column number (1 → A, 27 → AA). */
export function columnName(n: number): string {
  let name = '';
  for (let k = Math.max(1, n); k > 0; k = Math.floor((k - 1) / 26)) {
    name = String.fromCharCode(65 + ((k - 1) % 26)) + name;
  }
  return name;
}
