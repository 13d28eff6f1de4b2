// The one request core of the Pipedrive connector: the official client's API classes (v1 for call
// logs, notes, person fields and users; v2 for persons and activities) pointed at the configured
// origin, every request through a rate gate (Pipedrive's per-token burst window, and the Search
// API's own window), a 401 answered by one renewal of an OAuth access token, and every failure as a
// CrmError.
// https://pipedrive.readme.io/docs/core-api-concepts-rate-limiting
import type * as Pipedrive from 'pipedrive';
import { lazyPackage } from '../../lib/lazy-package';
import { bothLimits, realTime, type TimeSource } from '../../lib/rate-limiter';
import { WindowLimiter } from '../../lib/window-limiter';
import { RateGate, type TokenSourceFactory } from '../crm/rate-gate';
import { pipedriveApiUrl, type PipedriveConfig } from './config';
import { apiErrorOf, DESTINATION, pipedriveRateLimit, statusOf, toCrmError } from './errors';

const pipedrive = lazyPackage<typeof Pipedrive>('pipedrive');

/** Where the access token comes from: fixed (API token) or renewed (OAuth, access-token.ts). */
export interface AccessTokenSource {
  current(): Promise<string>;
  /** Pipedrive refused `token`: true when current() will give another one to retry with. */
  invalidate(token: string): boolean;
}

/** The official client's API classes one request may use. */
export interface PipedriveApis {
  activities: Pipedrive.v2.ActivitiesApi;
  persons: Pipedrive.v2.PersonsApi;
  callLogs: Pipedrive.v1.CallLogsApi;
  notes: Pipedrive.v1.NotesApi;
  personFields: Pipedrive.v1.PersonFieldsApi;
  users: Pipedrive.v1.UsersApi;
}

export interface PipedriveClientOptions {
  time?: TimeSource;
  /** Windows shared by every worker (PostgreSQL); default: this process's own. */
  limiters?: TokenSourceFactory;
  /** Longest wait for a 429 inside the connector (default 15 s); longer is left to Temporal. */
  maxRetryAfterMs?: number;
}

/** The axios options every request of the client gets: error answers become PipedriveApiErrors. */
function baseOptions(): Record<string, unknown> {
  return {
    // Replaces axios's own JSON parsing: an error answer keeps its status and rate-limit headers
    // (the client's interceptor would pass on the parsed body alone).
    transformResponse: [
      (data: unknown, headers: { get?(n: string): unknown } | undefined, status: number | undefined) => {
        let body = data;
        if (typeof data === 'string' && data !== '') {
          try {
            body = JSON.parse(data) as unknown;
          } catch {
            body = data;
          }
        }
        if (status === undefined || status < 400) return body;
        const header = (n: string) => {
          const v = headers?.get?.(n);
          return typeof v === 'string' ? v : undefined;
        };
        return apiErrorOf(status, body, header);
      },
    ],
  };
}

export class PipedriveClient {
  private readonly gate: RateGate;
  private readonly searchGate: RateGate;
  private readonly apis: PipedriveApis;

  constructor(
    config: PipedriveConfig,
    private readonly token: AccessTokenSource | null,
    destinationId: string,
    opts: PipedriveClientOptions = {},
  ) {
    const origin = pipedriveApiUrl(config);
    const auth = token ? { accessToken: () => token.current() } : { apiKey: config.apiToken ?? '' };
    const { v1, v2 } = pipedrive();
    const c1 = new v1.Configuration({ ...auth, basePath: `${origin}/api/v1` });
    const c2 = new v2.Configuration({ ...auth, basePath: `${origin}/api/v2` });
    c1.baseOptions = baseOptions();
    c2.baseOptions = baseOptions();
    this.apis = {
      activities: new v2.ActivitiesApi(c2),
      persons: new v2.PersonsApi(c2),
      callLogs: new v1.CallLogsApi(c1),
      notes: new v1.NotesApi(c1),
      personFields: new v1.PersonFieldsApi(c1),
      users: new v1.UsersApi(c1),
    };
    const time = opts.time ?? realTime;
    const gateOpts = {
      destination: DESTINATION,
      time,
      ...(opts.maxRetryAfterMs !== undefined ? { maxRetryAfterMs: opts.maxRetryAfterMs } : {}),
    };
    // Pipedrive counts a rolling 2-second window per token, and so does callsync: a place frees two
    // seconds after the answer of the request that held it (lib/window-limiter.ts), so requests that
    // leave a busy worker late and bunched still arrive inside the limit. A start-based count with
    // margins (90% of the limit over 2.5 s) drew 429s on a loaded machine (bench:e2e --crm pipedrive).
    // The margins left (one request, 200 ms) cover how the vendor rounds its window's edges.
    const window = { max: Math.max(1, config.requestsPer2Seconds - 1), windowMs: 2_200 };
    const search = { max: Math.max(1, config.searchRequestsPer2Seconds - 1), windowMs: 2_200 };
    const limiter = (scope: string, rate: typeof window) =>
      opts.limiters ? opts.limiters.window(scope, rate) : new WindowLimiter(rate, time);
    const main = limiter(`${destinationId} requests`, window);
    this.gate = new RateGate({
      ...gateOpts,
      requestsPerSecond: window.max / 2,
      burst: window.max,
      limiter: main,
    });
    // A search spends a place in both windows: the Search API's and the token's.
    const searchWindow = limiter(`${destinationId} search`, search);
    this.searchGate = new RateGate({
      ...gateOpts,
      requestsPerSecond: search.max / 2,
      burst: search.max,
      limiter: bothLimits(searchWindow, main),
    });
  }

  /** Rate-limited answers seen (429s), for tests and metrics. */
  get throttled(): number {
    return this.gate.throttled + this.searchGate.throttled;
  }

  /**
   * Sends one request (`send` with the client's APIs) through the gate; `what` names it in errors
   * ("create activity"). A 401 renews an OAuth token once and sends again.
   */
  async call<T>(what: string, send: (apis: PipedriveApis) => Promise<T>, search = false): Promise<T> {
    const gate = search ? this.searchGate : this.gate;
    for (let renewals = 0; ; renewals++) {
      const used = this.token ? await this.token.current() : null;
      try {
        return await gate.run(() => send(this.apis), pipedriveRateLimit);
      } catch (err) {
        if (statusOf(err) === 401 && used !== null && renewals < 1 && this.token?.invalidate(used)) continue;
        throw toCrmError(err, what);
      }
    }
  }
}
