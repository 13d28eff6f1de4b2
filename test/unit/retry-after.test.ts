import { parseRetryAfter } from '../../lib/retry-after';

describe('parseRetryAfter', () => {
  it('parses Retry-After as seconds or an HTTP date', () => {
    const now = Date.UTC(2026, 10, 1, 12, 0, 0);
    expect(parseRetryAfter('5', now)).toBe(5000);
    expect(parseRetryAfter('0.5', now)).toBe(500);
    expect(parseRetryAfter('Sun, 01 Nov 2026 12:00:30 GMT', now)).toBe(30_000);
    expect(parseRetryAfter('Sun, 01 Nov 2026 11:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter(null, now)).toBeUndefined();
    expect(parseRetryAfter('', now)).toBeUndefined();
  });

  it('reads the header as servers send it: padded, or as a date already past', () => {
    const now = Date.UTC(2026, 10, 1, 12, 0, 0);
    expect(parseRetryAfter(' 120 ', now)).toBe(120_000);
    expect(parseRetryAfter('Sat, 31 Oct 2026 23:59:59 GMT', now)).toBe(0);
  });
});
