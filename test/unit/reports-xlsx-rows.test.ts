// writeXlsx renders its data rows itself (reports/formats/xlsx-rows.ts) instead of through exceljs's
// Row and Cell objects: the workbook it writes must read back exactly as the one exceljs's own row
// path writes (values, types, number formats, header), and the sheet must stream with backpressure.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import type { Cell, LocalizedColumn, ReportRow } from '../../reports/columns';
import { cultureFor } from '../../reports/culture';
import type { ReportDocument } from '../../reports/formats/document';
import { excelNumberFormat, excelValue, sheetName, writeXlsx } from '../../reports/formats/xlsx';
import { copyBytesRenderer } from '../../reports/formats/xlsx-copy-bytes';
import { columnLetters, sheetRowRenderer, xmlText } from '../../reports/formats/xlsx-rows';
import { parseCopyLine } from '../../reports/copy-rows';
import { wallClockMsConverter } from '../../reports/zone';
import { wallClockConverter } from '../../reports/zone';

// A full collection on demand (as --expose-gc gives), so the test measures memory still held.
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'callsync-xlsx-rows-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const columns: LocalizedColumn[] = [
  { key: 'id', header: 'Id', type: 'integer', width: 8 },
  { key: 'at', header: 'Started at', type: 'datetime', width: 18 },
  { key: 'day', header: 'Day', type: 'date', width: 12 },
  { key: 'name', header: 'Name', type: 'text', width: 20 },
  { key: 'talk', header: 'Talk', type: 'duration', width: 10 },
  { key: 'cost', header: 'Cost', type: 'money', width: 10 },
  { key: 'rate', header: 'Rate', type: 'percent', width: 10 },
  { key: 'avg', header: 'Average', type: 'decimal', width: 10 },
  { key: 'ok', header: 'Answered', type: 'boolean', width: 10 },
];

const ROWS: ReportRow[] = [
  [
    1,
    new Date('2026-10-25T00:30:00.250Z'),
    '2026-10-25',
    'Zoë <Müller> & "Sons" \'Ltd\'',
    3725,
    0.0126,
    0.5,
    2.25,
    true,
  ],
  [2, new Date('2026-03-29T01:30:00Z'), '2026-03-29', '', 0, -1.5, 0, 1e-7, false],
  [null, null, null, null, null, null, null, null, null],
  [3, new Date('2026-07-01T11:00:00Z'), null, 'tab\tnew\nline\u0001bell\u007f', 59.5, 12345678.9, 1, 3, null],
  [4, null, '2027-01-01', 'trailing nulls', null, null, null, null, null],
];

function doc(rows: AsyncIterable<ReportRow>, timeZone = 'Europe/London'): ReportDocument {
  return {
    title: 'Billing: all / calls',
    subtitle: [],
    columns,
    culture: cultureFor('de-DE'),
    timeZone,
    rows,
  };
}

async function* from(rows: readonly ReportRow[]): AsyncIterable<ReportRow> {
  yield* rows;
}

/** The reference: every row through exceljs's Row objects, each cell styled with its column's number format. */
async function writeThroughExceljs(d: ReportDocument, outPath: string): Promise<void> {
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({
    filename: outPath,
    useStyles: true,
    useSharedStrings: false,
  });
  const sheet = workbook.addWorksheet(sheetName(d.title), {
    views: [{ state: 'frozen', ySplit: 1, xSplit: 0 }],
  });
  sheet.columns = d.columns.map((c) => ({ header: c.header, key: c.key, width: c.width }));
  const header = sheet.getRow(1);
  header.font = { bold: true, color: { argb: 'FFFFFFFF' } };
  header.commit();
  const styles = d.columns.map((c): Partial<ExcelJS.Style> => {
    const numFmt = excelNumberFormat(c.type, d.culture);
    return numFmt ? { numFmt } : {};
  });
  const toLocal = wallClockConverter(d.timeZone);
  for await (const row of d.rows) {
    const added = sheet.addRow(row.map((cell, i) => excelValue(cell, d.columns[i]?.type ?? 'text', toLocal)));
    added.eachCell((cell, n) => {
      cell.style = styles[n - 1] as ExcelJS.Style;
    });
    added.commit();
  }
  sheet.commit();
  await workbook.commit();
}

/** Every cell of the first sheet: address, type, value and number format. */
async function cellsOf(path: string): Promise<unknown[]> {
  const book = new ExcelJS.Workbook();
  await book.xlsx.readFile(path);
  const sheet = book.worksheets[0] as ExcelJS.Worksheet;
  const cells: unknown[] = [sheet.name, sheet.rowCount, sheet.views];
  sheet.eachRow({ includeEmpty: true }, (row) => {
    row.eachCell({ includeEmpty: true }, (c) => {
      const value = c.value instanceof Date ? c.value.toISOString() : c.value;
      cells.push([c.address, c.type, value, c.numFmt ?? null]);
    });
  });
  return cells;
}

