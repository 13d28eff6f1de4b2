import {
  copyColumns,
  copyEncoder,
  copySql,
  encoderFor,
  escapeCopyText,
  quoteTable,
  toCopyText,
} from '../../connectors/postgres/copy-text';
import { toJsonText } from '../../connectors/postgres/json-text';
import { InvalidTimestampError, toTimestampText } from '../../connectors/postgres/timestamps';
import { fixture } from './warehouse-fixtures';

describe('COPY text encoding', () => {
  it('escapes backslash, tab, newline and carriage return, and drops NUL', () => {
    expect(escapeCopyText('plain')).toBe('plain');
    expect(escapeCopyText('a\\b\tc\nd\re\0f')).toBe('a\\\\b\\tc\\nd\\ref');
    expect(escapeCopyText('\\N')).toBe('\\\\N');
  });

  it('writes each kind: NULL, numbers, booleans, timestamps, text, JSON', () => {
    const encode = encoderFor([
      { name: 'id', kind: 'bigint', pgType: 'bigint' },
      { name: 'rate', kind: 'numeric', pgType: 'numeric(12,4)' },
      { name: 'ok', kind: 'boolean', pgType: 'boolean' },
      { name: 'no', kind: 'boolean', pgType: 'boolean' },
      { name: 'at', kind: 'timestamptz', pgType: 'timestamptz' },
      { name: 'note', kind: 'text', pgType: 'text' },
      { name: 'gone', kind: 'text', pgType: 'text' },
      { name: 'raw', kind: 'jsonb', pgType: 'jsonb' },
    ]);
    const line = encode('acme\tx', [
      [7, 0.0125, true, false, '2026-10-30 09:15:02+00', 'a\tb', null, { q: 'say "hi"\n\\' }],
    ]);
    expect(line).toBe(
      'acme\\tx\t7\t0.0125\tt\tf\t2026-10-30 09:15:02+00\ta\\tb\t\\N\t{"q":"say \\\\"hi\\\\"\\\\n\\\\\\\\"}\n',
    );
  });

  it('encodes a slice of rows without copying it', () => {
    const encode = encoderFor([{ name: 'id', kind: 'bigint', pgType: 'bigint' }]);
    expect(encode('a', [[1], [2], [3]], 1, 3)).toBe('a\t2\na\t3\n');
  });

  it('writes the same text as UTF-8 bytes, growing its buffer as needed', () => {
    const encode = encoderFor([
      { name: 'id', kind: 'bigint', pgType: 'bigint' },
      { name: 'note', kind: 'text', pgType: 'text' },
      { name: 'meta', kind: 'jsonb', pgType: 'jsonb' },
      { name: 'at', kind: 'timestamptz', pgType: 'timestamptz' },
      { name: 'raw', kind: 'jsonb', pgType: 'jsonb' },
    ]);
    const notes = ['plain', 'Woźniak', '😀 and \ud800 alone', 'tab\there\\', '', '\0'];
    const rows = Array.from({ length: 300 }, (_, i) => [
      i,
      i % 7 === 0 ? null : (notes[i % notes.length] as string).repeat((i % 5) * 40 + 1),
      i % 3 === 0 ? null : { k: notes[(i + 1) % notes.length], n: i },
      '2026-10-30 09:15:02+00',
      { id: i, clid: '"Ana" <+48>', s: (notes[i % notes.length] as string).repeat(i % 50) },
    ]);
    for (const [start, end] of [
      [0, 300],
      [10, 20],
      [5, 5],
    ] as const) {
      const bytes = encode.bytes('acme\tż', rows, start, end);
      expect(bytes.equals(Buffer.from(encode('acme\tż', rows, start, end), 'utf8'))).toBe(true);
    }
  });

  it('makes the COPY statement and text of a stream', () => {
    expect(copyColumns('ring_groups')[0]).toBe('account');
    expect(copyColumns('ring_groups').at(-1)).toBe('raw');
    expect(copySql('sms')).toMatch(/^COPY "sms" \("account", "id", "created_at", "from", /);
    expect(copySql('sms', 'bench.sms_copy')).toMatch(/^COPY "bench"\."sms_copy" \(/);
    expect(quoteTable('we"ird')).toBe('"we""ird"');
    const text = toCopyText('cdrs', 'acme', [fixture('cdrs')]);
    expect(text.endsWith('\n')).toBe(true);
    expect(text.split('\t')).toHaveLength(copyColumns('cdrs').length);
    expect(copyEncoder('cdrs')).toBe(copyEncoder('cdrs'));
  });
});

describe('timestamps for timestamptz', () => {
  it.each([
    ['2026-10-30 09:15:02', '2026-10-30 09:15:02+00'],
    ['2026-10-30', '2026-10-30 00:00:00+00'],
    ['2026-10-30 9:05', '2026-10-30 09:05:00+00'],
    ['2026-10-30T09:15:02Z', '2026-10-30 09:15:02+00'],
    ['2026-10-30T09:15:02.123+02:00', '2026-10-30 09:15:02.123+02:00'],
    ['2024-02-29 23:59:60', '2024-02-29 23:59:60+00'],
  ])('%s → %s', (input, output) => {
    expect(toTimestampText(input)).toBe(output);
  });

  it.each(['2026-13-01 00:00:00', '2026-02-29 10:00:00', '2026-10-30 24:00:00', '0000-01-01', 'yesterday'])(
    'rejects %s',
    (input) => {
      expect(() => toTimestampText(input)).toThrow(InvalidTimestampError);
    },
  );
});

describe('JSON text for jsonb', () => {
  it('drops NUL and replaces lone surrogates, which jsonb rejects', () => {
    expect(toJsonText({ a: 'x\0y' })).toBe('{"a":"xy"}');
    expect(toJsonText({ a: 'bad \ud800 surrogate' })).toBe('{"a":"bad \\ufffd surrogate"}');
    expect(toJsonText({ a: '😀' })).toBe('{"a":"😀"}');
  });

  it('leaves an escaped backslash before "u0000" alone', () => {
    expect(toJsonText({ a: '\\u0000' })).toBe('{"a":"\\\\u0000"}');
  });

  it('is undefined for undefined', () => {
    expect(toJsonText(undefined)).toBeUndefined();
  });
});
