// The request limits the fake CRMs enforce, as the vendors document them: sliding windows (HubSpot's
// 190 requests per rolling 10 seconds and 5 searches per second for a Professional private app) and a
// daily allowance (a Salesforce org's API calls per 24 hours). Counters are readable by tests and
// benches, so they can assert "no 429" and count requests per unit of work.

/** A limit of `max` requests in any rolling window of `windowMs`. */
export class SlidingWindowLimit {
  private readonly times: number[] = [];

  constructor(
    readonly max: number,
    readonly windowMs: number,
  ) {}

  private prune(now: number): void {
    while (this.times.length > 0 && this.times[0]! <= now - this.windowMs) this.times.shift();
  }

  /** Takes one request's place in the window, or returns false when the window is full. */
  take(now = Date.now()): boolean {
    this.prune(now);
    if (this.times.length >= this.max) return false;
    this.times.push(now);
    return true;
  }

  /** Places left in the window now. */
  remaining(now = Date.now()): number {
    this.prune(now);
    return Math.max(0, this.max - this.times.length);
  }
}

/** Requests allowed per day (the vendor's 24-hour allowance), counted from `used`. */
export class DailyAllowance {
  used = 0;

  constructor(public max: number) {}

  /** Spends one request, or returns false when the allowance is spent. */
  take(): boolean {
    if (this.used >= this.max) return false;
    this.used++;
    return true;
  }

  get remaining(): number {
    return Math.max(0, this.max - this.used);
  }
}

/** What a fake answered, for benches and tests: every request, and those refused for a limit. */
export interface LimitCounters {
  /** Requests answered (any status). */
  requests: number;
  /** Requests refused for a rate or daily limit (HubSpot: 429; Salesforce: REQUEST_LIMIT_EXCEEDED). */
  limited: number;
  /** Refusals by the vendor's policy name (e.g. TEN_SECONDLY_ROLLING, SECONDLY, DAILY). */
  byPolicy: Record<string, number>;
}

export function newCounters(): LimitCounters {
  return { requests: 0, limited: 0, byPolicy: {} };
}

export function countLimited(counters: LimitCounters, policy: string): void {
  counters.limited++;
  counters.byPolicy[policy] = (counters.byPolicy[policy] ?? 0) + 1;
}
