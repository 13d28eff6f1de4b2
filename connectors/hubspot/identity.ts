// Which HubSpot portal a configuration writes to, without a request: a private app's token belongs to
// one portal, so a digest of the token (never the token itself) names the portal in cache keys and
// rate windows. HubSpot counts its limits per app and portal, not per API host.
import { createHash } from 'node:crypto';
import type { HubSpotConfig } from './config';

/** `hubspot:<digest>`: the same for every worker given this token and API origin, and nothing else. */
export function hubspotDestinationId(config: Pick<HubSpotConfig, 'accessToken' | 'basePath'>): string {
  const origin = config.basePath.replace(/\/$/, '');
  const digest = createHash('sha256').update(`${origin}\n${config.accessToken}`).digest('hex');
  return `hubspot:${digest.slice(0, 16)}`;
}
