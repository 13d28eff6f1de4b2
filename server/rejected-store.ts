// Deliveries the receiver refused with a 400, kept with their reason for inspection. The webhook
// secret is never kept: credential headers are dropped, headers that carry the request's original
// path (set by proxies) are redacted, and the secret is blanked wherever else it appears.
import type { Kysely } from 'kysely';
import { insertRejected, type Database } from '../connectors/postgres';

/** Headers that never reach the table (credentials). */
const DROPPED_HEADERS = new Set(['authorization', 'proxy-authorization', 'cookie', 'x-auth-token']);

/**
 * Headers in which proxies and clients pass on the original URL (whose path holds the secret):
 * X-Forwarded-Uri, X-Original-URI/-URL, X-Envoy-Original-Path, X-Rewrite-URL, Referer and the like.
 */
const PATH_HEADER =
  /^(referr?er|x-(forwarded|original|envoy-original|rewrite|request|orig)-(uri|url|path)|x-forwarded-prefix|x-envoy-original-url|x-amzn-original-url|x-ms-original-url|x-original-request-uri|forwarded)$/i;

/** What a redacted header value reads. */
export const REDACTED = '[redacted]';

/** A refused delivery. */
export interface RejectedDelivery {
  account: string;
  reason: string;
  body: string;
  headers: Record<string, string | string[] | undefined>;
  /** The secret the request presented in its path, blanked wherever it appears in the headers. */
  secret?: string | undefined;
}

/** The headers worth keeping: no credentials, no original path, and never the secret. */
export function keptHeaders(
  headers: RejectedDelivery['headers'],
  secret?: string,
): Record<string, string | string[]> {
  const blank = (v: string): string => {
    const path = /\/webhooks\/[^/?#\s]+\/[^/?#\s]+/gi;
    const out = v.replace(path, (m) => `${m.slice(0, m.lastIndexOf('/'))}/${REDACTED}`);
    return secret && secret.length > 0 ? out.replaceAll(secret, REDACTED) : out;
  };
  const kept: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || DROPPED_HEADERS.has(name.toLowerCase())) continue;
    if (PATH_HEADER.test(name)) kept[name] = REDACTED;
    else kept[name] = Array.isArray(value) ? value.map(blank) : blank(value);
  }
  return kept;
}

/** Stores a refused delivery (truncated where it is long). */
export async function recordRejected(db: Kysely<Database>, d: RejectedDelivery): Promise<void> {
  await insertRejected(db, {
    account: d.account,
    reason: d.reason,
    body: d.body,
    headers: keptHeaders(d.headers, d.secret),
  });
}
