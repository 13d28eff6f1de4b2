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

/** Parses Retry-After (delta seconds or an HTTP date) into milliseconds from `nowMs`; undefined if absent or bad. */
export function parseRetryAfter(value: string | null | undefined, nowMs: number): number | undefined {
  if (value === null || value === undefined) return undefined;
  const v = value.trim();
  if (v === '') return undefined;
  if (/^\d+(\.\d+)?$/.test(v)) return Math.round(Number(v) * 1000);
  const at = Date.parse(v);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - nowMs);
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
