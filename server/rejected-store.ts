// Deliveries the receiver refused with a 400, kept with their reason for inspection. The
// Authorization header is never kept: it carries the webhook secret.
import type { Kysely } from 'kysely';
import type { Database } from '../connectors/postgres';

/** Headers that never reach the table (credentials). */
const DROPPED_HEADERS = new Set(['authorization', 'proxy-authorization', 'cookie', 'x-auth-token']);

/** A refused delivery. */
export interface RejectedDelivery {
  account: string;
  reason: string;
  body: string;
  headers: Record<string, string | string[] | undefined>;
}

/** The headers worth keeping: everything but credentials. */
export function keptHeaders(headers: RejectedDelivery['headers']): Record<string, string | string[]> {
  const kept: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined && !DROPPED_HEADERS.has(name.toLowerCase())) kept[name] = value;
  }
  return kept;
}

/** Stores a refused delivery. */
export async function recordRejected(db: Kysely<Database>, d: RejectedDelivery): Promise<void> {
  await db
    .insertInto('webhook_rejected')
    .values({
      account: d.account,
      reason: d.reason,
      // text columns cannot hold NUL either; the body is kept readable without it.
      body: d.body.replaceAll('\u0000', '\\u0000'),
      headers: JSON.stringify(keptHeaders(d.headers)),
    })
    .execute();
}