describe('writeXlsx row rendering', () => {
  it.each(['Europe/London', 'America/New_York', 'UTC'])(
    'reads back as exceljs writes it (%s)',
    async (zone) => {
      const ours = join(dir, `ours-${zone.replace('/', '-')}.xlsx`);
      const reference = join(dir, `ref-${zone.replace('/', '-')}.xlsx`);
      expect(await writeXlsx(doc(from(ROWS), zone), ours)).toBe(ROWS.length);
      await writeThroughExceljs(doc(from(ROWS), zone), reference);
      const got = await cellsOf(ours);
      expect(got).toEqual(await cellsOf(reference));
      // Not vacuous: the rows are there, typed.
      // (exceljs reads a cell with a time format back as a date: 3725 s is 01:02:05.)
      expect(got).toContainEqual(['E2', ExcelJS.ValueType.Date, '1899-12-30T01:02:05.000Z', '[h]:mm:ss']);
      expect(got).toContainEqual(['F2', ExcelJS.ValueType.Number, 0.0126, '#,##0.00##']);
      expect(got).toContainEqual(['D2', ExcelJS.ValueType.String, 'Zoë <Müller> & "Sons" \'Ltd\'', null]);
    },
  );

  it('renders COPY text bytes as the rows parseCopyLine reads from them', () => {
    const layout = {
      types: columns.map((c) => c.type),
      styleIds: [2, 3, 4, 0, 5, 6, 7, 8, 0],
      toLocalMs: wallClockMsConverter('Europe/London'),
    };
    // Tabs between fields, \N for NULL, backslash escapes in text (PostgreSQL's COPY text format).
    const lines = [
      '1\t1792888200250\t2026-10-25\tZo\u00eb <M\u00fcller> & "Sons" \\t\\n\\\\ \\101\t3725\t0.0126\t0.5\t2.25\tt',
      '2\t\\N\t\\N\t\t0\t-1.5\t0\t1e-7\tf',
      '\\N\t\\N\t\\N\t\\N\t\\N\t\\N\t\\N\t\\N\t\\N',
      '',
      '-3\t1777777777777\t2027-03-28\tplain \u65e5\u672c \u00e9t\u00e9\t59.5\t12345678.9\t1\tNaN\tt',
      "4\t0\t1970-01-01\tbell\u0001 del\u007f 'q' a>b\t\\N\t-0.5\t0.25\t-12\t\\N",
    ];
    const text = lines.map((l) => `${l}\n`).join('');
    const row = sheetRowRenderer(layout);
    const expected = lines.map((l, i) => row(i + 7, parseCopyLine(l, layout.types))).join('');
    // In two blocks, split at a line: the renderer holds the XML of both until taken.
    const renderer = copyBytesRenderer(layout, 64);
    const bytes = Buffer.from(text, 'utf8');
    const cut = bytes.indexOf('\n') + 1;
    expect(renderer.add(bytes.subarray(0, cut), 7)).toBe(1);
    expect(renderer.add(bytes.subarray(cut), 8)).toBe(lines.length - 1);
    expect(renderer.size).toBe(Buffer.byteLength(expected));
    expect(renderer.take().toString('utf8')).toBe(expected);
    expect(renderer.size).toBe(0);
    expect(expected).toContain(
      '<c r="D7" t="str"><v>Zoë &lt;Müller&gt; &amp; &quot;Sons&quot; \t\n\\ A</v></c>',
    );
    expect(expected).toContain('<c r="D11" t="str"><v>plain 日本 été</v></c>');
    expect(expected).toContain('<row r="9"></row>');
  });

  it('keeps the digits PostgreSQL wrote for a plain number, and converts any other', () => {
    const layout = { types: ['money', 'integer'] as const, styleIds: [0, 0], toLocalMs: (ms: number) => ms };
    const renderer = copyBytesRenderer(layout);
    renderer.add(Buffer.from('0.0150\t007\n1e3\t-\n'), 2);
    expect(renderer.take().toString()).toBe(
      '<row r="2"><c r="A2"><v>0.0150</v></c><c r="B2"><v>007</v></c></row>' +
        '<row r="3"><c r="A3"><v>1000</v></c><c r="B3"><v>NaN</v></c></row>',
    );
  });

  it('escapes XML and drops the characters XML cannot hold, as exceljs does', () => {
    expect(xmlText('a<b>&"c\'')).toBe('a&lt;b&gt;&amp;&quot;c&apos;');
    expect(xmlText('tab\tnl\ncr\rbell\u0001del\u007f')).toBe('tab\tnl\ncr\rbelldel');
    expect(xmlText('plain')).toBe('plain');
    expect([1, 26, 27, 52, 53, 702, 703].map(columnLetters)).toEqual([
      'A',
      'Z',
      'AA',
      'AZ',
      'BA',
      'ZZ',
      'AAA',
    ]);
  });

  it('waits for the zip instead of holding the sheet in memory', async () => {
    // 150k rows are about 70 MB of sheet XML: without backpressure most of it waits in memory for
    // the deflater. The rows are pulled only as fast as the zip takes them, so buffers stay small.
    const cells: Cell[] = [
      0,
      new Date('2026-10-01T00:00:00Z'),
      '2026-10-01',
      'User Number 1',
      60,
      0.0125,
      0.5,
      1.5,
      true,
    ];
    let peakBuffers = 0;
    async function* many(): AsyncIterable<ReportRow> {
      for (let i = 1; i <= 150_000; i++) {
        if (i % 10_000 === 0) {
          // What is still held, not garbage a later collection would free.
          gc();
          peakBuffers = Math.max(peakBuffers, process.memoryUsage().arrayBuffers);
        }
        cells[0] = i;
        yield cells;
      }
    }
    gc();
    const before = process.memoryUsage().arrayBuffers;
    expect(await writeXlsx(doc(many()), join(dir, 'many.xlsx'))).toBe(150_000);
    expect((peakBuffers - before) / 2 ** 20).toBeLessThan(24);
  }, 180_000);
});
