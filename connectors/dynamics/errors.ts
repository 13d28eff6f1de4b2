// Dataverse Web API errors as CrmErrors. dynamics-web-api rejects with an Error carrying the Web
// API's error object ({ code: "0x80040217", message }) plus the HTTP status and headers
// (https://learn.microsoft.com/power-apps/developer/data-platform/webapi/compose-http-requests-handle-errors);
// a request that got no answer rejects with Node's network error (no status).
import { parseRetryAfter } from '../../lib/retry-after';
import { CrmError, isRetryableStatus } from '../crm/errors';
import type { RateLimitSignal } from '../crm/rate-gate';

export const DESTINATION = 'dynamics';

/**
 * Service protection limit errors: requests (6,000 per 5 minutes), combined execution time (20
 * minutes per 5 minutes) and concurrent requests (52), each a 429 with Retry-After
 * (https://learn.microsoft.com/power-apps/developer/data-platform/api-limits).
 */
export const SERVICE_PROTECTION_CODES = new Set(['0x80072322', '0x80072321', '0x80072326']);

/** Not found: "Entity 'phonecall' With Id = … Does Not Exist". */
export const NOT_FOUND_CODE = '0x80040217';

interface WebApiErrorLike {
  status?: unknown;
  code?: unknown;
  message?: unknown;
  headers?: Record<string, unknown>;
}

function shapeOf(err: unknown): WebApiErrorLike {
  return typeof err === 'object' && err !== null ? err : {};
}

/** The HTTP status the Web API answered with; undefined when no answer came. */
export function statusOf(err: unknown): number | undefined {
  const { status } = shapeOf(err);
  return typeof status === 'number' ? status : undefined;
}

/** The Web API's error code ("0x80040217"), if it gave one. */
export function webApiCode(err: unknown): string | undefined {
  const { code } = shapeOf(err);
  return typeof code === 'string' && /^0x[0-9a-f]+$/i.test(code) ? code.toLowerCase() : undefined;
}

/** The wait when `err` is one of Dataverse's service protection limits (a 429), else null. */
export function dynamicsRateLimit(err: unknown): RateLimitSignal | null {
  if (statusOf(err) !== 429) return null;
  const header = shapeOf(err).headers?.['retry-after'];
  return {
    retryAfterMs: parseRetryAfter(typeof header === 'string' ? header : undefined, Date.now()),
    message: `service protection limit (${webApiCode(err) ?? '429'})`,
    status: 429,
  };
}

/** Whether the Web API said the record does not exist (404). */
export function isNotFound(err: unknown): boolean {
  return statusOf(err) === 404;
}

/**
 * Any error from a Web API request as a CrmError. The message keeps the Web API's text, which names
 * fields and ids but no values callsync wrote (phone numbers and names stay out).
 */
export function toCrmError(err: unknown): CrmError {
  if (err instanceof CrmError) return err;
  const status = statusOf(err);
  const code =
    webApiCode(err) ?? (typeof shapeOf(err).code === 'string' ? String(shapeOf(err).code) : undefined);
  const raw = shapeOf(err).message;
  const text = typeof raw === 'string' && raw !== '' ? raw : 'request failed';
  const message = status === undefined ? `no answer from Dataverse (${code ?? text})` : `${status} ${text}`;
  return new CrmError({
    destination: DESTINATION,
    status,
    code,
    message,
    retryable: isRetryableStatus(status),
  });
}
