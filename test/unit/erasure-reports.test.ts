// Erasing a person from report files and the local e-mail outbox: CSV and XLSX rewritten (their
// number to the token, their name to "[erased]", other rows untouched), an outbox message whose
// attached report names them deleted, formats callsync does not write and damaged files counted and
// left. (PDFs need
// pdftotext: test/integration/erasure-bigquery-reports.test.ts.)
import { mkdtempSync, readFileSync, existsSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import { emlText, eraseFromReportFiles, regenerateCommand } from '../../activities/erasure-reports';
import type { ReportRunRow } from '../../connectors/postgres';
import { erasedToken, identifierHash, parseSubject } from '../../lib/erasure/identity';
import { subjectMatcher } from '../../lib/erasure/matchers';

const key = Buffer.from('0123456789abcdef0123456789abcdef');
const matcher = subjectMatcher(key, parseSubject({ number: '+447911123456' }, 'GB'), 'GB');
const token = erasedToken(identifierHash(key, 'number', '+447911123456'));

const csv = 'caller,name,minutes\r\n07911 123456,Alice Liddell,3\r\n+44 20 7946 0018,Bob Jones,5\r\n';
const eml = (body: string) =>
  [
    'Subject: Calls report',
    'Content-Type: multipart/mixed; boundary="b"',
    '',
    '--b',
    'Content-Type: text/plain',
    '',
    'The report is attached.',
    '--b',
    'Content-Type: text/csv; name=calls.csv',
    'Content-Transfer-Encoding: base64',
    'Content-Disposition: attachment; filename=calls.csv',
    '',
    ...(Buffer.from(body)
      .toString('base64')
      .match(/.{1,76}/g) ?? []),
    '--b--',
    '',
  ].join('\r\n');

describe('eraseFromReportFiles', () => {
  it('reads the attached report of an outbox message', () => {
    expect(emlText(eml(csv))).toContain('07911 123456,Alice Liddell');
  });

  it('rewrites CSV and XLSX reports, deletes outbox messages naming them, leaves the rest', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'erasure-reports-'));
    mkdirSync(join(dir, 'acme'));
    writeFileSync(join(dir, 'acme', 'calls.csv'), csv);
    const book = new ExcelJS.Workbook();
    const sheet = book.addWorksheet('Calls');
    sheet.addRow(['caller', 'name', 'minutes']);
    sheet.addRow([447911123456, 'Alice Liddell', 3]);
    sheet.addRow(['+44 20 7946 0018', 'Bob Jones', 5]);
    sheet.getCell('A1').font = { bold: true };
    await book.xlsx.writeFile(join(dir, 'acme', 'calls.xlsx'));
    const untouched = new ExcelJS.Workbook();
    untouched.addWorksheet('Calls').addRow(['+44 20 7946 0018', 'Bob Jones', 5]);
    await untouched.xlsx.writeFile(join(dir, 'acme', 'others.xlsx'));
    const othersBefore = readFileSync(join(dir, 'acme', 'others.xlsx'));
    writeFileSync(join(dir, 'acme', 'calls.docx'), Buffer.from([0x50, 0x4b, 3, 4]));
    // A damaged workbook: left as it is and counted, not a failed erasure.
    writeFileSync(
      join(dir, 'acme', 'broken.xlsx'),
      Buffer.from('PK\u0003\u0004 not a workbook 07911 123456'),
    );
    writeFileSync(join(dir, 'theirs.eml'), eml(csv));
    writeFileSync(join(dir, 'other.eml'), eml('caller\r\n+44 20 7946 0018\r\n'));
    const done = await eraseFromReportFiles(dir, matcher, ['Alice Liddell']);
    expect(done).toEqual({ rewritten: 2, deleted: 1, removed: [], unread: 2 });
    expect(readFileSync(join(dir, 'acme', 'calls.csv'), 'utf8')).toBe(
      `caller,name,minutes\r\n${token},[erased],3\r\n+44 20 7946 0018,Bob Jones,5\r\n`,
    );
    const after = new ExcelJS.Workbook();
    await after.xlsx.readFile(join(dir, 'acme', 'calls.xlsx'));
    const rows = after
      .getWorksheet('Calls')!
      .getSheetValues()
      .slice(1)
      .map((r) => (r as unknown[]).slice(1));
    expect(rows).toEqual([
      ['caller', 'name', 'minutes'],
      [token, '[erased]', 3],
      ['+44 20 7946 0018', 'Bob Jones', 5],
    ]);
    expect(after.getWorksheet('Calls')!.getCell('A1').font?.bold).toBe(true);
    expect(readFileSync(join(dir, 'acme', 'others.xlsx')).equals(othersBefore)).toBe(true);
    expect(existsSync(join(dir, 'theirs.eml'))).toBe(false);
    expect(existsSync(join(dir, 'other.eml'))).toBe(true);
    expect(await eraseFromReportFiles(dir, matcher, ['Alice Liddell'])).toEqual({
      rewritten: 0,
      deleted: 0,
      removed: [],
      unread: 2,
    });
  });
});

describe('regenerateCommand', () => {
  const run = (label: string) =>
    ({ id: 41, account: 'acme', schedule_id: 7, period_label: label }) as ReportRunRow;
  it('names the report run that wrote a deleted file, by schedule and period', () => {
    expect(regenerateCommand(run('2026-10'))).toBe(
      'callsync reports run report-acme-7 --period 2026-10 --force',
    );
    expect(regenerateCommand(run('2026-W40'))).toBe(
      'callsync reports run report-acme-7 --period 2026-W40 --force',
    );
    expect(regenerateCommand(run('2026-10-01..2026-10-15'))).toMatch(
      /^callsync reports run report-acme-7 --from <first day> --to <last day> \(period .*callsync reports show 41\)/,
    );
    expect(regenerateCommand(undefined)).toMatch(/^no report run wrote it/);
  });
});
