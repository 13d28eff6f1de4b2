// Platform times are UTC wall-clock text; these hold whatever zone the process runs in.
import { formatPlatformTime, minusMs, parsePlatformTime, platformTimeOrUndefined } from '../../sync/time';

const zone = process.env.TZ;
beforeAll(() => {
  // A zone with daylight saving, so a local-time slip would show on the changeover days.
  process.env.TZ = 'Europe/London';
});
afterAll(() => {
  process.env.TZ = zone;
});

describe('parsePlatformTime', () => {
  it('reads the spec form, date only and minutes only as UTC', () => {
    expect(parsePlatformTime('2026-11-01 12:34:56')).toBe(Date.UTC(2026, 10, 1, 12, 34, 56));
    expect(parsePlatformTime('2026-11-01')).toBe(Date.UTC(2026, 10, 1));
    expect(parsePlatformTime('2026-11-01 07:05')).toBe(Date.UTC(2026, 10, 1, 7, 5));
    expect(parsePlatformTime(' 2026-11-01 00:00:00 ')).toBe(Date.UTC(2026, 10, 1));
  });

  it('reads the ISO variants live deployments send, offsets converted to UTC', () => {
    expect(parsePlatformTime('2026-11-01T12:00:00Z')).toBe(Date.UTC(2026, 10, 1, 12));
    expect(parsePlatformTime('2026-11-01T12:00:00.250Z')).toBe(Date.UTC(2026, 10, 1, 12));
    expect(parsePlatformTime('2026-07-01T12:00:00+01:00')).toBe(Date.UTC(2026, 6, 1, 11));
    expect(parsePlatformTime('2026-07-01T12:00:00-0530')).toBe(Date.UTC(2026, 6, 1, 17, 30));
  });

  it('takes the hours a daylight-saving change skips or repeats as plain UTC hours', () => {
    // 01:30 on 29 March 2026 does not exist in London; 01:30 on 25 October happens twice there.
    expect(parsePlatformTime('2026-03-29 01:30:00')).toBe(Date.UTC(2026, 2, 29, 1, 30));
    expect(parsePlatformTime('2026-10-25 01:30:00')).toBe(Date.UTC(2026, 9, 25, 1, 30));
    expect(parsePlatformTime('2026-03-30 00:00:00') - parsePlatformTime('2026-03-29 00:00:00')).toBe(
      86_400_000,
    );
  });

  it('knows month ends and leap years', () => {
    expect(parsePlatformTime('2028-02-29')).toBe(Date.UTC(2028, 1, 29));
    expect(parsePlatformTime('2026-12-31 23:59:59')).toBe(Date.UTC(2026, 11, 31, 23, 59, 59));
    expect(() => parsePlatformTime('2026-02-29', 'from')).toThrow('from: not a real date: "2026-02-29"');
    expect(() => parsePlatformTime('2026-04-31')).toThrow('not a real date');
    expect(() => parsePlatformTime('2026-13-01')).toThrow('not a real date');
    expect(() => parsePlatformTime('2026-11-01 24:00:00')).toThrow('not a real date');
    expect(() => parsePlatformTime('2026-11-01 12:60:00')).toThrow('not a real date');
  });

  it('names the field of a value that is no time at all', () => {
    expect(() => parsePlatformTime('yesterday', 'to')).toThrow(
      'to: must be YYYY-MM-DD or YYYY-MM-DD HH:MM:SS (UTC), got "yesterday"',
    );
    expect(() => parsePlatformTime('01/11/2026')).toThrow(/^time: must be/);
  });

  it('has a form that answers undefined instead of throwing', () => {
    expect(platformTimeOrUndefined('2026-11-01')).toBe(Date.UTC(2026, 10, 1));
    expect(platformTimeOrUndefined('2026-02-30')).toBeUndefined();
    expect(platformTimeOrUndefined('')).toBeUndefined();
  });
});

describe('formatPlatformTime and minusMs', () => {
  it('format in UTC, dropping milliseconds', () => {
    expect(formatPlatformTime(Date.UTC(2026, 2, 29, 1, 30, 0, 999))).toBe('2026-03-29 01:30:00');
  });

  it('step back across a month end, a year end and a daylight-saving change', () => {
    expect(minusMs('2026-03-01 00:10:00', 20 * 60_000)).toBe('2026-02-28 23:50:00');
    expect(minusMs('2028-03-01 00:00:00', 86_400_000)).toBe('2028-02-29 00:00:00');
    expect(minusMs('2027-01-01 00:00:00', 1000)).toBe('2026-12-31 23:59:59');
    expect(minusMs('2026-03-29 02:00:00', 3_600_000)).toBe('2026-03-29 01:00:00');
  });

  it('normalise an offset time to the spec form', () => {
    expect(minusMs('2026-07-01T12:00:00+02:00', 0)).toBe('2026-07-01 10:00:00');
  });
});
