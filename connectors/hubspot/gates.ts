// The HubSpot connector's rate gates and the scopes they count in. HubSpot counts the rolling
// 10-second limit per app (token) and portal, but the search limit (5 a second) and the daily limit
// per account, i.e. portal, whatever the token (https://developers.hubspot.com/docs/api/crm/search,
// https://developers.hubspot.com/docs/api/usage-details). A private app's token names its portal only
// through a request; so the portal's scope is the configured portalId when given, else the token's.
import { realTime, type TimeSource } from '../../lib/rate-limiter';
import { WindowLimiter } from '../../lib/window-limiter';
import { RateGate, type TokenSourceFactory } from '../crm/rate-gate';
import type { HubSpotConfig } from './config';
import { DESTINATION } from './errors';

export interface GateOptions {
  /** The clock (tests inject one). */
  time?: TimeSource;
  /** Longest Retry-After waited inside the connector (default 15 s). */
  maxRetryAfterMs?: number;
  /** Token buckets shared by every worker (PostgreSQL); default: this process's own. */
  limiters?: TokenSourceFactory;
}

/** The scope of what HubSpot counts per portal: `hubspot-portal:<host>:<portalId>`, or the token's. */
export function portalScope(
  config: Pick<HubSpotConfig, 'basePath' | 'portalId'>,
  destinationId: string,
): string {
  if (config.portalId === undefined) return destinationId;
  return `hubspot-portal:${new URL(config.basePath).host}:${config.portalId}`;
}

export function hubspotGates(
  config: HubSpotConfig,
  opts: GateOptions,
  destinationId: string,
): { gate: RateGate; searchGate: RateGate; portal: string } {
  // HubSpot counts requests in a rolling window, and so does callsync: the first requests go at
  // once, request n once request n - max had its answer a window ago (lib/window-limiter.ts). The
  // margins (95% of the limit, half a second on the window) are for HubSpot's edges and clock.
  const gateOpts = {
    destination: DESTINATION,
    ...(opts.time ? { time: opts.time } : {}),
    ...(opts.maxRetryAfterMs !== undefined ? { maxRetryAfterMs: opts.maxRetryAfterMs } : {}),
  };
  const window = { max: Math.floor(config.requestsPer10Seconds * 0.95), windowMs: 10_500 };
  // Per app and portal (token), not per API host: every portal has a window of its own at HubSpot.
  const gate = new RateGate({
    ...gateOpts,
    requestsPerSecond: window.max / 10,
    burst: window.max,
    limiter: opts.limiters
      ? opts.limiters.window(`${destinationId} requests`, window)
      : new WindowLimiter(window, opts.time ?? realTime),
  });
  // Search per portal: two tokens of one portal share its searches.
  const portal = portalScope(config, destinationId);
  const searchRate = Math.max(1, config.searchRequestsPerSecond - 1);
  const searchGate = new RateGate({
    ...gateOpts,
    requestsPerSecond: searchRate,
    burst: 1,
    ...(opts.limiters ? { limiter: opts.limiters.bucket(`${portal} search`, searchRate, 1) } : {}),
  });
  return { gate, searchGate, portal };
}
