// Google API client errors (gaxios: status, response headers, Google's JSON error body) as CrmErrors.
import { parseRetryAfter } from '../../lib/retry-after';
import { CrmError, CrmRateLimitedError, isRetryableStatus } from '../crm/errors';

export const DESTINATION = 'google-tasks';

interface GaxiosLike {
  status?: number;
  message: string;
  response?: { status?: number; data?: unknown; headers?: unknown };
}

/** Google's error body: `{error: {code, message, status, errors: [{reason, message}]}}`. */
function googleError(data: unknown): { message?: string; status?: string; reason?: string } {
  if (typeof data !== 'object' || data === null) return {};
  const e = (data as { error?: unknown }).error;
  if (typeof e !== 'object' || e === null) return {};
  const body = e as { message?: unknown; status?: unknown; errors?: unknown };
  const first = Array.isArray(body.errors) ? (body.errors[0] as { reason?: unknown } | undefined) : undefined;
  return {
    ...(typeof body.message === 'string' ? { message: body.message } : {}),
    ...(typeof body.status === 'string' ? { status: body.status } : {}),
    ...(typeof first?.reason === 'string' ? { reason: first.reason } : {}),
  };
}

function header(headers: unknown, name: string): string | undefined {
  if (typeof headers !== 'object' || headers === null) return undefined;
  // gaxios answers a fetch Headers (possibly another realm's), older versions a plain object.
  const get = (headers as { get?: unknown }).get;
  if (typeof get === 'function')
    return (get as (n: string) => string | null).call(headers, name) ?? undefined;
  const v = (headers as Record<string, unknown>)[name];
  return typeof v === 'string' ? v : undefined;
}

/** Any error from a googleapis client as a CrmError; 429 and 5xx are retryable, as are network errors. */
export function toCrmError(err: unknown, destination = DESTINATION): CrmError {
  if (err instanceof CrmError) return err;
  const e = err as GaxiosLike;
  const status = e?.status ?? e?.response?.status;
  if (typeof status !== 'number') {
    const message = err instanceof Error ? err.message : String(err);
    return new CrmError({ destination, message, retryable: true });
  }
  const body = googleError(e.response?.data);
  const message = body.message ?? e.message;
  const code = body.reason ?? body.status;
  if (status === 429 || body.reason === 'rateLimitExceeded' || body.reason === 'userRateLimitExceeded') {
    return new CrmRateLimitedError({
      destination,
      status,
      code: 'RATE_LIMITED',
      message,
      retryAfterMs: parseRetryAfter(header(e.response?.headers, 'retry-after'), Date.now()),
    });
  }
  return new CrmError({ destination, status, code, message, retryable: isRetryableStatus(status) });
}
