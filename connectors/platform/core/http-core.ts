import { Readable } from 'node:stream';
import { z } from 'zod';
import type { Logger } from '../../../lib/logger';
import { RateLimiter, type RequestLimiter } from '../../../lib/rate-limiter';
import { parseRetryAfter } from '../../../lib/retry-after';
import { collectionEnvelope, singleEnvelope } from '../schemas';
import {
  describeIssues,
  errorFromResponse,
  NetworkError,
  PlatformError,
  SchemaError,
  TimeoutError,
  UnauthorizedError,
} from './errors';
import { Paginator, type ListOptions, type RawPage } from './pagination';
import { expandPath, type PathParams } from './path';
import type {
  BinaryRequest,
  BinaryResponse,
  CoreRequest,
  DeleteResult,
  EmptyRequest,
  JsonRequest,
  QueryParams,
  RequestEvent,
  SessionPort,
} from './request-types';
import { redact, redactDeep } from './redact';
import { retryDelay, shouldRetry, type BackoffOptions } from './retry';

export type {
  AuthMode,
  BinaryRequest,
  BinaryResponse,
  CoreRequest,
  DeleteResult,
  EmptyRequest,
  HttpMethod,
  JsonRequest,
  QueryParams,
  QueryValue,
  RequestEvent,
  SessionPort,
} from './request-types';

/** Settings and injected dependencies of the core. */
export interface CoreOptions {
  baseUrl: string;
  timeoutMs: number;
  maxRetries: number;
  maxRetryAfterMs: number;
  requestsPerSecond: number;
  burst: number;
  /** Default `limit` of collection reads. */
  pageSize: number;
  fetch: typeof globalThis.fetch;
  logger: Logger;
  now: () => number;
  sleep: (ms: number) => Promise<void>;
  random: () => number;
  onRequest?: ((e: RequestEvent) => void) | undefined;
  /** Replaces the in-process limit of `requestsPerSecond` (e.g. one shared by every worker). */
  limiter?: RequestLimiter | undefined;
}

const NO_SESSION: SessionPort = {
  prepare: async () => undefined,
  authorization: () => undefined,
  recover: async () => false,
  touch: () => undefined,
  secrets: () => [],
};

/** The one request core: URL and auth header, JSON, timeout, retries, rate limit, typed errors, envelopes. */
export class PlatformCore {
  private session: SessionPort = NO_SESSION;
  private readonly limiter: RequestLimiter;
  private readonly baseUrl: string;
  private readonly backoff: BackoffOptions & { maxRetryAfterMs: number };

  constructor(private readonly opts: CoreOptions) {
    this.baseUrl = opts.baseUrl.replace(/\/+$/, '');
    this.limiter = opts.limiter ?? new RateLimiter(opts.requestsPerSecond, opts.burst, opts);
    this.backoff = { baseMs: 250, capMs: 5_000, random: opts.random, maxRetryAfterMs: opts.maxRetryAfterMs };
  }

  /** Connects the auth session (it sends its own login/ping/logout through this core). */
  useSession(session: SessionPort): void {
    this.session = session;
  }

  /** Credentials to scrub from anything shown; for callers that build their own messages. */
  secrets(): readonly string[] {
    return this.session.secrets();
  }

  /** Sends one logical request (with its retries) and returns the parsed result of its kind. */
  request<S extends z.ZodType>(req: JsonRequest<S>): Promise<z.output<S>>;
  request(req: BinaryRequest): Promise<BinaryResponse>;
  request(req: EmptyRequest): Promise<DeleteResult>;
  async request(req: CoreRequest): Promise<unknown> {
    const path = expandPath(req.template, req.params);
    return this.execute(req, path);
  }

  /** A lazy, typed collection read of a GET endpoint; see Paginator. */
  paginate<S extends z.ZodType>(
    req: { template: string; params?: PathParams; schema: S },
    options: ListOptions = {},
  ): Paginator<z.output<S>> {
    const path = expandPath(req.template, req.params);
    const envelope = collectionEnvelope(z.unknown());
    const fetchPage = async (query: QueryParams, signal: AbortSignal | undefined): Promise<RawPage> => {
      const request: JsonRequest<typeof envelope> = {
        method: 'GET',
        template: req.template,
        query,
        response: 'json',
        schema: envelope,
        envelope: 'bare',
        signal,
      };
      const page = await this.execute(request, path);
      return page as RawPage;
    };
    return new Paginator(fetchPage, req.schema as z.ZodType<z.output<S>>, options, this.opts.pageSize, path);
  }

