// Erasing a person from report files and the local e-mail outbox: CSV rewritten (their number to the
// token, their name to "[erased]", other rows untouched), an outbox message whose attached report
// names them deleted, binary formats counted and left.
import { mkdtempSync, readFileSync, existsSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { emlText, eraseFromReportFiles } from '../../activities/erasure-reports';
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

  it('rewrites CSV reports, deletes outbox messages naming them, leaves the rest', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'erasure-reports-'));
    mkdirSync(join(dir, 'acme'));
    writeFileSync(join(dir, 'acme', 'calls.csv'), csv);
    writeFileSync(join(dir, 'acme', 'calls.xlsx'), Buffer.from([0x50, 0x4b, 3, 4]));
    writeFileSync(join(dir, 'theirs.eml'), eml(csv));
    writeFileSync(join(dir, 'other.eml'), eml('caller\r\n+44 20 7946 0018\r\n'));
    const done = await eraseFromReportFiles(dir, matcher, ['Alice Liddell']);
    expect(done).toEqual({ rewritten: 1, deleted: 1, binary: 1 });
    expect(readFileSync(join(dir, 'acme', 'calls.csv'), 'utf8')).toBe(
      `caller,name,minutes\r\n${token},[erased],3\r\n+44 20 7946 0018,Bob Jones,5\r\n`,
    );
    expect(existsSync(join(dir, 'theirs.eml'))).toBe(false);
    expect(existsSync(join(dir, 'other.eml'))).toBe(true);
    expect(await eraseFromReportFiles(dir, matcher, ['Alice Liddell'])).toEqual({
      rewritten: 0,
      deleted: 0,
      binary: 1,
    });
  });
});
