// The one request core of the Dynamics 365 destination: dynamics-web-api (the Dataverse Web API
// client) with MSAL's tokens, every request through a rate gate at the configured rate and inside the
// service protection limits of the application user
// (https://learn.microsoft.com/power-apps/developer/data-platform/api-limits: 6,000 requests in any 5
// minutes, 52 at once; a 429 with Retry-After beyond them), and a refused token (401) renewed once.
import type { DynamicsWebApi } from 'dynamics-web-api';
import { lazyPackage } from '../../lib/lazy-package';
import { bothLimits, RateLimiter, realTime, type TimeSource } from '../../lib/rate-limiter';
import { WindowLimiter } from '../../lib/window-limiter';
import { RateGate, type TokenSourceFactory } from '../crm/rate-gate';
import { DynamicsAccessToken } from './access-token';
import { environmentUrl, type DynamicsConfig } from './config';
import { DESTINATION, dynamicsRateLimit, statusOf, toCrmError } from './errors';

const dwa = lazyPackage<typeof import('dynamics-web-api')>('dynamics-web-api');

/** Requests per user in any 5 minutes, with 5 s of margin for requests that arrive late. */
export const REQUESTS_PER_WINDOW = 6000;
const WINDOW_MS = 305_000;
/** Concurrent requests per user; callsync keeps a few below it for the org's own tools. */
const MAX_CONCURRENT = 48;
/** A request that takes longer is abandoned (Dataverse's own limit on one operation is 2 minutes). */
const REQUEST_TIMEOUT_MS = 120_000;

export interface WebApiOptions {
  time?: TimeSource;
  /** Limiters shared by every worker (PostgreSQL); default: this process's own. */
  limiters?: TokenSourceFactory;
}

/** At most `max` promises running; the rest queue in order. */
class Concurrency {
  private running = 0;
  private readonly queue: (() => void)[] = [];
  constructor(private readonly max: number) {}
  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.running >= this.max) await new Promise<void>((r) => this.queue.push(r));
    this.running++;
    try {
      return await task();
    } finally {
      this.running--;
      this.queue.shift()?.();
    }
  }
}

export class WebApi {
  readonly client: DynamicsWebApi;
  readonly gate: RateGate;
  private readonly token: DynamicsAccessToken;
  private readonly slots = new Concurrency(MAX_CONCURRENT);

  constructor(config: DynamicsConfig, opts: WebApiOptions = {}) {
    this.token = new DynamicsAccessToken(config);
    this.client = new (dwa().DynamicsWebApi)({
      serverUrl: environmentUrl(config),
      dataApi: { version: config.apiVersion },
      onTokenRefresh: () => this.token.current(),
      // 404 and 412 as errors: a record that is gone must not read as "updated".
      propagateErrors: true,
      timeout: REQUEST_TIMEOUT_MS,
    });
    const rate = config.requestsPerSecond;
    const burst = Math.max(1, Math.ceil(rate));
    const window = { max: REQUESTS_PER_WINDOW, windowMs: WINDOW_MS };
    // Dataverse counts per user: the environment and the application user name the limits.
    const scope = `${environmentUrl(config)} ${config.clientId}`;
    const time = opts.time ?? realTime;
    const limiter = opts.limiters
      ? bothLimits(
          opts.limiters.bucket(`${scope} requests`, rate, burst),
          opts.limiters.window(`${scope} window`, window),
        )
      : bothLimits(new RateLimiter(rate, burst, time), new WindowLimiter(window, time));
    this.gate = new RateGate({ destination: DESTINATION, requestsPerSecond: rate, burst, time, limiter });
  }

  /** Sends one Web API request through the gate; failures as CrmErrors. */
  async call<T>(send: (client: DynamicsWebApi) => Promise<T>): Promise<T> {
    try {
      return await this.gate.run(() => this.slots.run(() => this.withToken(send)), dynamicsRateLimit);
    } catch (err) {
      throw toCrmError(err);
    }
  }

  /** After a 401 (the token expired or was revoked early), renews the token and sends once more. */
  private async withToken<T>(send: (client: DynamicsWebApi) => Promise<T>): Promise<T> {
    try {
      return await send(this.client);
    } catch (err) {
      if (statusOf(err) !== 401) throw err;
      // Refused before Dataverse did anything, so sending again cannot write twice.
      this.token.invalidate();
      return await send(this.client);
    }
  }
}
