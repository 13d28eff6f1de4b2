// The HubSpot test server's rate limits: a Professional private app's documented ones (190 requests
// per rolling 10 seconds, https://developers.hubspot.com/docs/api/usage-details; 5 searches a second per
// account, https://developers.hubspot.com/docs/api/crm/search, Limitations; the account's daily limit),
// answered with HubSpot's 429 body and X-HubSpot-RateLimit-* headers. hubspot-server.ts wires the
// limiter into its onRequest hook after authentication.
import { randomUUID } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { HubSpotLimits } from './hubspot-objects';
import { SlidingWindowLimit, countLimited, type LimitCounters } from './vendor-limits';

/** HubSpot's answer when an app exceeds a rate limit (the rolling 10-second one, or search's secondly one). */
export function rateLimitBody(
  policy: 'TEN_SECONDLY_ROLLING' | 'SECONDLY' | 'DAILY' = 'TEN_SECONDLY_ROLLING',
) {
  return {
    status: 'error',
    message: `You have reached your ${policy.toLowerCase()} limit.`,
    errorType: 'RATE_LIMIT',
    correlationId: randomUUID(),
    policyName: policy,
    requestId: randomUUID(),
  };
}

export const PROFESSIONAL_LIMITS: HubSpotLimits = {
  per10Seconds: 190,
  searchPerSecond: 5,
  batchInputs: 100,
  daily: 650_000,
};

/** Takes a request from the limits, or answers it 429 (the portal's counts live here). */
export function hubSpotLimiter(limits: HubSpotLimits, counters: LimitCounters) {
  const rolling = new SlidingWindowLimit(limits.per10Seconds, 10_000);
  const secondly = new SlidingWindowLimit(limits.searchPerSecond, 1_000);
  let dailyUsed = 0;
  return (req: FastifyRequest, reply: FastifyReply): FastifyReply | undefined => {
    const now = Date.now();
    const isSearch =
      req.method === 'POST' && /^\/crm\/v3\/objects\/[^/]+\/search$/.test(req.url.split('?')[0]!);
    // Search answers carry no rate-limit headers (HubSpot documents that); other answers do.
    const headers = () => {
      if (isSearch) return;
      void reply.headers({
        'x-hubspot-ratelimit-daily': String(limits.daily),
        'x-hubspot-ratelimit-daily-remaining': String(Math.max(0, limits.daily - dailyUsed)),
        'x-hubspot-ratelimit-interval-milliseconds': '10000',
        'x-hubspot-ratelimit-max': String(limits.per10Seconds),
        'x-hubspot-ratelimit-remaining': String(rolling.remaining(now)),
      });
    };
    // The daily limit is the account's (portal's), shared by its private apps: 250,000 to 1,000,000
    // requests a day by tier, reset at midnight in the account's time zone; past it HubSpot answers
    // 429 with policyName DAILY (https://developers.hubspot.com/docs/api/usage-details).
    if (dailyUsed >= limits.daily) {
      countLimited(counters, 'DAILY');
      headers();
      return reply.code(429).send(rateLimitBody('DAILY'));
    }
    // Search: 5 requests per second per account (portal), whatever the token
    // (https://developers.hubspot.com/docs/api/crm/search, Limitations).
    if (isSearch && secondly.remaining(now) === 0) {
      countLimited(counters, 'SECONDLY');
      return reply.code(429).send(rateLimitBody('SECONDLY'));
    }
    if (!rolling.take(now)) {
      countLimited(counters, 'TEN_SECONDLY_ROLLING');
      headers();
      return reply.code(429).send(rateLimitBody('TEN_SECONDLY_ROLLING'));
    }
    if (isSearch) secondly.take(now);
    dailyUsed++;
    headers();
    return undefined;
  };
}
