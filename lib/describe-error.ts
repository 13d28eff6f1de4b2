// What a failure prints: always a message, whatever was thrown (some libraries reject with nothing).

/** The message of anything thrown; for an Error without one, its cause's, else a note that there was none. */
export function describeError(err: unknown): string {
  if (err instanceof Error) {
    if (err.message) return err.message;
    return err.cause === undefined ? `${err.name} (no message)` : `${err.name}: ${describeError(err.cause)}`;
  }
  if (err === undefined || err === null)
    return 'failed with no error to report (a library rejected with nothing)';
  if (typeof err === 'object') {
    try {
      return JSON.stringify(err);
    } catch {
      return Object.prototype.toString.call(err);
    }
  }
  if (typeof err === 'function') return `a function (${err.name || 'anonymous'}) was thrown`;
  if (typeof err === 'string') return err;
  if (
    typeof err === 'number' ||
    typeof err === 'boolean' ||
    typeof err === 'bigint' ||
    typeof err === 'symbol'
  )
    return err.toString();
  return 'an unknown value was thrown';
}
