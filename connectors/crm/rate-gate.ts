// Client-side rate limiting for one CRM connector: a token bucket in front of every request (in this
// process, or shared by every worker through PostgreSQL), and a vendor's "slow down" answer (429 and
// its Retry-After) waited out here when short, or thrown as a CrmRateLimitedError (so a Temporal
// activity retries it later) when long.
import {
  holdPlace,
  RateLimiter,
  realTime,
  type RequestLimiter,
  type TimeSource,
} from '../../lib/rate-limiter';
import { recordApiRequest } from '../../lib/metrics';
import type { WindowRate } from '../../lib/window-limiter';
import { CrmRateLimitedError } from './errors';

/** The HTTP status a vendor SDK's error carries (`status`, or a numeric `code`), if any. */
export function statusOfError(err: unknown): number | undefined {
  const e = err as { status?: unknown; code?: unknown; statusCode?: unknown } | null;
  for (const v of [e?.status, e?.statusCode, e?.code])
    if (typeof v === 'number' && v >= 100 && v < 600) return v;
  return undefined;
}

export interface RateGateOptions {
  /** Connector name, for errors. */
  destination: string;
  /** Sustained requests per second. */
  requestsPerSecond: number;
  /** Requests that may go at once after a quiet spell. */
  burst: number;
  /** Times a rate-limited request is sent again here before giving up (default 2). */
  maxRetries?: number;
  /** Longest Retry-After waited here (default 15 s); longer waits are left to Temporal. */
  maxRetryAfterMs?: number;
  /** Wait when the vendor says "slow down" without saying how long (default 1 s). */
  defaultRetryAfterMs?: number;
  time?: TimeSource;
  /** The bucket to take tokens from (default: one in this process at the rate and burst above). */
  limiter?: TokenSource;
}

/** Hands out request tokens: resolves when one more request may be sent (with the ms waited). */
export type TokenSource = RequestLimiter;

/** Builds the limiter of one of a vendor's rates (its requests, its searches) for a connector. */
export interface TokenSourceFactory {
  /** A token bucket: `ratePerSecond` sustained, `burst` at once after a quiet spell. */
  bucket(scope: string, ratePerSecond: number, burst: number): TokenSource;
  /** A sliding window: at most `max` requests in any `windowMs`. */
  window(scope: string, rate: WindowRate): TokenSource;
}

/** What the vendor said when it refused a request for its rate limit. */
export interface RateLimitSignal {
  retryAfterMs: number | undefined;
  message: string;
  status?: number;
}

/** Token bucket + rate-limit retries around a connector's requests. */
export class RateGate {
  private readonly limiter: TokenSource;
  private readonly time: TimeSource;
  /** Rate-limited answers seen, for tests and metrics. */
  throttled = 0;

  constructor(private readonly opts: RateGateOptions) {
    this.time = opts.time ?? realTime;
    this.limiter = opts.limiter ?? new RateLimiter(opts.requestsPerSecond, opts.burst, this.time);
  }

  /**
   * Runs `send` once a token is free. When `rateLimited` recognises the error as the vendor's rate
   * limit, waits its Retry-After (when short enough) and sends again; other errors pass through.
   */
  async run<T>(send: () => Promise<T>, rateLimited: (err: unknown) => RateLimitSignal | null): Promise<T> {
    const maxRetries = this.opts.maxRetries ?? 2;
    const maxWait = this.opts.maxRetryAfterMs ?? 15_000;
    for (let attempt = 0; ; attempt++) {
      // The place is held until the answer: a window limit counts from it (lib/window-limiter.ts).
      const place = await holdPlace(this.limiter);
      try {
        const result = await send().finally(() => place.release());
        recordApiRequest(this.opts.destination, 200);
        return result;
      } catch (err) {
        const signal = rateLimited(err);
        // callsync_api_requests_total per vendor: the answer's status when the error carries one.
        recordApiRequest(this.opts.destination, signal ? 429 : statusOfError(err));
        if (!signal) throw err;
        this.throttled++;
        const wait = signal.retryAfterMs ?? this.opts.defaultRetryAfterMs ?? 1_000;
        if (attempt >= maxRetries || wait > maxWait) {
          throw new CrmRateLimitedError({
            destination: this.opts.destination,
            message: signal.message,
            status: signal.status,
            code: 'RATE_LIMITED',
            retryAfterMs: signal.retryAfterMs,
          });
        }
        await this.time.sleep(wait);
      }
    }
  }
}
