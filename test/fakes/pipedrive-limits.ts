// Pipedrive's request limits, as the fake Pipedrive enforces them
// (https://pipedrive.readme.io/docs/core-api-concepts-rate-limiting):
// - a burst limit per token in a rolling 2-second window (the lowest plan: 20 requests per 2 seconds
//   with an API token, 80 with an OAuth access token), with x-ratelimit-limit, x-ratelimit-remaining
//   and x-ratelimit-reset on every answer and a 429 beyond it;
// - the Search API's own limit: 10 requests per 2 seconds on every plan;
// - the company's daily token budget (token-based rate limiting: 30,000 base tokens × the plan's
//   multiplier × seats; each request costs tokens by its kind, search and lists the most), reset at
//   midnight UTC, a 429 once spent. The costs below follow the page's cost classes (single-entity
//   read, list, write, delete, search); v2 endpoints cost less than their v1 equivalents. Each
//   endpoint's reference page shows its cost (GET /api/v2/activities: 10,
//   https://developers.pipedrive.com/docs/api/v1/Activities); the other costs here follow the
//   classes, not each page.
import { SlidingWindowLimit } from './vendor-limits';

/** The window of the burst limits, ms. */
export const BURST_WINDOW_MS = 2_000;
/** The lowest plan's burst limits per 2 seconds. */
export const API_TOKEN_BURST = 20;
export const OAUTH_BURST = 80;
export const SEARCH_BURST = 10;
/** A one-seat Lite company's daily budget. */
export const DAILY_TOKENS = 30_000;

/** The token cost of a request, by version and kind. */
export function tokenCost(method: string, path: string): number {
  const v2 = path.startsWith('/api/v2/');
  if (path.endsWith('/search')) return v2 ? 20 : 40;
  if (method === 'GET') return /\/\d+$|\/[0-9a-f-]{8,}$/.test(path) ? (v2 ? 1 : 2) : v2 ? 10 : 20;
  if (method === 'DELETE') return v2 ? 3 : 6;
  return v2 ? 5 : 10;
}

/** What the fake answers about its limits. */
export type LimitVerdict =
  | { ok: true; headers: Record<string, string> }
  | { ok: false; policy: 'burst' | 'search' | 'daily'; headers: Record<string, string> };

export class PipedriveLimits {
  private readonly windows = new Map<string, SlidingWindowLimit>();
  private readonly searches = new Map<string, SlidingWindowLimit>();
  /** Tokens spent today (reset with `resetDay`). */
  spent = 0;
  /** Refusals, by policy. */
  readonly refused = { burst: 0, search: 0, daily: 0 };
  /** When set, every token's burst limit (tightenRateLimit). */
  burstOverride: number | undefined;

  constructor(public dailyTokens = DAILY_TOKENS) {}

  /** Checks and counts one request of `token` (the API token, or the OAuth access token). */
  take(token: string, oauth: boolean, method: string, path: string, now = Date.now()): LimitVerdict {
    const max = this.burstOverride ?? (oauth ? OAUTH_BURST : API_TOKEN_BURST);
    let window = this.windows.get(token);
    if (!window || window.max !== max)
      this.windows.set(token, (window = new SlidingWindowLimit(max, BURST_WINDOW_MS)));
    const reset = String(Math.ceil(BURST_WINDOW_MS / 1000));
    const cost = tokenCost(method, path);
    if (this.spent + cost > this.dailyTokens) {
      this.refused.daily++;
      const midnight = Date.UTC(
        new Date(now).getUTCFullYear(),
        new Date(now).getUTCMonth(),
        new Date(now).getUTCDate() + 1,
      );
      return {
        ok: false,
        policy: 'daily',
        headers: {
          'x-ratelimit-reset': String(Math.ceil((midnight - now) / 1000)),
          'x-daily-requests-left': '0',
        },
      };
    }
    if (path.endsWith('/search')) {
      let s = this.searches.get(token);
      if (!s) this.searches.set(token, (s = new SlidingWindowLimit(SEARCH_BURST, BURST_WINDOW_MS)));
      if (!s.take(now)) {
        this.refused.search++;
        return { ok: false, policy: 'search', headers: this.headers(max, 0, reset) };
      }
    }
    if (!window.take(now)) {
      this.refused.burst++;
      return { ok: false, policy: 'burst', headers: this.headers(max, 0, reset) };
    }
    this.spent += cost;
    return { ok: true, headers: this.headers(max, window.remaining(now), reset) };
  }

  /** 429 answers sent so far. */
  get tooMany(): number {
    return this.refused.burst + this.refused.search + this.refused.daily;
  }

  private headers(max: number, remaining: number, reset: string): Record<string, string> {
    return {
      'x-ratelimit-limit': String(max),
      'x-ratelimit-remaining': String(remaining),
      'x-ratelimit-reset': reset,
    };
  }
}
