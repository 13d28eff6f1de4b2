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

async function readWorkbook(file: string): Promise<ExcelJS.Workbook> {
  const workbook = new (exceljs().Workbook)();
  await workbook.xlsx.readFile(file);
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
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') {
      throw new Error(
        'pdftotext is missing: install the Debian package poppler-utils (bash scripts/debian-packages.sh); the erasure reads PDF reports with it',
        { cause: err },
      );
    }
    throw err;
  }
}

/**
 * The text of a report file or outbox message, as the erasure searches it, or null for a format it
 * cannot read (none that callsync writes).
 */
export async function reportFileText(file: string): Promise<string | null> {
  const ext = extname(file).toLowerCase();
  if (TEXT_REPORT_EXTENSIONS.has(ext)) return readFile(file, 'utf8');
  if (ext === '.eml') return emlText(await readFile(file, 'utf8'));
  if (ext === '.xlsx') return xlsxText(file);
  if (ext === '.pdf') return pdfText(file);
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
