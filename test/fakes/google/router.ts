// A small router for the local Google test server: each API (Drive, Sheets, and whatever later
// tests add: Tasks, Speech, …) registers its routes here as a module; the router checks auth once,
// reads each body whole, records every request and answers errors in Google's JSON shape.
import type { IncomingHttpHeaders } from 'node:http';

/** Whom a verified bearer token speaks for. */
export interface GoogleIdentity {
  /** The service account that obtained (or signed) the token. */
  serviceAccount: string;
  /** The user the token acts as: the delegated `sub`, or the service account itself. */
  user: string;
  scope: string;
}

/** A request as a route handler sees it. */
export interface FakeRequest {
  method: string;
  /** Path without the query, still percent-encoded. */
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  body: Buffer;
  /** Whom the verified bearer token speaks for (`user` is the delegated subject, if any). */
  identity: GoogleIdentity;
  /** Named groups of the route's pattern, percent-decoded. */
  params: Record<string, string>;
  /** The body parsed as JSON (a 400 in Google's shape when it is not). */
  json<T = unknown>(): T;
}

/** What a handler answers: a JSON body (objects), raw bytes (Buffers), or nothing. */
export interface FakeResponse {
  status: number;
  headers?: Record<string, string>;
  body?: unknown;
}

export type Handler = (req: FakeRequest) => FakeResponse | Promise<FakeResponse>;

export interface Route {
  method: string;
  /** Matched against the percent-encoded path; named groups become params. */
  pattern: RegExp;
  handler: Handler;
}

/** An error Google's APIs would answer; thrown by handlers, answered by the router. */
export class GoogleApiError extends Error {
  constructor(
    readonly code: number,
    readonly status: string,
    message: string,
    readonly reason: string,
    readonly extraHeaders: Record<string, string> = {},
    /** The `errors[].domain` Google names (`global`, or e.g. `usageLimits` for quota refusals). */
    readonly domain = 'global',
  ) {
    super(message);
  }
}

/** Google's error body: `{error: {code, message, status, errors: [{message, domain, reason}]}}`. */
export function googleErrorBody(err: GoogleApiError): unknown {
  return {
    error: {
      code: err.code,
      message: err.message,
      status: err.status,
      errors: [{ message: err.message, domain: err.domain, reason: err.reason }],
    },
  };
}

export const badRequest = (message: string, reason = 'badRequest') =>
  new GoogleApiError(400, 'INVALID_ARGUMENT', message, reason);
export const notFound = (message: string) => new GoogleApiError(404, 'NOT_FOUND', message, 'notFound');

/** One API's routes, registered on the router with the shared server context. */
export type FakeGoogleModule<Ctx> = (router: Router, ctx: Ctx) => void;

/** The routes, in registration order. */
export class Router {
  readonly routes: Route[] = [];

  add(method: string, pattern: RegExp, handler: Handler): void {
    this.routes.push({ method, pattern, handler });
  }

  /** The route for a method and path, with its params; undefined when none matches. */
  match(method: string, path: string): { route: Route; params: Record<string, string> } | undefined {
    for (const route of this.routes) {
      if (route.method !== method) continue;
      const m = route.pattern.exec(path);
      if (!m) continue;
      const params: Record<string, string> = {};
      for (const [k, v] of Object.entries(m.groups ?? {})) params[k] = decodeURIComponent(v);
      return { route, params };
    }
    return undefined;
  }
}
