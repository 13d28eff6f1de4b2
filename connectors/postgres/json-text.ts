// JSON text that PostgreSQL's jsonb accepts. JSON.stringify writes a NUL character as \u0000 and a
// lone UTF-16 surrogate as \udXXX; jsonb rejects both, and one bad string would fail a whole page.

const UNSAFE_ESCAPE = /\\\\|\\u0000|\\ud[89a-f][0-9a-f]{2}/g;

function fixEscape(match: string): string {
  if (match === '\\\\') return match; // an escaped backslash: leave it, and what follows it
  return match === '\\u0000' ? '' : '\\ufffd';
}

/** JSON text of a value for a jsonb column; undefined for undefined (SQL NULL). */
export function toJsonText(value: unknown): string | undefined {
  const json = JSON.stringify(value) as string | undefined;
  if (json === undefined || !json.includes('\\u')) return json;
  return json.replace(UNSAFE_ESCAPE, fixEscape);
}
