// Zendesk's error answers as CrmErrors. Zendesk answers errors as JSON in a few shapes
// (https://developer.zendesk.com/api-reference/introduction/requests/#response-format and
// https://developer.zendesk.com/documentation/api-basics/best-practices/error-handling/):
//   { "error": "RecordNotFound", "description": "Not found" }
//   { "error": "RecordInvalid", "description": "Record validation errors", "details": { field: [...] } }
//   { "error": { "title": "Forbidden", "message": "..." } }
//   { "error": "invalid_grant", "error_description": "..." }            (the OAuth token endpoint)
// and 429 with a Retry-After header (https://developer.zendesk.com/api-reference/introduction/rate-limits/).
// Messages keep the error's code, title and the names of invalid fields, never the field values
// (they can hold a caller's number or name).
import { CrmError, isRetryableStatus } from '../crm/errors';
import type { RateLimitSignal } from '../crm/rate-gate';

export const DESTINATION = 'zendesk';

/** A Zendesk answer other than 2xx, as the request core saw it. */
export class ZendeskHttpError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
    /** Retry-After in milliseconds, when Zendesk sent one. */
    readonly retryAfterMs: number | undefined,
    what: string,
  ) {
    super(`${what}: HTTP ${status}${describe(body)}`);
    this.name = 'ZendeskHttpError';
  }
}

/** The error code Zendesk put in a body (`RecordNotFound`, `RecordInvalid`, `invalid_grant`), if any. */
export function errorCodeOf(body: unknown): string | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const error = (body as { error?: unknown }).error;
  if (typeof error === 'string') return error.length <= 60 ? error : undefined;
  if (typeof error === 'object' && error !== null) {
    const title = (error as { title?: unknown }).title;
    if (typeof title === 'string') return title;
  }
  return undefined;
}

function describe(body: unknown): string {
  const code = errorCodeOf(body);
  if (typeof body !== 'object' || body === null) return code ? ` ${code}` : '';
  const details = (body as { details?: unknown }).details;
  const fields =
    typeof details === 'object' && details !== null ? Object.keys(details).slice(0, 5).join(', ') : '';
  return `${code ? ` ${code}` : ''}${fields ? ` (invalid: ${fields})` : ''}`;
}

/** Retry-After (seconds, or an HTTP date) in milliseconds; undefined when absent or unreadable. */
export function retryAfterMs(header: string | null | undefined, now = Date.now()): number | undefined {
  if (!header) return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds) && seconds >= 0) return Math.ceil(seconds * 1000);
  const at = Date.parse(header);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/** The wait when `err` is Zendesk's rate limit (429), else null. */
export function zendeskRateLimit(err: unknown): RateLimitSignal | null {
  if (!(err instanceof ZendeskHttpError) || err.status !== 429) return null;
  return { retryAfterMs: err.retryAfterMs, message: err.message, status: 429 };
}

/** Any failure of a Zendesk request as a CrmError (no answer at all: a network failure, retryable). */
export function toCrmError(err: unknown): CrmError {
  if (err instanceof CrmError) return err;
  if (err instanceof ZendeskHttpError) {
    return new CrmError({
      destination: DESTINATION,
      status: err.status,
      code: errorCodeOf(err.body),
      message: err.message,
      retryable: isRetryableStatus(err.status),
    });
  }
  // fetch's own failures (socket closed, refused, DNS): the request may or may not have been done.
  const cause = (err as { cause?: { code?: unknown } } | null)?.cause?.code;
  const code = typeof cause === 'string' ? cause : (err as { code?: unknown } | null)?.code;
  const name = err instanceof Error ? err.name : 'Error';
  return new CrmError({
    destination: DESTINATION,
    code: typeof code === 'string' ? code : undefined,
    message: `request failed without an answer (${name}${typeof code === 'string' ? ` ${code}` : ''})`,
    retryable: true,
  });
}

/** Whether `err` says the object is gone (404): deleting it again counts as done. */
export function isNotFound(err: unknown): boolean {
  return err instanceof CrmError && err.status === 404;
}
