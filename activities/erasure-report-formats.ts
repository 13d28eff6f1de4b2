// Reading and rewriting the report formats that are not plain text, for the erasure and for
// `erase --verify`: an XLSX workbook is read with exceljs and rewritten cell by cell; a PDF's text is
// read with poppler's pdftotext (a PDF cannot be edited in place: one naming the person is deleted).
import { execFile } from 'node:child_process';
import { readFile, rename } from 'node:fs/promises';
import { extname } from 'node:path';
import { promisify } from 'node:util';
import type ExcelJS from 'exceljs';
import { lazyPackage } from '../lib/lazy-package';
import { cellText, eraseCellValue, type TextEraser } from '../lib/erasure/report-cells';

const run = promisify(execFile);
const exceljs = lazyPackage<typeof ExcelJS>('exceljs');

/** Report formats that are text, and so can be searched and rewritten as one string. */
export const TEXT_REPORT_EXTENSIONS = new Set(['.csv', '.tsv', '.txt', '.json']);

/** An e-mail file's text with its base64 parts (the attached report) decoded. */
export function emlText(eml: string): string {
  const decoded = [...eml.matchAll(/base64\r?\n(?:[^\r\n]*\r?\n)*?\r?\n((?:[A-Za-z0-9+/=]+\r?\n?)+)/g)].map(
    (m) => Buffer.from(m[1]!.replace(/\s/g, ''), 'base64').toString('utf8'),
  );
  return [eml, ...decoded].join('\n');
}

/** A report file that is damaged or protected: it cannot be read, so it is left and listed. */
export class UnreadableReportError extends Error {
  override readonly name = 'UnreadableReportError';
}

async function readWorkbook(file: string): Promise<ExcelJS.Workbook> {
  const workbook = new (exceljs().Workbook)();
  try {
    await workbook.xlsx.readFile(file);
  } catch (err) {
    throw new UnreadableReportError(`${file}: not a workbook exceljs can read`, { cause: err });
  }
  return workbook;
}

function eachCell(workbook: ExcelJS.Workbook, visit: (cell: ExcelJS.Cell) => void): void {
  workbook.eachSheet((sheet) =>
    sheet.eachRow({ includeEmpty: false }, (row) => row.eachCell({ includeEmpty: false }, visit)),
  );
}

/** Every cell's text of a workbook, one per line. */
export async function xlsxText(file: string): Promise<string> {
  const texts: string[] = [];
  eachCell(await readWorkbook(file), (cell) => texts.push(cellText(cell.value)));
  return texts.join('\n');
}

/** A PDF's text, by `pdftotext -layout`; fails saying how to install it when it is missing. */
export async function pdfText(file: string): Promise<string> {
  try {
    const { stdout } = await run('pdftotext', ['-layout', file, '-'], { maxBuffer: 256 * 1024 * 1024 });
    return stdout;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException | { code?: unknown }).code;
    if (code === 'ENOENT') {
      throw new Error(
        'pdftotext is missing: install the Debian package poppler-utils (bash scripts/debian-packages.sh); the erasure reads PDF reports with it',
        { cause: err },
      );
    }
    // pdftotext ran and refused the file (damaged, or encrypted with a password).
    if (typeof code === 'number')
      throw new UnreadableReportError(`${file}: pdftotext cannot read it`, { cause: err });
    throw err;
  }
}

/**
 * The text of a report file or outbox message, as the erasure searches it, or null for a file it
 * cannot read: another format (callsync writes none), or a damaged or protected workbook or PDF.
 */
export async function reportFileText(file: string): Promise<string | null> {
  const ext = extname(file).toLowerCase();
  try {
    if (TEXT_REPORT_EXTENSIONS.has(ext)) return await readFile(file, 'utf8');
    if (ext === '.eml') return emlText(await readFile(file, 'utf8'));
    if (ext === '.xlsx') return await xlsxText(file);
    if (ext === '.pdf') return await pdfText(file);
  } catch (err) {
    if (err instanceof UnreadableReportError) return null;
    throw err;
  }
  return null;
}

/**
 * Rewrites a workbook with `erase` applied to every cell; returns whether any cell changed. Written
 * beside it and renamed over it, so a reader never sees half a file.
 */
export async function rewriteXlsx(file: string, erase: TextEraser): Promise<boolean> {
  const workbook = await readWorkbook(file);
  let changed = false;
  eachCell(workbook, (cell) => {
    const next = eraseCellValue(cell.value, erase);
    if (next !== cell.value) {
      cell.value = next;
      changed = true;
    }
  });
  if (!changed) return false;
  const partial = `${file}.erasing`;
  await workbook.xlsx.writeFile(partial);
  await rename(partial, file);
  return true;
}
