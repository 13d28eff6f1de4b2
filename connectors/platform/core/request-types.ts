// The vocabulary of the request core: request kinds, results, the session port and the hook event.
import type { Readable } from 'node:stream';
import type { z } from 'zod';
import type { PathParams } from './path';

export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
export type QueryValue = string | number | boolean | undefined;
export type QueryParams = Readonly<Record<string, QueryValue>>;

/**
 * How a request is authenticated. `required`: the session logs in / keeps alive first and re-logs in once
 * after a 401. `optional`: the header when there is one (password-reset endpoints). `current`: the
 * session's own ping and logout, with no session work around them. `none`: no header (login).
 */
export type AuthMode = 'required' | 'optional' | 'current' | 'none';

/** What the core needs from the auth session; implemented by AuthSession. */
export interface SessionPort {
  /** Logs in, or pings after idling, before an authenticated request. */
  prepare(): Promise<void>;
  /** The Authorization header value, when there is a credential. */
  authorization(): string | undefined;
  /** After a 401 on a request sent with `usedAuthorization`: true when a new login makes a retry worthwhile. */
  recover(usedAuthorization: string | undefined): Promise<boolean>;
  /** Records that the token was just used successfully (it idles out 15 minutes later). */
  touch(): void;
  /** Every credential string to scrub from messages. */
  secrets(): readonly string[];
}

/** Reported to `onRequest` after every HTTP attempt. */
export interface RequestEvent {
  method: HttpMethod;
  /** The spec's path template, e.g. `/cdrs/{id}.trace`. */
  template: string;
  /** The expanded path, without query. */
  path: string;
  /** HTTP status; undefined when no response arrived. */
  status: number | undefined;
  /** 1-based attempt number of this logical request. */
  attempt: number;
  durationMs: number;
}

interface BaseRequest {
  method: HttpMethod;
  /** The spec's path template, exactly as in test/contract/spec-endpoints.ts. */
  template: string;
  params?: PathParams;
  query?: QueryParams;
  /** Sent as JSON. */
  body?: unknown;
  auth?: AuthMode;
  /** Extra success statuses besides 2xx (PATCH /calls/{id} answers 301). */
  alsoSuccess?: readonly number[];
  signal?: AbortSignal | undefined;
  /** Quick retries inside the core for this request (default: the core's maxRetries). */
  maxRetries?: number;
}

/**
 * JSON response parsed by `schema`. `envelope`: `single` unwraps `{data, links}`; `bare` parses the whole
 * body; `auto` unwraps when the body looks like a single envelope (for responses the spec does not show).
 */
export interface JsonRequest<S extends z.ZodType> extends BaseRequest {
  response: 'json';
  schema: S;
  envelope?: 'single' | 'bare' | 'auto';
}

/** A file: returned as a stream with its content type, never buffered. */
export interface BinaryRequest extends BaseRequest {
  response: 'binary';
}

/** A response whose body does not matter (deletes): only the status is returned. */
export interface EmptyRequest extends BaseRequest {
  response: 'empty';
}

export type CoreRequest = JsonRequest<z.ZodType> | BinaryRequest | EmptyRequest;

/** A downloaded file (.mp3, .pcap, .trace, .csv, user audio). Consume or destroy `body`. */
export interface BinaryResponse {
  contentType: string;
  contentLength?: number;
  body: Readable;
}

/** Result of a delete: 202 means the platform accepted it for asynchronous processing. */
export interface DeleteResult {
  status: number;
  accepted: boolean;
}
