// Erasing a person from report text and XLSX cells: their number (in any form, or typed as a number)
// becomes the token, their e-mail too, their names "[erased]"; everything else comes back as it was,
// the very same value when nothing changed (so an untouched workbook is not rewritten).
import type ExcelJS from 'exceljs';
import { erasedToken, identifierHash, parseSubject } from '../../lib/erasure/identity';
import { subjectMatcher } from '../../lib/erasure/matchers';
import { cellText, eraseCellValue, textEraser } from '../../lib/erasure/report-cells';

const key = Buffer.from('0123456789abcdef0123456789abcdef');
const matcher = subjectMatcher(key, parseSubject({ number: '+447911123456' }, 'GB'), 'GB');
const token = erasedToken(identifierHash(key, 'number', '+447911123456'));
const erase = textEraser(matcher, ['Alice Liddell', 'Al']);

describe('textEraser', () => {
  it('replaces their number in any form, whole or inside text, and their names', () => {
    expect(erase('07911 123456')).toBe(token);
    expect(erase('447911123456')).toBe(token);
    expect(erase('Call ALICE LIDDELL on +44 7911 123456.')).toBe(`Call [erased] on ${token}.`);
    // A name shorter than five letters is not replaced in free text ("Al" in "Always").
    expect(erase('Always +44 20 7946 0018')).toBe('Always +44 20 7946 0018');
  });
});

describe('eraseCellValue', () => {
  it('rewrites text cells and numbers that are their number', () => {
    expect(eraseCellValue('Alice Liddell', erase)).toBe('[erased]');
    expect(eraseCellValue(447911123456, erase)).toBe(token);
    expect(eraseCellValue(7911123456, erase)).toBe(token);
  });

  it('leaves other values alone, by identity', () => {
    const date = new Date('2026-11-01T00:00:00Z');
    const link = { text: 'Bob Jones', hyperlink: 'mailto:bob@example.org' };
    for (const v of [3, 12.5, true, null, date, 'Bob Jones', '+44 20 7946 0018', link] as ExcelJS.CellValue[])
      expect(eraseCellValue(v, erase)).toBe(v);
  });

  it('rewrites rich text runs, hyperlinks and formulas with their cached results', () => {
    const rich = { richText: [{ text: 'Caller: ', font: { bold: true } }, { text: 'Alice Liddell' }] };
    expect(eraseCellValue(rich as ExcelJS.CellValue, erase)).toEqual({
      richText: [{ text: 'Caller: ', font: { bold: true } }, { text: '[erased]' }],
    });
    const link = { text: 'Alice Liddell', hyperlink: 'tel:+447911123456' };
    expect(eraseCellValue(link as ExcelJS.CellValue, erase)).toEqual({
      text: '[erased]',
      hyperlink: `tel:${token}`,
    });
    // The formula would compute their number again: only its erased result is kept.
    const formula = { formula: 'CONCAT("07911 ","123456")', result: '07911 123456' };
    expect(eraseCellValue(formula as ExcelJS.CellValue, erase)).toBe(token);
    const named = { formula: 'CONCAT("Alice ","Liddell", " 07911123456")', result: 2 };
    expect(eraseCellValue(named as ExcelJS.CellValue, erase)).toEqual({
      formula: `CONCAT("Alice ","Liddell", " ${token}")`,
      result: 2,
    });
  });
});

describe('cellText', () => {
  it('reads every text a cell shows or holds', () => {
    expect(cellText(447911123456)).toBe('447911123456');
    expect(cellText({ richText: [{ text: 'Alice ' }, { text: 'Liddell' }] })).toBe('Alice Liddell');
    expect(cellText({ text: 'x', hyperlink: 'tel:07911123456' })).toBe('x\ntel:07911123456');
    expect(cellText(null)).toBe('');
  });
});
