import { PlatformError, RateLimitedError } from './errors';

/** Backoff tuning: few and fast, since durable retries belong to Temporal's activity retry policies. */
export interface BackoffOptions {
  baseMs: number;
  capMs: number;
  /** Source of randomness in [0, 1); injected for tests. */
  random: () => number;
}

export const DEFAULT_BACKOFF: BackoffOptions = { baseMs: 250, capMs: 5_000, random: Math.random };

/**
 * Whether an error is worth another attempt. Every method is retried on 408/429/5xx and network errors,
 * POST included: the platform has no idempotency keys, so a request that reached the server before a
 * reset may run twice; the callers that care (call placement) dedupe by their own ids.
 */
export function shouldRetry(err: unknown): boolean {
  return err instanceof PlatformError && err.retryable;
}

/** Exponential backoff with full jitter: a random delay in [0, min(cap, base * 2^attempt)). */
export function backoffDelay(attempt: number, opts: BackoffOptions = DEFAULT_BACKOFF): number {
  const ceiling = Math.min(opts.capMs, opts.baseMs * 2 ** attempt);
  return Math.floor(opts.random() * ceiling);
}

/**
 * The delay before the next attempt, or undefined when the core should not wait for itself: a 429 whose
 * Retry-After exceeds `maxRetryAfterMs` is thrown so the caller (a Temporal activity) can schedule it.
 */
export function retryDelay(
  err: PlatformError,
  attempt: number,
  opts: BackoffOptions & { maxRetryAfterMs: number },
): number | undefined {
  if (err instanceof RateLimitedError && err.retryAfterMs !== undefined) {
    return err.retryAfterMs <= opts.maxRetryAfterMs ? err.retryAfterMs : undefined;
  }
  return backoffDelay(attempt, opts);
}
