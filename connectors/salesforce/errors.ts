// jsforce errors (HttpApiError: errorCode + data, no HTTP status) as CrmErrors.
import { CrmError } from '../crm/errors';
import type { RateLimitSignal } from '../crm/rate-gate';

export const DESTINATION = 'salesforce';

/** Error codes a later retry can fix. */
const RETRYABLE = new Set(['SERVER_UNAVAILABLE', 'UNABLE_TO_LOCK_ROW', 'REQUEST_RUNNING_TOO_LONG']);

const STATUS_OF: Record<string, number> = {
  NOT_FOUND: 404,
  ENTITY_IS_DELETED: 404,
  INVALID_SESSION_ID: 401,
  INSUFFICIENT_ACCESS: 403,
  INSUFFICIENT_ACCESS_OR_READONLY: 403,
  REQUEST_LIMIT_EXCEEDED: 403,
};

/** The Salesforce error code jsforce attached to an error, if any. */
export function errorCode(err: unknown): string | undefined {
  if (typeof err !== 'object' || err === null) return undefined;
  const code = (err as { errorCode?: unknown }).errorCode;
  return typeof code === 'string' ? code : undefined;
}

/** The wait when `err` is Salesforce's API limit (or a 429), else null. */
export function salesforceRateLimit(err: unknown): RateLimitSignal | null {
  const code = errorCode(err);
  const message = err instanceof Error ? err.message : 'rate limited';
  // The 24-hour API budget is spent: nothing to wait for here; Temporal retries in an hour.
  if (code === 'REQUEST_LIMIT_EXCEEDED') return { retryAfterMs: 3_600_000, message, status: 403 };
  if (code === 'ERROR_HTTP_429') return { retryAfterMs: undefined, message, status: 429 };
  return null;
}

/** Any error from jsforce as a CrmError (no error code: a network failure, retryable). */
export function toCrmError(err: unknown): CrmError {
  if (err instanceof CrmError) return err;
  const code = errorCode(err);
  const message = err instanceof Error ? err.message : String(err);
  if (code === undefined) return new CrmError({ destination: DESTINATION, message, retryable: true });
  const http = /^ERROR_HTTP_(\d{3})$/.exec(code);
  const status = http ? Number(http[1]) : (STATUS_OF[code] ?? 400);
  const retryable = RETRYABLE.has(code) || status === 408 || status === 429 || status >= 500;
  return new CrmError({ destination: DESTINATION, status, code, message, retryable });
}

/** A save result as jsforce answers it. */
export interface SaveResultLike {
  id?: string | undefined;
  success: boolean;
  errors: { message?: string; errorCode?: string; statusCode?: string }[];
}

/** The CrmError of a save Salesforce refused. */
export function saveError(res: SaveResultLike, count = 1): CrmError {
  const first = res.errors[0];
  return new CrmError({
    destination: DESTINATION,
    status: 400,
    code: first?.statusCode ?? first?.errorCode,
    message: `${count} record(s) not saved: ${first?.message ?? 'unknown error'}`,
    retryable: false,
  });
}
