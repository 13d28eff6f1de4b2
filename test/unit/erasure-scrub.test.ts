// Erasure's matching and anonymising of one record: every stored form of a number, names next to it,
// conversation text; the suppression list's hash-only matcher leaves the same shape as the erasure.
import {
  erasedToken,
  identifierHash,
  keyedHasher,
  parseSubject,
  referenceHmac,
  subjectHashes,
} from '../../lib/erasure/identity';
import { subjectMatcher, suppressionMatcher } from '../../lib/erasure/matchers';
import { scrubRecord } from '../../lib/erasure/scrub';

const key = Buffer.from('0123456789abcdef0123456789abcdef');
const subject = parseSubject({ number: '+44 7911 123456' }, 'GB');
const token = erasedToken(identifierHash(key, 'number', '+447911123456'));

describe('erasure matching', () => {
  const m = subjectMatcher(key, subject, 'GB');

  it('recognises every stored form of the number as a whole value', () => {
    for (const form of [
      '+447911123456',
      '447911123456',
      '00447911123456',
      '07911 123456',
      '+44 (0)7911-123-456',
    ]) {
      expect(m.matchValue(form)).toBe(token);
    }
    expect(m.matchValue('+447911123457')).toBeNull();
    expect(m.matchValue('101')).toBeNull();
  });

  it('replaces the number inside free text, in any form, and nothing else', () => {
    expect(m.replaceInText('call back 07911 123456 or +44 7911 123456, not 079111234567')).toBe(
      `call back ${token} or ${token}, not 079111234567`,
    );
  });

  it('refuses a subject that is not a number or an e-mail, naming the option', () => {
    expect(() => parseSubject({ number: 'abc' }, 'GB')).toThrow(/--number/);
    expect(() => parseSubject({ email: 'nope' }, 'GB')).toThrow(/--email/);
    expect(() => parseSubject({}, 'GB')).toThrow(/exactly one/);
  });
});

describe('scrubRecord', () => {
  const m = subjectMatcher(key, subject, 'GB');
  const cdr = {
    src: '07911123456',
    src_name: 'Alice Liddell',
    dst: '101',
    dst_name: 'Amelia',
    clid: '"Alice Liddell" <07911123456>',
    raw: { src: '447911123456', src_name: 'Alice Liddell', note: 'Alice Liddell rang', transcript: 'hi' },
  };

  it('hashes numbers, nulls the names next to them and deletes conversation text', () => {
    const r = scrubRecord(cdr, { matcher: m });
    expect(r.person).toBe(true);
    expect(r.names).toContain('Alice Liddell');
    expect(r.value).toEqual({
      src: token,
      src_name: null,
      dst: '101',
      dst_name: 'Amelia',
      clid: token,
      raw: { src: token, src_name: null, note: '[erased] rang', transcript: null },
    });
  });

  it('leaves a record of somebody else untouched', () => {
    const other = { src: '+447911123999', src_name: 'Bob' };
    expect(scrubRecord(other, { matcher: m })).toEqual({
      value: other,
      changed: false,
      person: false,
      names: [],
    });
  });

  it('the suppression list (hashes only) anonymises a later record the same way', () => {
    const hashes = new Set(subjectHashes(key, subject).map((h) => h.hash));
    const s = suppressionMatcher(key, hashes, 'GB');
    const later = scrubRecord(cdr, { matcher: s });
    expect(later.value).toEqual(scrubRecord(cdr, { matcher: m }).value);
    expect(s.matchValue('+447911123999')).toBeNull();
    expect(s.replaceInText('ring 07911 123456 today')).toBe(`ring ${token} today`);
  });

  it('deletes the text of an SMS from an erased number (it may hold their name and e-mail)', () => {
    const hashes = new Set(subjectHashes(key, subject).map((h) => h.hash));
    const received = {
      id: 'sms-1',
      event_name: 'sms.received',
      from_no: '447911123456',
      to_no: '442071234567',
      text: 'Alice here, write to alice@example.org',
    };
    for (const matcher of [m, suppressionMatcher(key, hashes, 'GB')]) {
      expect(scrubRecord(received, { matcher }).value).toEqual({ ...received, from_no: token, text: null });
    }
  });

  it('matches e-mails case-insensitively', () => {
    const e = parseSubject({ email: 'Alice@Example.com' }, 'GB');
    const em = subjectMatcher(key, e, 'GB');
    const r = scrubRecord({ visitor_email: 'ALICE@example.com', visitor_name: 'Alice' }, { matcher: em });
    expect(r.value).toEqual({
      visitor_email: erasedToken(identifierHash(key, 'email', 'alice@example.com')),
      visitor_name: null,
    });
  });
});

describe('keyedHasher', () => {
  it('is HMAC-SHA256, for short, long and absent keys', () => {
    for (const k of [key, Buffer.alloc(100, 3), undefined]) {
      for (const v of ['+447911123456', '', 'ä€']) {
        expect(keyedHasher(k)('number', v)).toBe(referenceHmac(k, 'number', v));
      }
    }
  });
});
