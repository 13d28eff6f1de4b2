// Zoho CRM's error answers as CrmErrors. Zoho answers an error as {code, details, message, status:
// "error"} (https://www.zoho.com/crm/developer/docs/api/v8/status-codes.html), and each record of an
// insert, update or delete carries its own such entry in `data[]`. 429 TOO_MANY_REQUESTS is the
// concurrency or credit limit (https://www.zoho.com/crm/developer/docs/api/v8/api-limits.html).
import { z } from 'zod';
import { CrmError, isRetryableStatus } from '../crm/errors';
import type { RateLimitSignal } from '../crm/rate-gate';
import type { ZohoAnswer } from './sdk';

export const DESTINATION = 'zoho';

const zohoErrorSchema = z.looseObject({
  code: z.string(),
  message: z.string().optional(),
  status: z.literal('error').optional(),
  details: z.record(z.string(), z.unknown()).optional(),
});
export type ZohoErrorBody = z.infer<typeof zohoErrorSchema>;

/** Zoho's error entry (the whole answer, or the first record's), if the body is one. */
export function zohoErrorOf(body: unknown): ZohoErrorBody | null {
  const whole = zohoErrorSchema.safeParse(body);
  if (whole.success) return whole.data;
  const data = (body as { data?: unknown } | null)?.data;
  if (Array.isArray(data)) {
    const first = zohoErrorSchema.safeParse(data[0]);
    if (first.success && first.data.status === 'error') return first.data;
  }
  return null;
}

/** An HTTP answer Zoho refused (status ≥ 400), as thrown inside the rate gate. */
export class ZohoHttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string | undefined,
    message: string,
    /** When Zoho said the limit resets (ms since epoch), from X-RATELIMIT-RESET. */
    readonly resetAt?: number,
  ) {
    super(message);
    this.name = 'ZohoHttpError';
  }
}

/** The thrown error of a refused answer; its message names Zoho's code and message, never the request. */
export function refusal(what: string, answer: ZohoAnswer): ZohoHttpError {
  const e = zohoErrorOf(answer.body);
  const reset = Number(answer.headers.get('x-ratelimit-reset'));
  return new ZohoHttpError(
    answer.status,
    e?.code,
    `${what}: HTTP ${answer.status} ${e?.code ?? ''} ${e?.message ?? ''}`.trim(),
    Number.isFinite(reset) && reset > 0 ? reset : undefined,
  );
}

/**
 * The refusal inside an SDKException, when the SDK met one in a request of its own (the field
 * metadata it reads before a module's first request) and threw it with Zoho's code in `details`.
 */
export function sdkRefusal(err: unknown): ZohoHttpError | null {
  const details = (err as { details?: { code?: unknown; message?: unknown } } | null)?.details;
  if (typeof details?.code !== 'string') return null;
  const status = details.code === 'INVALID_TOKEN' ? 401 : details.code === 'TOO_MANY_REQUESTS' ? 429 : 400;
  const message = typeof details.message === 'string' ? details.message : '';
  return new ZohoHttpError(status, details.code, `field metadata: ${details.code} ${message}`.trim());
}

/** The wait when `err` is Zoho's 429, else null. */
export function zohoRateLimit(err: unknown, now = Date.now()): RateLimitSignal | null {
  if (!(err instanceof ZohoHttpError) || err.status !== 429) return null;
  const retryAfterMs = err.resetAt !== undefined ? Math.max(0, err.resetAt - now) : undefined;
  return { retryAfterMs, message: err.message, status: 429 };
}

/** Any error of a Zoho request as a CrmError (no HTTP status: the network, retryable). */
export function toCrmError(err: unknown): CrmError {
  if (err instanceof CrmError) return err;
  if (err instanceof ZohoHttpError) {
    // A unique field's value already held (callsync's key): a conflict, as the batch contract says.
    const status = err.code === 'DUPLICATE_DATA' ? 409 : err.status;
    return new CrmError({
      destination: DESTINATION,
      status,
      code: err.code,
      message: err.message,
      retryable: isRetryableStatus(err.status),
    });
  }
  // The SDK wraps a failed connection in an SDKException whose cause is got's error.
  const message = err instanceof Error ? err.message : String(err);
  return new CrmError({ destination: DESTINATION, message: `request failed: ${message}`, retryable: true });
}
