// A bar chart drawn with pdfkit's vector API: one bar per local day or hour, a scale line with the
// largest value, and as many bucket labels as fit under the bars.
import type { Chart } from './document';

/** Where the chart goes on the page. */
export interface ChartBox {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** A "nice" top of scale at or above `max` (1, 2 or 5 times a power of ten). */
export function niceCeiling(max: number): number {
  if (max <= 0) return 1;
  const power = 10 ** Math.floor(Math.log10(max));
  for (const step of [1, 2, 5, 10]) if (step * power >= max) return step * power;
  return 10 * power;
}

/** Every n-th label is shown so labels of `labelWidth` points do not overlap. */
export function labelStride(bars: number, plotWidth: number, labelWidth: number): number {
  if (bars === 0) return 1;
  return Math.max(1, Math.ceil((bars * labelWidth) / plotWidth));
}

/** Draws the chart in `box` (title above, labels below). */
export function drawBarChart(
  pdf: PDFKit.PDFDocument,
  chart: Chart,
  box: ChartBox,
  fonts: { regular: string; bold: string },
): void {
  const titleHeight = 16;
  const labelHeight = 14;
  const axisWidth = 36;
  pdf
    .font(fonts.bold)
    .fontSize(10)
    .fillColor('#000000')
    .text(chart.title, box.x, box.y, { lineBreak: false });
  const plot = {
    x: box.x + axisWidth,
    y: box.y + titleHeight,
    width: box.width - axisWidth,
    height: box.height - titleHeight - labelHeight,
  };
  const top = niceCeiling(Math.max(0, ...chart.bars.map((b) => b.value)));
  pdf.font(fonts.regular).fontSize(7).fillColor('#555555');
  pdf.text(String(top), box.x, plot.y - 3, { width: axisWidth - 4, align: 'right', lineBreak: false });
  pdf.text('0', box.x, plot.y + plot.height - 6, { width: axisWidth - 4, align: 'right', lineBreak: false });
  pdf
    .moveTo(plot.x, plot.y)
    .lineTo(plot.x + plot.width, plot.y)
    .lineWidth(0.3)
    .dash(2, { space: 2 })
    .strokeColor('#999999')
    .stroke()
    .undash();
  pdf
    .moveTo(plot.x, plot.y + plot.height)
    .lineTo(plot.x + plot.width, plot.y + plot.height)
    .lineWidth(0.6)
    .strokeColor('#333333')
    .stroke();
  const n = chart.bars.length;
  if (n === 0) return;
  const slot = plot.width / n;
  const barWidth = Math.max(1, slot * 0.7);
  const stride = labelStride(n, plot.width, 34);
  chart.bars.forEach((bar, i) => {
    const h = (bar.value / top) * plot.height;
    const x = plot.x + i * slot + (slot - barWidth) / 2;
    if (h > 0) pdf.rect(x, plot.y + plot.height - h, barWidth, h).fill('#2E75B6');
    if (i % stride === 0) {
      pdf.fillColor('#333333').text(bar.label, plot.x + i * slot - 10, plot.y + plot.height + 3, {
        width: slot * stride + 20 > 60 ? 60 : slot * stride + 20,
        align: 'left',
        lineBreak: false,
      });
    }
  });
  pdf.fillColor('#000000');
}
