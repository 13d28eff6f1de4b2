// The pure parts of CSV through COPY: the culture's to_char pattern and CRLF record ends.
import { Readable } from 'node:stream';
import { cultureFor } from '../../reports/culture';
import { CrlfRecords, toCharDateTimePattern } from '../../reports/formats/csv-copy';

describe('toCharDateTimePattern', () => {
  it('follows each locale’s field order and separators', () => {
    expect(toCharDateTimePattern(cultureFor('de-DE'))).toBe('DD"."MM"."YYYY", "HH24":"MI":"SS');
    expect(toCharDateTimePattern(cultureFor('en-US'))).toBe('MM"/"DD"/"YYYY", "HH24":"MI":"SS');
    expect(toCharDateTimePattern(cultureFor('fr-FR'))).toBe('DD"/"MM"/"YYYY" "HH24":"MI":"SS');
  });

  it('gives up on digits to_char cannot write', () => {
    expect(toCharDateTimePattern({ ...cultureFor('en-GB'), tag: 'ar-EG' })).toBeUndefined();
  });
});

describe('CrlfRecords', () => {
  it('ends records in CRLF, keeps quoted line breaks, counts and hashes what passes', async () => {
    const crlf = new CrlfRecords();
    const chunks: Buffer[] = [];
    crlf.on('data', (c: Buffer) => chunks.push(c));
    const done = new Promise((r) => crlf.on('end', r));
    // A quoted cell split across chunks keeps its line break as LF.
    Readable.from([Buffer.from('a,"x\n'), Buffer.from('y"\nb,c\n')]).pipe(crlf);
    await done;
    const out = Buffer.concat(chunks).toString();
    expect(out).toBe('a,"x\ny"\r\nb,c\r\n');
    expect(crlf.bytes).toBe(Buffer.byteLength(out));
    expect(crlf.hash.digest('hex')).toMatch(/^[0-9a-f]{64}$/);
  });
});
