// HubSpot's daily request limit: the account's (portal's), shared by its private apps, 250,000 to
// 1,000,000 requests a day by tier, reset at midnight in the account's time zone; past it every
// request is answered 429 with policyName DAILY (https://developers.hubspot.com/docs/api/usage-details).
// Retrying soon only spends more refusals, so after a DAILY 429 the connectors of that portal in
// this process send nothing until the next time a reset may have happened, and say when to retry.
import { CrmRateLimitedError } from '../crm/errors';

const DESTINATION = 'hubspot';

/**
 * The next instant a reset may have happened: midnight in every time zone falls on a quarter hour
 * of UTC, and the account's zone is not known here; so the next quarter hour (at least a minute on).
 */
export function nextPossibleDailyReset(nowMs: number): number {
  const quarter = 15 * 60_000;
  return Math.max(Math.ceil((nowMs + 1) / quarter) * quarter, nowMs + 60_000);
}

/** Portals (by scope) whose daily limit is spent, and until when callsync does not ask again. */
const spent = new Map<string, number>();

/** Records that the portal's daily limit is spent; returns the wait until a reset may have happened. */
export function dailyLimitSpent(scope: string, nowMs: number): number {
  const until = nextPossibleDailyReset(nowMs);
  spent.set(scope, until);
  return until - nowMs;
}

/** Throws (retryable, with the wait) while the portal's daily limit is known to be spent. */
export function checkDailyLimit(scope: string, nowMs: number): void {
  const until = spent.get(scope);
  if (until === undefined) return;
  if (until <= nowMs) {
    spent.delete(scope);
    return;
  }
  throw new CrmRateLimitedError({
    destination: DESTINATION,
    status: 429,
    code: 'RATE_LIMITED',
    message: `HubSpot's daily request limit for this portal is spent; not asking again before ${new Date(until).toISOString()}`,
    retryAfterMs: until - nowMs,
  });
}
