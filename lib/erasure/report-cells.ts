// Erasing a person from the text of a report: a value that is one of their identifiers becomes its
// token, identifiers inside text become tokens, and their names become "[erased]". Serves the text
// formats (a whole file is one text) and XLSX, cell by cell, whatever the cell holds (plain text, a
// phone number typed as a number, rich text runs, a hyperlink such as mailto:, a formula's text and
// cached result). Pure.
import type ExcelJS from 'exceljs';
import { escapeRegex } from './identity';
import type { IdentityMatcher } from './matchers';
import { ERASED_TEXT } from './scrub';

/** Replaces the person's identifiers and names in one text. */
export type TextEraser = (text: string) => string;

/** Names shorter than this are not replaced in free text (an initial, "Al", would match everywhere). */
const MIN_NAME = 5;

/** The eraser of one person's identifiers (by the matcher) and names (without regard to case). */
export function textEraser(matcher: IdentityMatcher, names: readonly string[]): TextEraser {
  const full = names
    .map((n) => n.trim())
    .filter((n) => n.length >= MIN_NAME)
    .sort((a, b) => b.length - a.length);
  const nameRe = full.length > 0 ? new RegExp(full.map(escapeRegex).join('|'), 'gi') : null;
  return (text) => {
    const whole = matcher.matchValue(text);
    if (whole !== null) return whole;
    const replaced = matcher.replaceInText(text);
    return nameRe ? replaced.replace(nameRe, ERASED_TEXT) : replaced;
  };
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !(v instanceof Date);

/** Every text a cell value shows or holds (for searching), joined by newlines. */
export function cellText(value: ExcelJS.CellValue): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (value instanceof Date) return '';
  const v = value as unknown as Record<string, unknown>;
  if (Array.isArray(v.richText)) return (v.richText as { text: string }[]).map((r) => r.text).join('');
  return ['text', 'hyperlink', 'formula', 'sharedFormula', 'result']
    .map((k) => v[k])
    .filter((x): x is string | number => typeof x === 'string' || typeof x === 'number')
    .map(String)
    .join('\n');
}

/**
 * The cell value with `erase` applied to each of its texts, or the same value (by identity) when
 * none changed. A number that is the person's phone number becomes the token's text; a formula
 * whose result names them becomes its erased result.
 */
export function eraseCellValue(value: ExcelJS.CellValue, erase: TextEraser): ExcelJS.CellValue {
  if (typeof value === 'string') return erase(value);
  if (typeof value === 'number') {
    const text = String(value);
    const out = erase(text);
    return out === text ? value : out;
  }
  if (!isObject(value)) return value;
  const v = value as unknown as Record<string, unknown>;
  let changed = false;
  const text = (x: unknown): unknown => {
    if (typeof x !== 'string') return x;
    const out = erase(x);
    if (out !== x) changed = true;
    return out;
  };
  let next: Record<string, unknown>;
  if (Array.isArray(v.richText)) {
    next = {
      ...v,
      richText: (v.richText as Record<string, unknown>[]).map((r) => ({ ...r, text: text(r.text) })),
    };
  } else {
    next = { ...v };
    for (const k of ['text', 'hyperlink', 'formula', 'sharedFormula']) if (k in v) next[k] = text(v[k]);
    if ('result' in v) {
      const result = eraseCellValue(v.result as ExcelJS.CellValue, erase);
      // A formula whose result named them would compute it again when the workbook is opened: the
      // cell keeps only the erased result.
      if (result !== v.result) return result;
    }
  }
  return changed ? (next as unknown as ExcelJS.CellValue) : value;
}
