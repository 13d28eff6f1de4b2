// What a failed Google API call means for a retry. Google answers `{error: {code, message, status,
// errors: [{reason}]}}`; 429, 5xx and Drive's rate-limit 403s are temporary, other 4xx are permanent.
/**
 * A Drive folder callsync is configured to write into is in a My Drive, where a service account can
 * create nothing (Google gives service accounts no storage quota: 403 storageQuotaExceeded).
 */
export class DriveFolderNotInSharedDriveError extends Error {
  override readonly name = 'DriveFolderNotInSharedDriveError';
  constructor(
    readonly setting: string,
    readonly folderId: string,
  ) {
    super(
      `${setting} (${folderId}) is a folder in a My Drive, where a service account cannot create files ` +
        '(Google gives service accounts no storage quota: storageQuotaExceeded); use a folder in a shared ' +
        'drive and add the service account to it as a Content manager, or set credentials.subject to ' +
        'act for the Workspace user whose Drive it is (domain-wide delegation)',
    );
  }
}

/** A failed Google call, classified. */
export interface GoogleFailure {
  retryable: boolean;
  /** Failure type name for Temporal (GoogleBadRequestError, GoogleForbiddenError, GoogleRateLimitedError, …). */
  type: string;
  message: string;
  status: number | undefined;
  /** Retry-After, when Google sent one. */
  retryAfterMs?: number;
}

const PERMANENT_TYPES: Record<number, string> = {
  400: 'GoogleBadRequestError',
  401: 'GoogleUnauthorizedError',
  403: 'GoogleForbiddenError',
  404: 'GoogleNotFoundError',
  409: 'GoogleConflictError',
  413: 'GoogleBadRequestError',
};

/** Reasons Drive and Sheets give with a 403 that are rate limits, not refusals. */
const RATE_LIMIT_REASONS = new Set(['rateLimitExceeded', 'userRateLimitExceeded', 'quotaExceeded']);

interface GoogleErrorBody {
  error?: { code?: number; message?: string; status?: string; errors?: { reason?: string }[] };
}

function header(headers: unknown, name: string): string | undefined {
  if (headers instanceof Headers) return headers.get(name) ?? undefined;
  if (typeof headers === 'object' && headers !== null) {
    const value = (headers as Record<string, unknown>)[name];
    return typeof value === 'string' ? value : undefined;
  }
  return undefined;
}

/** Classifies an error from a Google client (a GaxiosError: `status`, `response.data.error`) or the network. */
export function classifyGoogleError(err: unknown, what: string): GoogleFailure {
  if (err instanceof DriveFolderNotInSharedDriveError) {
    return { retryable: false, type: err.name, message: `${what}: ${err.message}`, status: undefined };
  }
  const shape = (typeof err === 'object' && err !== null ? err : {}) as {
    status?: unknown;
    message?: unknown;
    response?: { status?: unknown; data?: unknown; headers?: unknown };
  };
  const status =
    typeof shape.status === 'number'
      ? shape.status
      : typeof shape.response?.status === 'number'
        ? shape.response.status
        : undefined;
  const body = (shape.response?.data ?? {}) as GoogleErrorBody;
  const detail = body.error?.message ?? (typeof shape.message === 'string' ? shape.message : String(err));
  const reasons = (body.error?.errors ?? []).flatMap((e) => (e.reason ? [e.reason] : []));
  const message = `${what}: ${status ?? 'network'} ${detail}${reasons.length ? ` (${reasons.join(', ')})` : ''}`;
  const retryAfter = Number(header(shape.response?.headers, 'retry-after'));
  const retryAfterMs = Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter * 1000 : undefined;
  const rateLimited = status === 429 || (status === 403 && reasons.some((r) => RATE_LIMIT_REASONS.has(r)));
  if (rateLimited) {
    return {
      retryable: true,
      type: 'GoogleRateLimitedError',
      message,
      status,
      ...(retryAfterMs ? { retryAfterMs } : {}),
    };
  }
  if (status === undefined || status >= 500 || status === 408) {
    return { retryable: true, type: 'GoogleUnavailableError', message, status };
  }
  if (status >= 400) {
    return { retryable: false, type: PERMANENT_TYPES[status] ?? 'GoogleRequestError', message, status };
  }
  return { retryable: true, type: 'GoogleUnavailableError', message, status };
}
