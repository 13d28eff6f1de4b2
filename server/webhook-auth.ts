// Who sent a webhook: the platform signs nothing, so the secret in the webhook URL is the only
// proof. It arrives as a path token or as the password of Basic credentials (a URL like
// http://callsync:<secret>@host/webhooks/<account> makes the platform send an Authorization header).
import { createHash, timingSafeEqual } from 'node:crypto';

/** User name of Basic credentials in a webhook URL (the password is the secret). */
export const BASIC_USER = 'callsync';

/** The account names and secrets the receiver accepts. */
export interface WebhookAccount {
  name: string;
  /** Accounts without a secret accept no webhooks. */
  webhookSecret?: string | undefined;
}

const digest = (s: string): Buffer => createHash('sha256').update(s, 'utf8').digest();

/**
 * Compares a presented secret with the expected one in constant time: both are hashed first, so
 * the comparison's length and duration say nothing about the secret.
 */
export function secretMatches(expected: string, presented: string): boolean {
  return timingSafeEqual(digest(expected), digest(presented));
}

/** The password of `Authorization: Basic …` when the user is BASIC_USER, else undefined. */
export function basicPassword(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const m = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header);
  if (!m) return undefined;
  const decoded = Buffer.from(m[1] as string, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0 || decoded.slice(0, colon) !== BASIC_USER) return undefined;
  return decoded.slice(colon + 1);
}

/** Decides whether a request may deliver webhooks of an account. */
export type WebhookAuthenticator = (account: string, presented: string | undefined) => boolean;

/** An authenticator over the configured accounts; unknown accounts and missing secrets fail. */
export function createWebhookAuthenticator(accounts: readonly WebhookAccount[]): WebhookAuthenticator {
  const digests = new Map<string, Buffer>();
  for (const a of accounts) if (a.webhookSecret) digests.set(a.name, digest(a.webhookSecret));
  // Unknown accounts still pay for one comparison, so timing does not reveal which accounts exist.
  const decoy = digest(`callsync-no-such-account-${Math.random()}`);
  return (account, presented) => {
    const expected = digests.get(account);
    const ok = timingSafeEqual(expected ?? decoy, digest(presented ?? ''));
    return ok && expected !== undefined && presented !== undefined;
  };
}
