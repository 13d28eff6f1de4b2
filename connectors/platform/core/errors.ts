import type { z } from 'zod';
import { redact, redactDeep } from './redact';

/** What every platform error says about the request that failed; never a credential. */
export interface PlatformErrorInit {
  status?: number | undefined;
  method: string;
  /** The expanded path, without query string. */
  path: string;
  message: string;
  requestId?: string | undefined;
}

/** Base of every error the platform client throws. */
export class PlatformError extends Error {
  readonly status: number | undefined;
  readonly method: string;
  readonly path: string;
  readonly requestId: string | undefined;
  /** True when sending the same request again may succeed. */
  readonly retryable: boolean = false;

  constructor(init: PlatformErrorInit) {
    super(init.message);
    this.name = new.target.name;
    this.status = init.status;
    this.method = init.method;
    this.path = init.path;
    this.requestId = init.requestId;
  }
}

/** 400: invalid or missing body attributes; `errors` is the platform's errors array. */
export class BadRequestError extends PlatformError {
  readonly errors: unknown[];
  constructor(init: PlatformErrorInit & { errors: unknown[] }) {
    super(init);
    this.errors = init.errors;
  }
}

/** 401: token or key missing or unknown (after the one automatic re-login, when there is one). */
export class UnauthorizedError extends PlatformError {
  /**
   * True when a fresh login succeeded during this request and its token was refused anyway: the
   * credentials work, the token was lost again (expired or logged out elsewhere), so a later retry
   * can succeed. False for an API key or token the platform does not know: retrying cannot help.
   */
  override readonly retryable: boolean;

  constructor(init: PlatformErrorInit & { afterFreshLogin?: boolean }) {
    super(init);
    this.retryable = init.afterFreshLogin === true;
  }
}

/** 403: a valid identity without permission for the resource. */
export class ForbiddenError extends PlatformError {}

/** 404: resource not found. */
export class NotFoundError extends PlatformError {}

/** 429: rate limited; `retryAfterMs` is the platform's Retry-After when it sent one. */
export class RateLimitedError extends PlatformError {
  override readonly retryable = true;
  readonly retryAfterMs: number | undefined;
  constructor(init: PlatformErrorInit & { retryAfterMs?: number | undefined }) {
    super(init);
    this.retryAfterMs = init.retryAfterMs;
  }
}

/** 5xx (and 408): the platform failed; worth another try. */
export class ServerError extends PlatformError {
  override readonly retryable = true;
}

/** Connection refused or reset, DNS failure, or a body cut short. */
export class NetworkError extends PlatformError {
  override readonly retryable = true;
  /** System error code when known, e.g. ECONNREFUSED. */
  readonly code: string | undefined;
  constructor(init: PlatformErrorInit & { code?: string | undefined }) {
    super(init);
    this.code = init.code;
  }
}

/** The attempt took longer than the configured timeout. */
export class TimeoutError extends PlatformError {
  override readonly retryable = true;
}

/** A response that does not match its schema; `raw` is the (redacted) body, `issues` zod's findings. */
export class SchemaError extends PlatformError {
  readonly raw: unknown;
  readonly issues: z.core.$ZodIssue[];
  constructor(init: PlatformErrorInit & { raw: unknown; issues: z.core.$ZodIssue[] }) {
    super(init);
    this.raw = init.raw;
    this.issues = init.issues;
  }
}

/**
 * A keyset page (`id > N`, sort=id, dir=ASC) whose ids do not ascend past N: the platform ignored
 * the order or the filter asked for, and reading on would skip or repeat records without a sign.
 */
export class PageOrderError extends PlatformError {}

/** One line per zod issue: `path: message`, values left out. */
export function describeIssues(issues: readonly z.core.$ZodIssue[], max = 5): string {
  const lines = issues
    .slice(0, max)
    .map((i) => `${i.path.length > 0 ? i.path.map(String).join('.') : '(root)'}: ${i.message}`);
  if (issues.length > max) lines.push(`… ${issues.length - max} more`);
  return lines.join('; ');
}

/** Inputs of `errorFromResponse`. */
export interface ResponseErrorInput {
  status: number;
  method: string;
  path: string;
  /** Parsed JSON body, or the text when it was not JSON. */
  body: unknown;
  requestId?: string | undefined;
  retryAfterMs?: number | undefined;
  /** Credentials to scrub from anything the platform said. */
  secrets: readonly string[];
}

/** Maps an unsuccessful response to its typed error, scrubbing credentials from the platform's words. */
export function errorFromResponse(input: ResponseErrorInput): PlatformError {
  const { status, method, secrets } = input;
  const path = redact(input.path, secrets);
  const said = platformMessage(input.body);
  const errors = errorsArray(input.body, secrets);
  const reasons = errorReasons(errors);
  const message =
    `${method} ${path}: ${status}${said ? ` ${redact(said, secrets)}` : ''}` +
    (reasons ? ` (${reasons})` : '');
  const init: PlatformErrorInit = { status, method, path, message, requestId: input.requestId };
  if (status === 400) return new BadRequestError({ ...init, errors });
  if (status === 401) return new UnauthorizedError(init);
  if (status === 403) return new ForbiddenError(init);
  if (status === 404) return new NotFoundError(init);
  if (status === 429) return new RateLimitedError({ ...init, retryAfterMs: input.retryAfterMs });
  if (status === 408 || status >= 500) return new ServerError(init);
  return new PlatformError(init);
}

function platformMessage(body: unknown): string | undefined {
  if (typeof body === 'string') return body.trim().slice(0, 500) || undefined;
  if (body !== null && typeof body === 'object' && 'message' in body) {
    const m = body.message;
    if (typeof m === 'string') return m.slice(0, 500);
  }
  return undefined;
}

/**
 * The reasons of an `errors` array in one line: entries are strings (the spec's examples) or
 * `{field, message}` objects (what the live platform sends and its clients read); both are read.
 */
export function errorReasons(errors: readonly unknown[], max = 5): string {
  const reasons = errors.map((e): string => {
    if (typeof e === 'string') return e;
    if (e !== null && typeof e === 'object') {
      const { field, message } = e as { field?: unknown; message?: unknown };
      if (typeof message === 'string')
        return typeof field === 'string' && field !== '' ? `${field}: ${message}` : message;
      return JSON.stringify(e);
    }
    return String(e);
  });
  const shown = reasons.slice(0, max).map((r) => r.slice(0, 200));
  if (reasons.length > max) shown.push(`… ${reasons.length - max} more`);
  return shown.join('; ');
}

function errorsArray(body: unknown, secrets: readonly string[]): unknown[] {
  if (body !== null && typeof body === 'object' && 'errors' in body) {
    const e = body.errors;
    if (Array.isArray(e)) return redactDeep(e, secrets) as unknown[];
    // Some deployments send a field -> messages object; keep it as entries rather than lose it.
    if (e !== null && typeof e === 'object') return [redactDeep(e, secrets)];
  }
  return [];
}
