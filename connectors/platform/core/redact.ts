// Credentials must never reach an error message or a log line. The platform's own 401 message names the
// unknown token, so every text that came from the wire passes through here before it is kept.

const CENSOR = '[redacted]';

/** Keys whose values are credentials wherever they appear in a body kept for diagnosis. */
const SECRET_KEYS = new Set([
  'password',
  'sip_password',
  'token',
  'user_token',
  'api_key',
  'apikey',
  'legacy_api_key',
  'authorization',
  'x-auth-token',
  'nonce',
  'code',
]);

function variants(secret: string): string[] {
  const out = new Set([secret]);
  out.add(encodeURIComponent(secret));
  out.add(JSON.stringify(secret).slice(1, -1));
  return [...out];
}

/** Replaces every occurrence of each secret (and its URL- and JSON-escaped forms) in `text`. */
export function redact(text: string, secrets: readonly string[]): string {
  const all = secrets
    .filter((s) => s.length > 0)
    .flatMap(variants)
    .sort((a, b) => b.length - a.length);
  let out = text;
  for (const s of all) out = out.split(s).join(CENSOR);
  return out;
}

/** Redacts secrets in every string of a JSON-like value and censors credential-named keys. */
export function redactDeep(value: unknown, secrets: readonly string[]): unknown {
  if (typeof value === 'string') return redact(value, secrets);
  if (Array.isArray(value)) return value.map((v) => redactDeep(v, secrets));
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      out[k] = SECRET_KEYS.has(k.toLowerCase()) && v !== null ? CENSOR : redactDeep(v, secrets);
    }
    return out;
  }
  return value;
}
