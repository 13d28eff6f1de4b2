// How the Tasks, Speech and Language modules register their routes on the local Google's router
// (router.ts): Express-like paths (`:name` parameters, `::` for a literal colon) turned into the
// router's patterns, JSON bodies parsed, and this folder's GoogleApiError answered in Google's shape.
import type { IncomingHttpHeaders } from 'node:http';
import { GoogleApiError } from './api-error';
import { GoogleApiError as RouterError, type GoogleIdentity, type Router } from './router';

/** A request as the modules' handlers see it. */
export interface HostRequest {
  params: Record<string, string>;
  query: Record<string, string>;
  body: unknown;
  headers: IncomingHttpHeaders;
  /** Whom the verified bearer token speaks for. */
  identity: GoogleIdentity;
}

export type HostHandler = (req: HostRequest) => Promise<unknown>;

/** Registers handlers by method and path. */
export interface RouteHost {
  get(path: string, handler: HostHandler): void;
  post(path: string, handler: HostHandler): void;
  patch(path: string, handler: HostHandler): void;
  /** Answers 204 with no body once the handler resolves. */
  delete(path: string, handler: HostHandler): void;
}

const STATUS: Record<number, string> = {
  400: 'INVALID_ARGUMENT',
  401: 'UNAUTHENTICATED',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  429: 'RESOURCE_EXHAUSTED',
};

/** `/v1/lists/:tasklist/tasks` → a pattern with a `tasklist` group; `::` stands for a literal `:`. */
export function pathPattern(path: string): RegExp {
  const source = path
    .split('/')
    .map((segment) => {
      if (segment.startsWith(':') && !segment.startsWith('::')) return `(?<${segment.slice(1)}>[^/]+)`;
      return segment.replaceAll('::', ':').replace(/[.*+?^${}()|[\]\\@]/g, '\\$&');
    })
    .join('/');
  return new RegExp(`^${source}$`);
}

/** The user the request acts as: the delegated subject of its token, or the service account. */
export function bearerSubject(req: HostRequest): string {
  return req.identity.user;
}

/** A RouteHost that adds each route to `router`. */
export function routeHost(router: Router): RouteHost {
  const add = (method: string) => (path: string, handler: HostHandler) =>
    router.add(method, pathPattern(path), async (req) => {
      try {
        const body = method === 'GET' || method === 'DELETE' ? undefined : req.json();
        const result = await handler({
          params: req.params,
          query: Object.fromEntries(req.query),
          body,
          headers: req.headers,
          identity: req.identity,
        });
        return method === 'DELETE' ? { status: 204 } : { status: 200, body: result };
      } catch (err) {
        if (err instanceof GoogleApiError) {
          throw new RouterError(
            err.code,
            STATUS[err.code] ?? 'UNKNOWN',
            err.message,
            err.reason ?? 'invalid',
          );
        }
        throw err;
      }
    });
  return { get: add('GET'), post: add('POST'), patch: add('PATCH'), delete: add('DELETE') };
}
