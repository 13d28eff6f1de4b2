// HubSpot client errors (the generated ApiException: code, body, headers) as CrmErrors, and the
// rate-limit signal the RateGate waits on.
import { parseRetryAfter } from '../../lib/retry-after';
import { nextPossibleDailyReset } from './daily-limit';
import { CrmError, isRetryableStatus } from '../crm/errors';
import type { RateLimitSignal } from '../crm/rate-gate';

export const DESTINATION = 'hubspot';

/** The shape of @hubspot/api-client's ApiException (one class per generated module, so no instanceof). */
interface ApiExceptionLike {
  code: number;
  body: unknown;
  headers: Record<string, string>;
  message: string;
}

function isApiException(err: unknown): err is ApiExceptionLike {
  return (
    typeof err === 'object' &&
    err !== null &&
    typeof (err as { code?: unknown }).code === 'number' &&
    typeof (err as { headers?: unknown }).headers === 'object'
  );
}

function bodyField(body: unknown, field: string): string | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const value = (body as Record<string, unknown>)[field];
  return typeof value === 'string' ? value : undefined;
}

/** The wait HubSpot asked for when `err` is its 429, else null. */
export function hubspotRateLimit(err: unknown, nowMs = Date.now()): RateLimitSignal | null {
  if (!isApiException(err) || err.code !== 429) return null;
  const message = bodyField(err.body, 'message') ?? 'rate limited';
  const header = parseRetryAfter(err.headers['retry-after'], nowMs);
  const policy = `${bodyField(err.body, 'policyName') ?? ''} ${message}`.toLowerCase();
  // The daily limit: until a reset may have happened (daily-limit.ts), Retry-After or not.
  if (policy.includes('daily'))
    return { retryAfterMs: nextPossibleDailyReset(nowMs) - nowMs, message, status: 429 };
  // Without Retry-After: the 10-second rolling window needs up to 10 s, the per-second search limit
  // a second.
  const fallback = policy.includes('ten_secondly') ? 10_000 : 1_000;
  return { retryAfterMs: header ?? fallback, message, status: 429 };
}

/**
 * The scopes a 403 says the token lacks (HubSpot lists them in `errors[].context.requiredGranularScopes`
 * or `requiredScopes`), so the error names the permission to grant.
 */
export function missingScopes(body: unknown): string[] {
  if (typeof body !== 'object' || body === null) return [];
  const errors = (body as { errors?: unknown }).errors;
  if (!Array.isArray(errors)) return [];
  const scopes = new Set<string>();
  for (const e of errors as { context?: Record<string, unknown> }[]) {
    for (const key of ['requiredGranularScopes', 'requiredScopes']) {
      const list = e?.context?.[key];
      if (Array.isArray(list)) for (const s of list) if (typeof s === 'string') scopes.add(s);
    }
  }
  return [...scopes];
}

/** Any error from the HubSpot client as a CrmError (network errors are retryable). */
export function toCrmError(err: unknown): CrmError {
  if (err instanceof CrmError) return err;
  if (isApiException(err)) {
    const scopes = err.code === 403 ? missingScopes(err.body) : [];
    const message = bodyField(err.body, 'message') ?? err.message;
    return new CrmError({
      destination: DESTINATION,
      status: err.code,
      code: bodyField(err.body, 'category'),
      message: scopes.length > 0 ? `${message} (missing scopes: ${scopes.join(', ')})` : message,
      retryable: isRetryableStatus(err.code),
    });
  }
  const message = err instanceof Error ? err.message : String(err);
  return new CrmError({ destination: DESTINATION, message, retryable: true });
}

/** True when `err` is HubSpot's 429 for the daily limit (policyName DAILY). */
export function isDailyLimit(err: unknown): boolean {
  return isApiException(err) && err.code === 429 && bodyField(err.body, 'policyName') === 'DAILY';
}

/** True when `err` is HubSpot's 409 (e.g. a property or group that already exists). */
export function isConflict(err: unknown): boolean {
  return isApiException(err) && err.code === 409;
}

/**
 * True when `err` is HubSpot's 401 for an expired OAuth access token (category EXPIRED_AUTHENTICATION,
 * "The OAuth token used to make this call expired N minute(s) ago."): a new token fixes it.
 * https://developers.hubspot.com/docs/api/error-handling
 */
export function isExpiredAuthentication(err: unknown): boolean {
  return (
    isApiException(err) && err.code === 401 && bodyField(err.body, 'category') === 'EXPIRED_AUTHENTICATION'
  );
}

/** A 401 answered to a raw apiRequest (which throws nothing itself), shaped as the client's ApiException. */
export class HubSpotUnauthorized extends Error {
  override readonly name = 'HubSpotUnauthorized';
  readonly code = 401;
  readonly headers: Record<string, string> = {};
  constructor(readonly body: unknown) {
    super(bodyField(body, 'message') ?? 'HubSpot answered 401');
  }
}
