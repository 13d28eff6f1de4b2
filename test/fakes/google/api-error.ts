// Google's JSON error body (https://cloud.google.com/apis/design/errors#http_mapping), shared by the
// local Google API modules: `{error: {code, message, errors: [{message, domain, reason}], status}}`.
import type { FastifyReply } from 'fastify';

const STATUS: Record<number, string> = {
  400: 'INVALID_ARGUMENT',
  401: 'UNAUTHENTICATED',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  409: 'ALREADY_EXISTS',
  429: 'RESOURCE_EXHAUSTED',
  500: 'INTERNAL',
  503: 'UNAVAILABLE',
};

const REASON: Record<number, string> = {
  400: 'invalid',
  401: 'authError',
  403: 'forbidden',
  404: 'notFound',
  409: 'duplicate',
  429: 'rateLimitExceeded',
  500: 'backendError',
  503: 'backendError',
};

/** The body Google sends with an error status. */
export function googleErrorBody(code: number, message: string, reason = REASON[code] ?? 'unknown') {
  return {
    error: {
      code,
      message,
      errors: [{ message, domain: 'global', reason }],
      status: STATUS[code] ?? 'UNKNOWN',
    },
  };
}

/** Sends a Google-shaped error. */
export function sendGoogleError(reply: FastifyReply, code: number, message: string, reason?: string) {
  return reply.code(code).send(googleErrorBody(code, message, reason));
}

/** Thrown by route handlers to answer with a Google-shaped error. */
export class GoogleApiError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly reason?: string,
  ) {
    super(message);
  }
}
