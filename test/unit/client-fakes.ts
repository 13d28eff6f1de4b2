// Fakes for the platform client's unit tests: a scripted fetch, a manual clock, a capturing logger.
import pino from 'pino';
import { createPlatformClient, type PlatformClientOptions } from '../../connectors/platform';
import type { RequestEvent } from '../../connectors/platform';

export const BASE_URL = 'http://platform.test/v1.1/voipstudio';
export const API_KEY = '9f8e7d6c5b4a39281706f5e4d3c2b1a098877665';
export const PASSWORD = 'pa55-w0rd!secret';
export const EMAIL = 'admin@example.com';

/** One request as the fake fetch saw it. */
export interface SeenRequest {
  method: string;
  /** Path below the base URL, without query. */
  path: string;
  query: URLSearchParams;
  headers: Record<string, string>;
  body: unknown;
  signal: AbortSignal | undefined;
  redirect: RequestInit['redirect'];
}

export type Handler = (req: SeenRequest) => Response | Promise<Response>;

/** A JSON response. */
export function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json', ...headers },
  });
}

/** A `{data, links}` single-resource response. */
export function single(data: unknown, status = 200): Response {
  return json(status, { data, links: {} });
}

/** A fetch that records each request and answers with `handler`. */
export function fakeFetch(handler: Handler) {
  const seen: SeenRequest[] = [];
  const fetch = (async (input: string | URL | Request, init?: RequestInit) => {
    const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
    const base = new URL(BASE_URL);
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries((init?.headers ?? {}) as Record<string, string>))
      headers[k.toLowerCase()] = v;
    const req: SeenRequest = {
      method: init?.method ?? 'GET',
      path: url.pathname.slice(base.pathname.length),
      query: url.searchParams,
      headers,
      body: typeof init?.body === 'string' ? JSON.parse(init.body) : undefined,
      signal: init?.signal ?? undefined,
      redirect: init?.redirect,
    };
    seen.push(req);
    return handler(req);
  }) as typeof globalThis.fetch;
  return { fetch, seen };
}

/** A logger whose JSON lines are kept in memory. */
export function captureLogger() {
  const lines: string[] = [];
  const logger = pino({ level: 'trace' }, { write: (s: string) => void lines.push(s) });
  return { logger, text: () => lines.join('') };
}

/** A client on a fake fetch, a manual clock and a recording sleep (which advances the clock). */
export function testClient(handler: Handler, overrides: Partial<PlatformClientOptions> = {}) {
  const clock = { t: Date.UTC(2026, 10, 1, 12) };
  const sleeps: number[] = [];
  const events: RequestEvent[] = [];
  const { fetch, seen } = fakeFetch(handler);
  const client = createPlatformClient({
    baseUrl: BASE_URL,
    credentials: { type: 'apiKey', userId: 420042, apiKey: API_KEY },
    burst: 1000,
    requestsPerSecond: 1000,
    fetch,
    now: () => clock.t,
    sleep: async (ms) => {
      sleeps.push(ms);
      clock.t += ms;
    },
    random: () => 0.5,
    onRequest: (e) => events.push(e),
    ...overrides,
  });
  return { client, seen, sleeps, events, clock };
}

/** Password credentials for testClient overrides. */
export const passwordCredentials = { type: 'password', email: EMAIL, password: PASSWORD } as const;

/** The Basic header value for a user id and secret. */
export function basic(userId: string | number, secret: string): string {
  return `Basic ${Buffer.from(`${userId}:${secret}`).toString('base64')}`;
}
