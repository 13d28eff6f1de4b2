// The shape of one API route: a spec template plus a handler that turns a call into a response.
import type { Readable } from 'node:stream';
import type { EmulatorContext } from './context';
import type { ApiMethod } from './paths';

/** Who is calling: resolved from a session token or an API key. */
export interface Identity {
  user_id: number;
  customer_id: number;
  /** The session token when the caller authenticated with one (not for API keys). */
  token?: string;
}

/** Everything a handler needs about one request. */
export interface ApiCall {
  ctx: EmulatorContext;
  identity: Identity | undefined;
  params: Readonly<Record<string, string>>;
  query: Readonly<Record<string, unknown>>;
  body: unknown;
  /** Absolute base URL of the request's version, e.g. http://127.0.0.1:8787/v1.2/voipstudio (for links). */
  baseUrl: string;
}

/** A call to a route that requires authentication. */
export interface AuthedCall extends ApiCall {
  identity: Identity;
}

/** What a handler answers. JSON bodies are serialised once, as a whole (fast for 5000-row pages). */
export type ApiResponse =
  | { kind: 'json'; status: number; body: unknown; headers?: Record<string, string> }
  | { kind: 'bytes'; status: number; contentType: string; bytes: Buffer }
  /** Binary content produced as it is sent (long recordings). */
  | { kind: 'stream'; status: number; contentType: string; length: number; open(): Readable }
  | { kind: 'empty'; status: number };

/** How a route authenticates: required (401 without), optional (/ping), none (/login and friends). */
export type AuthMode = 'required' | 'optional' | 'none';

interface RouteBase {
  method: ApiMethod;
  /** The spec template, e.g. '/cdrs/{id}.trace'. */
  template: string;
}

/** One API route of the emulator. */
export type RouteDef =
  | (RouteBase & { auth: 'required'; handle(call: AuthedCall): ApiResponse | Promise<ApiResponse> })
  | (RouteBase & { auth: 'optional' | 'none'; handle(call: ApiCall): ApiResponse | Promise<ApiResponse> });
