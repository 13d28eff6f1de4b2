// The HTTP Retry-After header, as every outbound API client (the platform's and the CRMs') reads it
// from a 429 or 503: how long the server asks us to wait before sending again.

/** Parses Retry-After (delta seconds or an HTTP date) into milliseconds from `nowMs`; undefined if absent or bad. */
export function parseRetryAfter(value: string | null | undefined, nowMs: number): number | undefined {
  if (value === null || value === undefined) return undefined;
  const v = value.trim();
  if (v === '') return undefined;
  if (/^\d+(\.\d+)?$/.test(v)) return Math.round(Number(v) * 1000);
  const at = Date.parse(v);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - nowMs);
}
