// Which HubSpot portal a configuration writes to, without a request: a private app's token belongs to
// one portal, so a digest of the token (never the token itself) names the portal in cache keys and
// rate windows. An OAuth app is installed per account, so its install (app and account) names it.
// HubSpot counts its limits per app and portal, not per API host.
import { createHash } from 'node:crypto';
import type { HubSpotConfig } from './config';

/**
 * `hubspot:<digest>`: the same for every worker given this token (or this app and account) and API
 * origin, and nothing else. `account` is required with `oauth`.
 */
export function hubspotDestinationId(
  config: Pick<HubSpotConfig, 'accessToken' | 'basePath' | 'oauth'>,
  account?: string,
): string {
  const origin = config.basePath.replace(/\/$/, '');
  let credential: string;
  if (config.oauth) {
    if (account === undefined)
      throw new Error('a HubSpot OAuth destination is per account: name the account');
    credential = `oauth\n${config.oauth.clientId}\n${account}`;
  } else credential = config.accessToken ?? '';
  const digest = createHash('sha256').update(`${origin}\n${credential}`).digest('hex');
  return `hubspot:${digest.slice(0, 16)}`;
}
