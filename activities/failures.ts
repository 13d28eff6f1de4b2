// Maps errors to Temporal failures: what a retry cannot fix becomes a non-retryable failure with a
// type name; a 429 waits for the platform's Retry-After.
import { ApplicationFailure } from '@temporalio/activity';
import {
  BadRequestError,
  ForbiddenError,
  NotFoundError,
  PlatformError,
  RateLimitedError,
  SchemaError,
  UnauthorizedError,
} from '../connectors/platform';

/** Rethrows `err` as the ApplicationFailure Temporal should see. */
export function toActivityFailure(err: unknown): never {
  if (err instanceof ApplicationFailure) throw err;
  if (err instanceof RateLimitedError) {
    throw ApplicationFailure.create({
      type: 'RateLimitedError',
      message: err.message,
      nonRetryable: false,
      ...(err.retryAfterMs !== undefined ? { nextRetryDelay: err.retryAfterMs } : {}),
    });
  }
  const permanent =
    err instanceof BadRequestError ||
    err instanceof ForbiddenError ||
    err instanceof NotFoundError ||
    err instanceof SchemaError ||
    (err instanceof UnauthorizedError && !err.retryable);
  if (err instanceof UnauthorizedError && err.retryable) {
    // Refused right after a successful login: the credentials work, the token was lost again.
    throw ApplicationFailure.create({ type: 'TokenRefused', message: err.message, nonRetryable: false });
  }
  if (err instanceof PlatformError) {
    throw ApplicationFailure.create({ type: err.name, message: err.message, nonRetryable: permanent });
  }
  throw err;
}

/** Runs an activity body, translating its errors. */
export async function withFailureMapping<T>(body: () => Promise<T>): Promise<T> {
  try {
    return await body();
  } catch (err) {
    toActivityFailure(err);
  }
}
