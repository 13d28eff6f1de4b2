// The emulator's hand-written PDFs (fax and invoice downloads) are valid: exact xref offsets, one page,
// and the text lines as given (parentheses and backslashes escaped).
import { textPdf } from '../../emulator/media';
import { pdfProblems, pdfText } from '../support/pdf-check';

describe('textPdf', () => {
  it('writes a PDF 1.4 whose xref offsets point at their objects and whose page shows the lines', () => {
    const lines = ['Fax 12', 'From: +441632960001', 'To: (office) \\ desk', 'Pages: 3'];
    const pdf = textPdf(lines);
    expect(pdf.subarray(0, 8).toString('latin1')).toBe('%PDF-1.4');
    expect(pdfProblems(pdf)).toEqual([]);
    expect(pdfText(pdf)).toEqual(lines);
  });

  it('keeps the structure valid for text outside ASCII (shown as ?)', () => {
    const pdf = textPdf(['Müller – Straße']);
    expect(pdfProblems(pdf)).toEqual([]);
    expect(pdfText(pdf)).toEqual(['M?ller ? Stra?e']);
  });

  it('the check finds a broken offset', () => {
    const pdf = Buffer.from(
      textPdf(['x']).toString('latin1').replace('%PDF-1.4\n', '%PDF-1.4\n\n'),
      'latin1',
    );
    expect(pdfProblems(pdf)).not.toEqual([]);
  });
});
