// Parsing COPY text lines into typed report cells.
import { parseCopyLine, unescapeCopyText } from '../../reports/copy-rows';

describe('parseCopyLine', () => {
  it('types each field by its column: numbers, epoch-ms instants, booleans, NULL, text', () => {
    expect(
      parseCopyLine('7\t1761350399900\tAnna\t\\N\t3725\t0.1234\tt', [
        'integer',
        'datetime',
        'text',
        'text',
        'duration',
        'money',
        'boolean',
      ]),
    ).toEqual([7, new Date(1761350399900), 'Anna', null, 3725, 0.1234, true]);
  });

  it('keeps an empty text field as empty text (NULL is \\N)', () => {
    expect(parseCopyLine('\t\\N', ['text', 'text'])).toEqual(['', null]);
  });
});

describe('unescapeCopyText', () => {
  it('resolves the escapes COPY text writes', () => {
    expect(unescapeCopyText('a\\tb\\nc\\\\d\\re')).toBe('a\tb\nc\\d\re');
    expect(unescapeCopyText('\\101\\x42')).toBe('AB');
    expect(unescapeCopyText('plain ünïcode')).toBe('plain ünïcode');
  });
});
