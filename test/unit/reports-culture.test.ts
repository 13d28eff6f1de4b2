// Cultures of the reports: Intl formatting of numbers, dates and durations, CSV delimiters,
// Excel date patterns, and dictionaries that all carry the same words.
import {
  cellFormatter,
  cultureFor,
  excelDatePattern,
  formatDuration,
  translate,
  UnknownCultureError,
} from '../../reports/culture';
import { DICTIONARIES } from '../../reports/culture-dictionary';

describe('report cultures', () => {
  it('CSV delimiter follows the decimal separator', () => {
    expect(cultureFor('en-GB').csvDelimiter).toBe(',');
    expect(cultureFor('en-US').csvDelimiter).toBe(',');
    for (const tag of ['de-DE', 'fr-FR', 'es-ES']) {
      expect(cultureFor(tag)).toMatchObject({ decimalSeparator: ',', csvDelimiter: ';' });
    }
  });

  it('numbers, money, percentages and durations in each culture', () => {
    const cases: [string, string, string, string][] = [
      // tag, 1234.5 as decimal (grouped), 0.6667 as percent, 12.5 as money
      ['en-GB', '1,234.5', '66.7%', '12.50'],
      ['de-DE', '1.234,5', '66,7\u00a0%', '12,50'],
      ['fr-FR', '1\u202f234,5', '66,7\u00a0%', '12,50'],
      ['es-ES', '1.234,5', '66,7\u00a0%', '12,50'],
    ];
    for (const [tag, decimal, percent, money] of cases) {
      const f = cellFormatter(cultureFor(tag), 'UTC', { grouping: true });
      expect([f(1234.5, 'decimal'), f(2 / 3, 'percent'), f(12.5, 'money')]).toEqual([
        decimal,
        percent,
        money,
      ]);
    }
    // CSV cells are not grouped, so they parse back.
    expect(cellFormatter(cultureFor('de-DE'), 'UTC', { grouping: false })(1234567.25, 'decimal')).toBe(
      '1234567,25',
    );
    // Money keeps up to four decimals (rates per minute), at least two.
    expect(cellFormatter(cultureFor('en-GB'), 'UTC', { grouping: false })(0.0125, 'money')).toBe('0.0125');
  });

  it('instants are shown in the schedule zone, in the culture order', () => {
    const at = new Date('2026-10-25T00:30:00Z'); // 01:30 BST in London, 20:30 EDT the day before in New York
    expect(cellFormatter(cultureFor('en-GB'), 'Europe/London', { grouping: true })(at, 'datetime')).toBe(
      '25/10/2026, 01:30:00',
    );
    expect(cellFormatter(cultureFor('de-DE'), 'Europe/London', { grouping: true })(at, 'datetime')).toBe(
      '25.10.2026, 01:30:00',
    );
    expect(cellFormatter(cultureFor('en-US'), 'America/New_York', { grouping: true })(at, 'datetime')).toBe(
      '10/24/2026, 20:30:00',
    );
    expect(cellFormatter(cultureFor('fr-FR'), 'Australia/Sydney', { grouping: true })(at, 'datetime')).toBe(
      '25/10/2026 11:30:00',
    );
    expect(cellFormatter(cultureFor('es-ES'), 'UTC', { grouping: true })(true, 'boolean')).toBe('Sí');
  });

  it('durations as h:mm:ss', () => {
    expect(formatDuration(0)).toBe('0:00:00');
    expect(formatDuration(59)).toBe('0:00:59');
    expect(formatDuration(3725)).toBe('1:02:05');
    expect(formatDuration(90_000)).toBe('25:00:00');
  });

  it('Excel date patterns in the locale order', () => {
    expect(excelDatePattern('en-GB')).toBe('dd/mm/yyyy');
    expect(excelDatePattern('en-US')).toBe('mm/dd/yyyy');
    expect(excelDatePattern('de-DE')).toBe('dd.mm.yyyy');
  });

  it('every language has every word of the English dictionary', () => {
    const keys = Object.keys(DICTIONARIES.en ?? {}).sort();
    for (const [lang, dict] of Object.entries(DICTIONARIES)) {
      expect([lang, Object.keys(dict).sort()]).toEqual([lang, keys]);
      for (const [k, v] of Object.entries(dict))
        expect([lang, k, v.trim().length > 0]).toEqual([lang, k, true]);
    }
    expect(translate(cultureFor('fr-FR'), 'rows_capped', { shown: 10, total: 99 })).toContain(
      '10 premières lignes sur 99',
    );
  });

  it('cultures without a dictionary, or invalid tags, fail naming the tag', () => {
    expect(() => cultureFor('ja-JP')).toThrow(UnknownCultureError);
    expect(() => cultureFor('ja-JP')).toThrow(
      'culture "ja-JP" has no dictionary: supported languages are en, de, fr, es',
    );
    expect(() => cultureFor('not a tag')).toThrow('culture "not a tag" is not a valid BCP 47 language tag');
  });
});

describe('date-time template', () => {
  it('formats exactly as Intl does, across clock changes and cultures', () => {
    const zones = ['Europe/London', 'America/New_York', 'Australia/Sydney', 'UTC'];
    const instants = [
      '2026-10-25T00:30:00Z', // 01:30 BST
      '2026-10-25T01:30:00Z', // 01:30 GMT
      '2026-03-29T00:59:59Z',
      '2026-03-29T01:00:00Z',
      '2026-04-05T15:59:59Z', // Sydney's autumn change
      '2026-11-01T06:00:00Z', // New York's autumn change
      '2027-01-01T00:00:00Z',
    ].map((s) => new Date(s));
    for (const tag of ['en-GB', 'en-US', 'de-DE', 'fr-FR', 'es-ES']) {
      for (const timeZone of zones) {
        const f = cellFormatter(cultureFor(tag), timeZone, { grouping: false });
        const intl = new Intl.DateTimeFormat(tag, {
          year: 'numeric',
          month: '2-digit',
          day: '2-digit',
          hour: '2-digit',
          minute: '2-digit',
          second: '2-digit',
          hourCycle: 'h23',
          timeZone,
        });
        for (const at of instants)
          expect([tag, timeZone, f(at, 'datetime')]).toEqual([tag, timeZone, intl.format(at)]);
      }
    }
  });
});

describe('CSV number fast paths', () => {
  it('write money and integers exactly as Intl does', () => {
    const amounts = [0, 0.6, 0.04, 1.2, 0.0125, 12.5, 1234567.8912, 99999999.9999, -3.5, 0.0001];
    for (let i = 0; i < 500; i++) amounts.push(Math.round(Math.random() * 1e8) / 1e4);
    for (const tag of ['en-GB', 'de-DE', 'fr-FR', 'es-ES']) {
      const culture = cultureFor(tag);
      const fast = cellFormatter(culture, 'UTC', { grouping: false });
      const money = new Intl.NumberFormat(culture.tag, {
        minimumFractionDigits: 2,
        maximumFractionDigits: 4,
        useGrouping: false,
      });
      const integer = new Intl.NumberFormat(culture.tag, { maximumFractionDigits: 0, useGrouping: false });
      for (const n of amounts) expect([tag, n, fast(n, 'money')]).toEqual([tag, n, money.format(n)]);
      for (const n of [0, 7, 1234567, 200000, -12]) expect(fast(n, 'integer')).toBe(integer.format(n));
    }
  });
});
