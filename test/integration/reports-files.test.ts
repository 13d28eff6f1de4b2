// Report files built from a real PostgreSQL and read back: CSV parsed with csv-parse, XLSX read
// with exceljs (typed cells, frozen and styled header), PDF text extracted with poppler's
// pdftotext; and a 200,000-row billing CSV built without the rows piling up in memory.
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { parse } from 'csv-parse/sync';
import ExcelJS from 'exceljs';
import { sql } from 'kysely';
import {
  billingReportQuery,
  buildReportFile,
  defaultCatalogue,
  reportCatalogueSchema,
  UnknownReportError,
  type ReportRequest,
} from '../../reports';
import { ACCOUNT, LONDON_OCT_25, loadReportFixtures } from './reports-fixtures';
import { createMigratedWarehouse, type MigratedWarehouse } from './warehouse-db';

const run = promisify(execFile);

async function pdfToText(path: string): Promise<string> {
  try {
    const { stdout } = await run('pdftotext', ['-layout', path, '-']);
    return stdout;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') {
      throw new Error(
        'pdftotext is missing: install Debian package poppler-utils (apt-get install poppler-utils, or run .ci/run)',
        { cause: err },
      );
    }
    throw err;
  }
}

describe('report files', () => {
  let w: MigratedWarehouse;
  let dir: string;
  const catalogue = defaultCatalogue();
  const request = (reportId: number, format: ReportRequest['format'], culture = 'en-GB'): ReportRequest => ({
    account: ACCOUNT,
    reportId,
    period: LONDON_OCT_25,
    format,
    culture,
  });

  beforeAll(async () => {
    w = await createMigratedWarehouse('reports_files');
    await loadReportFixtures(w);
    dir = await mkdtemp(join(tmpdir(), 'callsync-reports-'));
  });
  afterAll(async () => {
    await w.dispose();
    await rm(dir, { recursive: true, force: true });
  });

  it('CSV in German: semicolons, decimal commas, local times, translated headers, checksum', async () => {
    const out = join(dir, 'billing-de.csv');
    const built = await buildReportFile(w.db, request(7, 'csv', 'de-DE'), catalogue, out, { pool: w.pool });
    const bytes = await readFile(out);
    expect(built.rows).toBe(3);
    expect(built.bytes).toBe(bytes.length);
    const { createHash } = await import('node:crypto');
    expect(built.sha256).toBe(createHash('sha256').update(bytes).digest('hex'));
    const records: string[][] = parse(bytes, { bom: true, delimiter: ';' });
    expect(records[0]).toEqual([
      'Anruf-ID',
      'Beginn',
      'Benutzer',
      'Von',
      'An',
      'Richtung',
      'Abgerechnete Zeit',
      'Tarif pro Minute',
      'Kosten',
    ]);
    // Call 1 started 23:30 UTC on the 24th = 00:30 BST on the 25th; 60 s; 0.60 at 0.60/min.
    expect(records[1]).toEqual([
      '1',
      '25.10.2026, 00:30:00',
      'Anna Kowalska',
      '101',
      '+61293744000',
      'out',
      '0:01:00',
      '0,60',
      '0,60',
    ]);
    // Call 9 started 23:50 GMT and ran 20 minutes past midnight.
    expect(records[3]).toEqual([
      '9',
      '25.10.2026, 23:50:00',
      'Ben Okafor',
      '102',
      '+442079460003',
      'out',
      '0:20:00',
      '0,06',
      '1,20',
    ]);
    expect(records).toHaveLength(4);
  });

  it('CSV in English uses commas; a rebuilt file is identical', async () => {
    const a = await buildReportFile(w.db, request(1, 'csv'), catalogue, join(dir, 'summary.csv'));
    const b = await buildReportFile(w.db, request(1, 'csv'), catalogue, join(dir, 'summary.csv'));
    expect(b).toEqual(a);
    const records: string[][] = parse(await readFile(join(dir, 'summary.csv')), { bom: true });
    expect(records[1]).toEqual(['Anna Kowalska', '101', '3', '1', '2', '66.7%', '1', '0:06:00', '0:02:00']);
  });

  it('XLSX: typed cells, local date-times, durations with a format, header styled and frozen', async () => {
    const out = join(dir, 'billing.xlsx');
    const built = await buildReportFile(w.db, request(7, 'xlsx'), catalogue, out);
    expect(built.rows).toBe(3);
    const book = new ExcelJS.Workbook();
    await book.xlsx.readFile(out);
    const sheet = book.worksheets[0];
    if (!sheet) throw new Error('no worksheet');
    expect(sheet.name).toBe('Billing charged calls');
    expect(sheet.views[0]).toMatchObject({ state: 'frozen', ySplit: 1 });
    const header = sheet.getRow(1);
    expect(header.getCell(1).value).toBe('Call id');
    expect(header.getCell(1).font?.bold).toBe(true);
    const row = sheet.getRow(2);
    expect(row.getCell(1).value).toBe(1);
    // Excel has no zones: 23:30 UTC is written as the London wall-clock time 00:30.
    expect(row.getCell(2).value).toEqual(new Date('2026-10-25T00:30:00Z'));
    expect(row.getCell(2).numFmt).toBe('dd/mm/yyyy hh:mm');
    // 60 s stored as the number 60/86400 (a fraction of a day) under [h]:mm:ss; exceljs reads a
    // number under a time format back as that many days after Excel's epoch, 1899-12-30.
    expect(row.getCell(7).value).toEqual(new Date('1899-12-30T00:01:00Z'));
    expect(row.getCell(7).numFmt).toBe('[h]:mm:ss');
    expect(row.getCell(9).value).toBe(0.6);
    expect(typeof sheet.getRow(4).getCell(9).value).toBe('number');
    expect(sheet.getColumn(3).width).toBeGreaterThanOrEqual(20);
  });

  it('PDF: title, period, figures and the hourly chart, read back by pdftotext', async () => {
    const out = join(dir, 'summary.pdf');
    const built = await buildReportFile(w.db, request(1, 'pdf'), catalogue, out);
    expect(built.rows).toBe(2);
    const text = await pdfToText(out);
    expect(text).toContain('Call summary per user');
    expect(text).toContain('Period: 2026-10-25');
    expect(text).toContain('Calls per hour');
    expect(text).toMatch(/Anna Kowalska\s+101\s+3\s+1\s+2\s+66\.7%\s+1\s+0:06:00\s+0:02:00/);
    expect(text).toMatch(/Ben Okafor\s+102\s+3\s+2\s+2\s+66\.7%\s+1\s+0:24:00\s+0:06:00/);
  });

  it('PDF in French, with the queue note, capped rows and the note saying so', async () => {
    const capped = reportCatalogueSchema.parse({ '7': { kind: 'billing', pdfMaxRows: 2 } });
    const out = join(dir, 'billing-fr.pdf');
    const built = await buildReportFile(w.db, request(7, 'pdf', 'fr-FR'), capped, out);
    expect(built.rows).toBe(3); // all counted, two shown
    const text = await pdfToText(out);
    expect(text).toContain('Facturation : appels payants');
    expect(text).toMatch(/Ce PDF montre les 2 premières lignes sur 3/);
    expect(text).toContain('+61293744000');
    expect(text).not.toContain('+442079460003');
    await buildReportFile(w.db, request(4, 'pdf', 'fr-FR'), catalogue, join(dir, 'queue-fr.pdf'));
    const queue = await pdfToText(join(dir, 'queue-fr.pdf'));
    expect(queue).toContain('Niveau de service : répondus en 20 s au plus');
    expect(queue).toMatch(/Support\s+3\s+2\s+1\s+66,7\s?%\s+33,3\s?%\s+0:00:30\s+0:00:45/);
  });

  it('an unknown report id leaves no file behind', async () => {
    const out = join(dir, 'unknown.csv');
    await expect(buildReportFile(w.db, request(42, 'csv'), catalogue, out)).rejects.toThrow(
      UnknownReportError,
    );
    await expect(readFile(out)).rejects.toThrow(/ENOENT/);
  });

  it("CSV through COPY is byte for byte the JS writer's, in every culture, quoting included", async () => {
    // Cells COPY and csv-stringify could quote differently: delimiters, quotes, a line break,
    // empty text, a missing user, sub-cent money and a duration over an hour.
    await sql`
      insert into cdrs (account, id, calldate, type, user_id, src, dst, destination, billsec, rate, charge, raw)
      values
        ('quirky', 1, timestamptz '2026-10-25 00:59:59.900+00', 'O', null, 'a;b,c "q"', e'line\nbreak', '', 3725, 0.1234, 12.5, '{}'),
        ('quirky', 2, timestamptz '2026-10-25 12:00:00+00', 'O', null, '', null, 'out', 0, 0.001, 0.0001, '{}'),
        ('quirky', 3, timestamptz '2026-10-25 23:59:00+00', 'O', null, ' x ', '9', 'in', 59, 1, 1234567.89, '{}')
    `.execute(w.db);
    for (const culture of ['en-GB', 'en-US', 'de-DE', 'fr-FR', 'es-ES']) {
      const req = { ...request(7, 'csv', culture), account: 'quirky' };
      const viaJs = await buildReportFile(w.db, req, catalogue, join(dir, `js-${culture}.csv`));
      const viaCopy = await buildReportFile(w.db, req, catalogue, join(dir, `copy-${culture}.csv`), {
        pool: w.pool,
      });
      const copied = await readFile(join(dir, `copy-${culture}.csv`), 'utf8');
      expect(copied).toBe(await readFile(join(dir, `js-${culture}.csv`), 'utf8'));
      expect(viaCopy).toEqual(viaJs);
      expect(viaCopy.rows).toBe(3);
    }
    // XLSX from COPY text rows holds the same cells as from the cursor.
    const req = { ...request(7, 'xlsx'), account: 'quirky' };
    await buildReportFile(w.db, req, catalogue, join(dir, 'cursor.xlsx'));
    const viaCopy = await buildReportFile(w.db, req, catalogue, join(dir, 'copy.xlsx'), { pool: w.pool });
    expect(viaCopy.rows).toBe(3);
    const values = async (name: string) => {
      const book = new ExcelJS.Workbook();
      await book.xlsx.readFile(join(dir, name));
      return book.worksheets[0]?.getSheetValues();
    };
    const fromCopy = await values('copy.xlsx');
    expect(fromCopy).toEqual(await values('cursor.xlsx'));
    expect(fromCopy?.[2]).toEqual([
      undefined,
      1,
      new Date('2026-10-25T01:59:59.900Z'),
      undefined,
      'a;b,c "q"',
      'line\nbreak',
      undefined,
      // [h]:mm:ss cells read back as dates from Excel's epoch.
      new Date('1899-12-30T01:02:05.000Z'),
      0.1234,
      12.5,
    ]);
  });

  it('streams: a 200,000-row billing CSV without the rows in memory, same rows as COPY', async () => {
    // 200,000 charged calls on 2026-11-10 for account "big" (one every 0.4 s), inserted by SQL.
    await sql`
      insert into cdrs (account, id, calldate, type, user_id, src, dst, destination, billsec, rate, charge, raw)
      select 'big', n, timestamptz '2026-11-10 00:00:00+00' + (n * interval '400 milliseconds'), 'O', 12,
             '101', '+4420794' || lpad(n::text, 5, '0'), 'out', 60, 0.05, 0.05, '{}'::jsonb
      from generate_series(1, 200000) as n`.execute(w.db);
    const big: ReportRequest = {
      account: 'big',
      reportId: 7,
      period: {
        from: new Date('2026-11-10T00:00:00Z'),
        to: new Date('2026-11-11T00:00:00Z'),
        timezone: 'UTC',
        label: '2026-11-10',
      },
      format: 'csv',
      culture: 'en-GB',
    };
    // Live heap (after a full collection) sampled while the file is built: garbage does not count,
    // rows kept would.
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    gc();
    const base = process.memoryUsage().heapUsed;
    let peak = base;
    const sampler = setInterval(() => {
      gc();
      peak = Math.max(peak, process.memoryUsage().heapUsed);
    }, 2000);
    const built = await buildReportFile(w.db, big, catalogue, join(dir, 'big.csv'), { pool: w.pool });
    clearInterval(sampler);
    expect(built.rows).toBe(200_000);
    // Held in memory, 200,000 rows would be over 100 MB of objects; streamed, the live heap grows
    // by the cursor's chunk and the writers' buffers.
    expect((peak - base) / 2 ** 20).toBeLessThan(32);
    // The benchmark's baseline query is the same query: its COPY yields as many rows.
    const { copySql } = billingReportQuery(w.db, big);
    const counted = await w.pool.query<{ n: string }>(`select count(*) as n from (${copySql}) q`);
    expect(Number(counted.rows[0]?.n)).toBe(200_000);
  }, 120_000);
});
