import { ApplicationFailure } from '@temporalio/activity';
import { toActivityFailure } from '../../activities/failures';
import {
  BadRequestError,
  NotFoundError,
  RateLimitedError,
  ServerError,
  UnauthorizedError,
} from '../../connectors/platform';
import { NON_RETRYABLE_TYPES } from '../../workflows/retry-policy';

function failureOf(err: unknown): ApplicationFailure {
  try {
    toActivityFailure(err);
  } catch (thrown) {
    return thrown as ApplicationFailure;
  }
  throw new Error('did not throw');
}

const at = { method: 'GET', path: '/cdrs', message: 'x' };

describe('activity failure mapping', () => {
  it('makes what a retry cannot fix non-retryable, with a typed name', () => {
    for (const err of [
      new BadRequestError({ ...at, status: 400, errors: [] }),
      new NotFoundError({ ...at, status: 404 }),
      new UnauthorizedError({ ...at, status: 401 }),
    ]) {
      const f = failureOf(err);
      expect(f).toBeInstanceOf(ApplicationFailure);
      expect(f.nonRetryable).toBe(true);
      expect(f.type).toBe(err.name);
      expect(NON_RETRYABLE_TYPES).toContain(f.type);
    }
  });

  it('retries server errors, and waits for Retry-After on 429', () => {
    expect(failureOf(new ServerError({ ...at, status: 503 })).nonRetryable).toBe(false);
    const limited = failureOf(new RateLimitedError({ ...at, status: 429, retryAfterMs: 7000 }));
    expect(limited.nonRetryable).toBe(false);
    expect(limited.nextRetryDelay).toBe(7000);
  });

  it('retries a token refused right after a successful login, under a type the policy does not stop', () => {
    const f = failureOf(new UnauthorizedError({ ...at, status: 401, afterFreshLogin: true }));
    expect(f.nonRetryable).toBe(false);
    expect(f.type).toBe('TokenRefused');
    expect(NON_RETRYABLE_TYPES).not.toContain(f.type);
  });

  it('passes other errors through unchanged', () => {
    const boom = new Error('boom');
    expect(failureOf(boom)).toBe(boom);
  });
});