  private async execute(req: CoreRequest, path: string): Promise<unknown> {
    const auth = req.auth ?? 'required';
    const url = this.baseUrl + path + queryString(req.query);
    let retries = 0;
    let reloggedIn = false;
    let freshLogin = false;
    for (let attempt = 1; ; attempt++) {
      if (auth === 'required') await this.session.prepare();
      const authorization = auth === 'none' ? undefined : this.session.authorization();
      await this.limiter.acquire();
      const started = this.opts.now();
      let status: number | undefined;
      try {
        const result = await this.attempt(req, path, url, authorization, (s) => {
          status = s;
          if (authorization !== undefined && s !== 401) this.session.touch();
        });
        this.report(req, path, status, attempt, started);
        return result;
      } catch (caught) {
        this.report(req, path, status, attempt, started);
        // Cancellation by the caller and programming errors pass through untouched.
        if (req.signal?.aborted || caught instanceof TypeError || caught instanceof RangeError) throw caught;
        const err = this.toPlatformError(caught, req.method, path);
        if (err instanceof UnauthorizedError && auth === 'required') {
          if (freshLogin) {
            // Logged in a moment ago and refused again: transient, for the caller's (Temporal's) retry.
            throw new UnauthorizedError({ ...err, message: err.message, afterFreshLogin: true });
          }
          if (!reloggedIn) {
            reloggedIn = true;
            if (await this.session.recover(authorization)) {
              freshLogin = true;
              this.opts.logger.info({ method: req.method, path }, 'platform: logged in again after 401');
              continue;
            }
          }
        }
        if (retries >= (req.maxRetries ?? this.opts.maxRetries) || !shouldRetry(err)) throw err;
        const delayMs = retryDelay(err, retries, this.backoff);
        if (delayMs === undefined) throw err;
        retries++;
        this.opts.logger.warn(
          {
            method: req.method,
            path,
            status: err.status,
            attempt,
            delayMs,
            error: err.name,
            reason: err.message,
          },
          'platform: retrying request',
        );
        await this.opts.sleep(delayMs);
      }
    }
  }

  /** One HTTP attempt: send, check the status, read the body as the request's kind asks. */
  private async attempt(
    req: CoreRequest,
    path: string,
    url: string,
    authorization: string | undefined,
    onStatus: (status: number) => void,
  ): Promise<unknown> {
    const timeout = new AbortController();
    const timer = setTimeout(() => timeout.abort(), this.opts.timeoutMs);
    const signal = req.signal ? AbortSignal.any([timeout.signal, req.signal]) : timeout.signal;
    try {
      const headers: Record<string, string> = {
        accept: req.response === 'binary' ? '*/*' : 'application/json',
      };
      if (authorization !== undefined) headers.authorization = authorization;
      const init: RequestInit = { method: req.method, headers, signal, redirect: 'manual' };
      if (req.body !== undefined) {
        headers['content-type'] = 'application/json';
        init.body = JSON.stringify(req.body);
      }
      let res: Response;
      try {
        res = await this.opts.fetch(url, init);
      } catch (e) {
        throw this.transportError(e, req, path, timeout.signal);
      }
      onStatus(res.status);
      const ok = (res.status >= 200 && res.status < 300) || (req.alsoSuccess ?? []).includes(res.status);
      if (!ok) throw await this.responseError(res, req.method, path);
      if (req.response === 'binary') {
        // The timeout covers the wait for headers; a long download is bounded by the caller (heartbeats).
        clearTimeout(timer);
        return binaryResponse(res);
      }
      const text = await this.readText(res, req, path, timeout.signal);
      if (req.response === 'empty') return { status: res.status, accepted: res.status === 202 };
      return this.parseJson(req, path, res.status, text);
    } finally {
      clearTimeout(timer);
    }
  }

  private async readText(
    res: Response,
    req: CoreRequest,
    path: string,
    timeout: AbortSignal,
  ): Promise<string> {
    try {
      return await res.text();
    } catch (e) {
      throw this.transportError(e, req, path, timeout);
    }
  }

  private parseJson(req: JsonRequest<z.ZodType>, path: string, status: number, text: string): unknown {
    let body: unknown;
    try {
      body = text.trim() === '' ? undefined : JSON.parse(text);
    } catch {
      throw this.schemaError(req.method, path, status, text.slice(0, 2000), [
        { code: 'custom', path: [], message: 'response body is not JSON', input: undefined },
      ]);
    }
    const envelope = req.envelope ?? 'single';
    if (envelope === 'single' || (envelope === 'auto' && looksLikeSingleEnvelope(body))) {
      const parsed = singleEnvelope(req.schema).safeParse(body);
      if (!parsed.success) throw this.schemaError(req.method, path, status, body, parsed.error.issues);
      return (parsed.data as { data: unknown }).data;
    }
    const parsed = req.schema.safeParse(body);
    if (!parsed.success) throw this.schemaError(req.method, path, status, body, parsed.error.issues);
    return parsed.data;
  }

