// PDF through pdfkit, streamed to the file: the title and period, a bar chart for reports over
// time, then the table with a page break and the header repeated on each page. A PDF shows at
// most `maxRows` rows (a million-row PDF is not a report) and says so; the rest is still counted.
import { existsSync } from 'node:fs';
import { createWriteStream } from 'node:fs';
import { finished } from 'node:stream/promises';
import type PDFDocument from 'pdfkit';
import { lazyPackage } from '../../lib/lazy-package';
import { cellFormatter } from '../culture';
import type { Chart, ReportDocument } from './document';
import { drawBarChart } from './pdf-chart';

/** PDF-only parts of a report. */
export interface PdfOptions {
  chart?: Chart;
  /** Most table rows shown. */
  maxRows: number;
  /** The sentence saying the table was cut, given rows shown and rows in all. */
  capNote: (shown: number, total: number) => string;
  /** `Page n` in the culture's words. */
  pageLabel: (n: number) => string;
}

// A Unicode font when the system has one (names such as Łukasz or Dvořák need more than the PDF
// standard fonts' Latin-1); Helvetica otherwise.
const UNICODE_FONTS = [
  ['/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf', '/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf'],
] as const;

function registerFonts(pdf: PDFKit.PDFDocument): { regular: string; bold: string } {
  for (const [regular, bold] of UNICODE_FONTS) {
    if (existsSync(regular) && existsSync(bold)) {
      pdf.registerFont('body', regular);
      pdf.registerFont('body-bold', bold);
      return { regular: 'body', bold: 'body-bold' };
    }
  }
  return { regular: 'Helvetica', bold: 'Helvetica-Bold' };
}

const pdfkit = lazyPackage<typeof PDFDocument>('pdfkit');
const NUMERIC = new Set(['integer', 'decimal', 'money', 'percent', 'duration']);
const ROW_HEIGHT = 13;
const FONT_SIZE = 7.5;

/** Writes the document as PDF; returns its row count (all rows, shown or not). */
export async function writePdf(doc: ReportDocument, outPath: string, opts: PdfOptions): Promise<number> {
  const PDF = pdfkit();
  const pdf = new PDF({
    size: 'A4',
    layout: 'landscape',
    margin: 36,
    info: { Title: doc.title, Creator: 'callsync' },
  });
  const out = createWriteStream(outPath);
  pdf.pipe(out);
  const fonts = registerFonts(pdf);
  const format = cellFormatter(doc.culture, doc.timeZone, { grouping: true });
  const left = pdf.page.margins.left;
  const width = pdf.page.width - left - pdf.page.margins.right;
  const bottom = () => pdf.page.height - pdf.page.margins.bottom;
  const totalWidth = doc.columns.reduce((s, c) => s + c.width, 0);
  const widths = doc.columns.map((c) => (c.width / totalWidth) * width);
  let page = 1;

  const pageNumber = () => {
    pdf.font(fonts.regular).fontSize(7).fillColor('#555555');
    pdf.text(opts.pageLabel(page), left, 18, { width, align: 'right', lineBreak: false });
    pdf.fillColor('#000000');
  };
  const drawHeader = (y: number): number => {
    pdf.rect(left, y, width, ROW_HEIGHT + 4).fill('#1F4E79');
    pdf.font(fonts.bold).fontSize(FONT_SIZE).fillColor('#FFFFFF');
    let x = left;
    doc.columns.forEach((c, i) => {
      const w = widths[i] ?? 0;
      pdf.text(c.header, x + 2, y + 4, {
        width: w - 4,
        lineBreak: false,
        ellipsis: true,
        height: ROW_HEIGHT,
        align: NUMERIC.has(c.type) ? 'right' : 'left',
      });
      x += w;
    });
    pdf.fillColor('#000000').font(fonts.regular);
    return y + ROW_HEIGHT + 6;
  };

  // Heading.
  pageNumber();
  pdf.font(fonts.bold).fontSize(16).text(doc.title, left, 36, { width });
  pdf.font(fonts.regular).fontSize(9);
  for (const line of doc.subtitle) pdf.text(line, { width });
  let y = pdf.y + 10;
  if (opts.chart) {
    drawBarChart(pdf, opts.chart, { x: left, y, width, height: 170 }, fonts);
    y += 185;
  }
  y = drawHeader(y);

  let count = 0;
  for await (const row of doc.rows) {
    count++;
    if (count > opts.maxRows) continue; // counted for the note, not drawn
    if (y + ROW_HEIGHT > bottom()) {
      pdf.addPage();
      page++;
      pageNumber();
      y = drawHeader(pdf.page.margins.top);
    }
    if (count % 2 === 0)
      pdf
        .rect(left, y - 2, width, ROW_HEIGHT)
        .fill('#F2F2F2')
        .fillColor('#000000');
    pdf.font(fonts.regular).fontSize(FONT_SIZE);
    let x = left;
    row.forEach((cell, i) => {
      const c = doc.columns[i];
      const w = widths[i] ?? 0;
      if (c) {
        const text = format(cell, c.type);
        pdf.text(text, x + 2, y, {
          width: w - 4,
          lineBreak: false,
          ellipsis: true,
          height: ROW_HEIGHT,
          align: NUMERIC.has(c.type) ? 'right' : 'left',
        });
      }
      x += w;
    });
    y += ROW_HEIGHT;
  }
  if (count > opts.maxRows) {
    if (y + 2 * ROW_HEIGHT > bottom()) {
      pdf.addPage();
      page++;
      pageNumber();
      y = pdf.page.margins.top;
    }
    pdf
      .font(fonts.bold)
      .fontSize(9)
      .text(opts.capNote(opts.maxRows, count), left, y + 6, { width });
  }
  pdf.end();
  await finished(out);
  return count;
}
