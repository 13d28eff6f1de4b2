// Maps errors to Temporal failures at the activity boundary, for every activity (createActivities
// wraps each one): what a retry cannot fix becomes a non-retryable failure with a type name; a rate
// limit waits the vendor's Retry-After as the next retry delay. Platform errors, CRM errors (HubSpot's
// and jsforce's shapes included, should one escape a connector) and our own all pass through here.
import { ApplicationFailure, Context } from '@temporalio/activity';
import { CrmError, CrmRateLimitedError } from '../connectors/crm/errors';
import type { RateLimitSignal } from '../connectors/crm/rate-gate';
import { hubspotRateLimit, toCrmError as hubspotError } from '../connectors/hubspot/errors';
import {
  BadRequestError,
  ForbiddenError,
  NotFoundError,
  PageOrderError,
  PlatformError,
  RateLimitedError,
  SchemaError,
  UnauthorizedError,
} from '../connectors/platform';
import { salesforceRateLimit, toCrmError as salesforceError } from '../connectors/salesforce/errors';

/** Failure type names of permanent CRM refusals, by HTTP status. */
const CRM_TYPES: Record<number, string> = {
  400: 'CrmBadRequestError',
  401: 'CrmUnauthorizedError',
  403: 'CrmForbiddenError',
  404: 'CrmNotFoundError',
  409: 'CrmConflictError',
};

/** The vendor client's own error, recognised by its shape, as a CrmError; null for anything else. */
function vendorError(err: unknown): CrmError | null {
  if (typeof err !== 'object' || err === null || err instanceof PlatformError) return null;
  const shape = err as { code?: unknown; headers?: unknown; errorCode?: unknown };
  // @hubspot/api-client's ApiException: numeric code (the HTTP status) and the response headers.
  if (typeof shape.code === 'number' && typeof shape.headers === 'object') {
    const limit = hubspotRateLimit(err);
    return limit ? rateLimited('hubspot', limit) : hubspotError(err);
  }
  // jsforce's HttpApiError: a Salesforce errorCode such as INVALID_FIELD.
  if (typeof shape.errorCode === 'string') {
    const limit = salesforceRateLimit(err);
    return limit ? rateLimited('salesforce', limit) : salesforceError(err);
  }
  return null;
}

function rateLimited(destination: string, limit: RateLimitSignal): CrmRateLimitedError {
  return new CrmRateLimitedError({
    destination,
    message: limit.message,
    status: limit.status,
    code: 'RATE_LIMITED',
    retryAfterMs: limit.retryAfterMs,
  });
}

function crmFailure(err: CrmError): ApplicationFailure {
  if (err instanceof CrmRateLimitedError) {
    return ApplicationFailure.create({
      type: 'CrmRateLimitedError',
      message: err.message,
      nonRetryable: false,
      ...(err.retryAfterMs !== undefined ? { nextRetryDelay: err.retryAfterMs } : {}),
    });
  }
  // Retryable: 5xx, network. Permanent: typed by status; other refusals (a 207 batch) as rejected.
  const permanentType = (err.status !== undefined ? CRM_TYPES[err.status] : undefined) ?? 'CrmRejectedError';
  return ApplicationFailure.create({
    type: err.retryable ? 'CrmError' : permanentType,
    message: err.message,
    nonRetryable: !err.retryable,
    ...(err.code ? { details: [{ code: err.code, status: err.status ?? null }] } : {}),
  });
}

/** Rethrows `err` as the ApplicationFailure Temporal should see. */
export function toActivityFailure(err: unknown): never {
  if (err instanceof ApplicationFailure) throw err;
  const crm = err instanceof CrmError ? err : vendorError(err);
  if (crm) throw crmFailure(crm);
  if (err instanceof RateLimitedError) {
    throw ApplicationFailure.create({
      type: 'RateLimitedError',
      message: err.message,
      nonRetryable: false,
      ...(err.retryAfterMs !== undefined ? { nextRetryDelay: err.retryAfterMs } : {}),
    });
  }
  const permanent =
    err instanceof BadRequestError ||
    err instanceof ForbiddenError ||
    err instanceof NotFoundError ||
    err instanceof SchemaError ||
    err instanceof PageOrderError ||
    (err instanceof UnauthorizedError && !err.retryable);
  if (err instanceof UnauthorizedError && err.retryable) {
    // Refused right after a successful login: the credentials work, the token was lost again.
    throw ApplicationFailure.create({ type: 'TokenRefused', message: err.message, nonRetryable: false });
  }
  if (err instanceof PlatformError) {
    throw ApplicationFailure.create({ type: err.name, message: err.message, nonRetryable: permanent });
  }
  throw err;
}

/**
 * Runs an activity body, translating its errors, and heartbeats while it runs (a third of the
 * heartbeat timeout apart), so waiting out a Retry-After, a slow page or a rate gate never looks
 * like a dead worker. A worker that does die stops heartbeating, and Temporal retries elsewhere.
 * Temporal keeps only the latest heartbeat's details, and a retried attempt resumes from them: so
 * the ticker sends again the last details the activity gave (before its first heartbeat, those of
 * the previous attempt), never none over the activity's progress.
 */
export async function withFailureMapping<T>(body: () => Promise<T>): Promise<T> {
  const ctx = currentContext();
  const every = ctx ? ctx.info.heartbeatTimeoutMs : undefined;
  const heartbeat = ctx && every ? keepHeartbeatDetails(ctx) : undefined;
  const ticker = heartbeat ? setInterval(() => heartbeat(), Math.max(200, (every ?? 0) / 3)) : undefined;
  try {
    return await body();
  } catch (err) {
    return toActivityFailure(err);
  } finally {
    if (ticker) clearInterval(ticker);
  }
}

/**
 * Makes the context's heartbeat remember its details (a heartbeat without details sends the last
 * ones again) and returns it, for the ticker. The activity keeps calling `Context.current().heartbeat`
 * (or `heartbeat()` from @temporalio/activity, which calls it) as before.
 */
function keepHeartbeatDetails(ctx: Context): (details?: unknown) => void {
  const send = ctx.heartbeat;
  let last: unknown = ctx.info.heartbeatDetails;
  const remembering = (details?: unknown): void => {
    if (details !== undefined) last = details;
    send(last);
  };
  Object.defineProperty(ctx, 'heartbeat', { value: remembering, configurable: true, writable: true });
  return remembering;
}

function currentContext(): Context | undefined {
  try {
    return Context.current();
  } catch {
    // Called outside an activity (a unit test of the function itself).
    return undefined;
  }
}

/** Wraps every function of `activities` with withFailureMapping (done once, in createActivities). */
export function withFailureMappingAll<T extends Record<string, (...args: never[]) => Promise<unknown>>>(
  activities: T,
): T {
  const wrapped: Record<string, unknown> = {};
  for (const [name, fn] of Object.entries(activities)) {
    // A named function: Temporal registers activities by key, and stack traces keep the name.
    wrapped[name] = {
      [name]: (...args: never[]) => withFailureMapping(() => fn(...args)),
    }[name];
  }
  return wrapped as T;
}
