// Pipedrive's error answers as CrmErrors. Pipedrive answers an error with a JSON body
// `{ success: false, error, error_info?, errorCode? }` and the HTTP status
// (https://pipedrive.readme.io/docs/core-api-concepts-http-status-codes); a rate-limited request is a
// 429 whose x-ratelimit-reset (or Retry-After) says when the window frees
// (https://pipedrive.readme.io/docs/core-api-concepts-rate-limiting). The official client rejects with
// the response body alone, so client.ts turns an error answer into a PipedriveApiError (status and
// wait included) before the client sees it. Messages carry Pipedrive's error text, never a request's
// body (names, numbers) or a token.
import { CrmError, isRetryableStatus } from '../crm/errors';
import type { RateLimitSignal } from '../crm/rate-gate';
import { parseRetryAfter } from '../../lib/retry-after';

export const DESTINATION = 'pipedrive';

/** An error answer of Pipedrive's API: the status, Pipedrive's error text and the wait it asked for. */
export class PipedriveApiError {
  constructor(
    readonly status: number,
    readonly error: string,
    readonly retryAfterMs: number | undefined,
  ) {}
}

/** Builds the PipedriveApiError of an answer from its status, body and headers. */
export function apiErrorOf(
  status: number,
  body: unknown,
  header: (name: string) => string | undefined,
  nowMs = Date.now(),
): PipedriveApiError {
  const b = (typeof body === 'object' && body !== null ? body : {}) as { error?: unknown };
  const error = typeof b.error === 'string' && b.error !== '' ? b.error : `HTTP ${status}`;
  const wait =
    parseRetryAfter(header('retry-after'), nowMs) ?? parseRetryAfter(header('x-ratelimit-reset'), nowMs);
  return new PipedriveApiError(status, error, wait);
}

/** The wait when `err` is Pipedrive's 429 (burst window or daily budget), else null. */
export function pipedriveRateLimit(err: unknown): RateLimitSignal | null {
  if (!(err instanceof PipedriveApiError) || err.status !== 429) return null;
  return { retryAfterMs: err.retryAfterMs, message: err.error, status: 429 };
}

/** The HTTP status of a failed request, when Pipedrive answered. */
export function statusOf(err: unknown): number | undefined {
  if (err instanceof PipedriveApiError) return err.status;
  if (err instanceof CrmError) return err.status;
  return undefined;
}

/** Any error of a request as a CrmError (no answer at all: a network failure, retryable). */
export function toCrmError(err: unknown, what: string): CrmError {
  if (err instanceof CrmError) return err;
  if (err instanceof PipedriveApiError) {
    return new CrmError({
      destination: DESTINATION,
      status: err.status,
      code: err.status === 401 ? 'UNAUTHORIZED' : err.status === 403 ? 'FORBIDDEN' : undefined,
      message: `${what}: ${err.status} ${err.error}`,
      retryable: isRetryableStatus(err.status),
    });
  }
  const code = (err as { code?: unknown } | null)?.code;
  const reason = typeof code === 'string' ? code : err instanceof Error ? err.name : 'network error';
  return new CrmError({ destination: DESTINATION, message: `${what}: ${reason}`, retryable: true });
}