  private schemaError(
    method: string,
    path: string,
    status: number,
    raw: unknown,
    issues: z.core.$ZodIssue[],
  ): SchemaError {
    const secrets = this.session.secrets();
    const shownPath = redact(path, secrets);
    return new SchemaError({
      status,
      method,
      path: shownPath,
      message: redact(
        `${method} ${shownPath}: response did not match its schema: ${describeIssues(issues)}`,
        secrets,
      ),
      raw: redactDeep(raw, secrets),
      issues,
    });
  }

  private async responseError(res: Response, method: string, path: string): Promise<PlatformError> {
    let text = '';
    try {
      text = await res.text();
    } catch {
      // The status alone still says what happened.
    }
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      // Not JSON (a proxy's HTML page, say): keep the text.
    }
    return errorFromResponse({
      status: res.status,
      method,
      path,
      body,
      requestId: res.headers.get('x-request-id') ?? undefined,
      retryAfterMs: parseRetryAfter(res.headers.get('retry-after'), this.opts.now()),
      secrets: this.session.secrets(),
    });
  }

  private transportError(e: unknown, req: CoreRequest, path: string, timeout: AbortSignal): unknown {
    if (e instanceof PlatformError) return e;
    const secrets = this.session.secrets();
    const shownPath = redact(path, secrets);
    if (timeout.aborted && !req.signal?.aborted) {
      return new TimeoutError({
        method: req.method,
        path: shownPath,
        message: `${req.method} ${shownPath}: timed out after ${this.opts.timeoutMs} ms`,
      });
    }
    // The caller cancelled: not ours to retry or rename.
    if (req.signal?.aborted) return e;
    const code = errorCode(e);
    const detail = e instanceof Error ? redact(causeMessage(e), secrets) : 'request failed';
    return new NetworkError({
      method: req.method,
      path: shownPath,
      code,
      message: `${req.method} ${shownPath}: network error${code ? ` (${code})` : ''}: ${detail}`,
    });
  }

  private toPlatformError(caught: unknown, method: string, path: string): PlatformError {
    if (caught instanceof PlatformError) return caught;
    const secrets = this.session.secrets();
    const shownPath = redact(path, secrets);
    const detail = caught instanceof Error ? redact(caught.message, secrets) : 'unknown failure';
    return new PlatformError({ method, path: shownPath, message: `${method} ${shownPath}: ${detail}` });
  }

  private report(
    req: CoreRequest,
    path: string,
    status: number | undefined,
    attempt: number,
    started: number,
  ) {
    const durationMs = this.opts.now() - started;
    this.opts.logger.debug({ method: req.method, path, status, attempt, durationMs }, 'platform: request');
    if (!this.opts.onRequest) return;
    try {
      this.opts.onRequest({ method: req.method, template: req.template, path, status, attempt, durationMs });
    } catch (e) {
      this.opts.logger.warn(
        { error: e instanceof Error ? e.name : 'unknown' },
        'platform: onRequest hook threw',
      );
    }
  }
}

function queryString(query: QueryParams | undefined): string {
  if (!query) return '';
  const qs = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== undefined) qs.append(k, String(v));
  const s = qs.toString();
  return s === '' ? '' : `?${s}`;
}

function looksLikeSingleEnvelope(body: unknown): boolean {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return false;
  const keys = Object.keys(body);
  return keys.includes('data') && keys.every((k) => k === 'data' || k === 'links');
}

function binaryResponse(res: Response): BinaryResponse {
  const contentType = res.headers.get('content-type') ?? 'application/octet-stream';
  const lengthHeader = res.headers.get('content-length');
  const body = res.body ? Readable.fromWeb(res.body) : Readable.from([]);
  // Failing before anyone reads it (cancelled at worker shutdown), it stays `errored`: no uncaught 'error'.
  body.on('error', () => {});
  const out: BinaryResponse = { contentType, body };
  if (lengthHeader !== null && /^\d+$/.test(lengthHeader)) out.contentLength = Number(lengthHeader);
  return out;
}

function errorCode(e: unknown): string | undefined {
  for (let cur: unknown = e, depth = 0; cur && depth < 4; depth++) {
    const code = (cur as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    cur = (cur as { cause?: unknown }).cause;
  }
  return undefined;
}

function causeMessage(e: Error): string {
  const cause = (e as { cause?: unknown }).cause;
  return cause instanceof Error ? `${e.message}: ${cause.message}` : e.message;
}
