// Dataverse's service protection API limits as the Dynamics 365 test server enforces them
// (https://learn.microsoft.com/power-apps/developer/data-platform/api-limits): per user (here: per
// application user), in a sliding window of 5 minutes, at most 6,000 requests and 20 minutes (1,200,000
// ms) of combined execution time, and at most 52 requests at once. Beyond any of them the Web API
// answers 429 Too Many Requests with a Retry-After header (seconds) and the error code of the limit:
// 0x80072322 (requests), 0x80072321 (execution time), 0x80072326 (concurrent requests).
import { countLimited, newCounters, SlidingWindowLimit, type LimitCounters } from './vendor-limits';

export const WINDOW_MS = 300_000;
export const MAX_REQUESTS = 6000;
export const MAX_EXECUTION_MS = 1_200_000;
export const MAX_CONCURRENT = 52;

export interface Refusal {
  code: string;
  message: string;
  retryAfterSeconds: number;
}

/** One user's limits. */
class UserLimits {
  requests: SlidingWindowLimit;
  readonly executions: { at: number; ms: number }[] = [];
  running = 0;
  constructor(max: number, windowMs: number) {
    this.requests = new SlidingWindowLimit(max, windowMs);
  }
}

export class ServiceProtection {
  private readonly users = new Map<string, UserLimits>();
  /** Requests each user may send in any window (tests tighten it). */
  maxRequests = MAX_REQUESTS;
  /** The window's length (5 minutes; tests shorten it with tighten()). */
  windowMs = WINDOW_MS;
  readonly counters: LimitCounters = newCounters();
  /** Start times of requests admitted, per user, to compute Retry-After. */
  private readonly starts = new Map<string, number[]>();

  private user(id: string): UserLimits {
    let u = this.users.get(id);
    if (!u || u.requests.max !== this.maxRequests || u.requests.windowMs !== this.windowMs) {
      u = new UserLimits(this.maxRequests, this.windowMs);
      this.users.set(id, u);
      this.starts.set(id, []);
    }
    return u;
  }

  /** Admits one request of `userId` (call done() when answered), or says which limit refuses it. */
  admit(userId: string, now = Date.now()): { done: () => void } | Refusal {
    this.counters.requests++;
    const u = this.user(userId);
    const starts = this.starts.get(userId)!;
    while (starts.length > 0 && starts[0]! <= now - this.windowMs) starts.shift();
    while (u.executions.length > 0 && u.executions[0]!.at <= now - this.windowMs) u.executions.shift();
    const retryAfter = () => Math.max(1, Math.ceil(((starts[0] ?? now) + this.windowMs - now) / 1000));
    if (u.running >= MAX_CONCURRENT)
      return this.refuse(
        '0x80072326',
        `Number of concurrent requests exceeded the limit of ${MAX_CONCURRENT}.`,
        1,
      );
    const executed = u.executions.reduce((sum, e) => sum + e.ms, 0);
    if (executed >= MAX_EXECUTION_MS)
      return this.refuse(
        '0x80072321',
        'Combined execution time of incoming requests exceeded limit of 1,200,000 milliseconds over time window of 300 seconds. Decrease number of concurrent requests or reduce the duration of requests and try again later.',
        retryAfter(),
      );
    if (!u.requests.take(now))
      return this.refuse(
        '0x80072322',
        `Number of requests exceeded the limit of ${this.maxRequests} over time window of ${this.windowMs / 1000} seconds.`,
        retryAfter(),
      );
    starts.push(now);
    u.running++;
    const started = Date.now();
    return {
      done: () => {
        u.running--;
        u.executions.push({ at: started, ms: Date.now() - started });
      },
    };
  }

  /** A smaller limit for tests: `max` requests in any `windowMs`. */
  tighten(max: number, windowMs: number): void {
    this.maxRequests = max;
    this.windowMs = windowMs;
  }

  private refuse(code: string, message: string, retryAfterSeconds: number): Refusal {
    countLimited(this.counters, code);
    return { code, message, retryAfterSeconds };
  }
}
