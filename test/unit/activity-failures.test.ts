import { ApplicationFailure } from '@temporalio/activity';
import { toActivityFailure } from '../../activities/failures';
import { CrmError, CrmRateLimitedError } from '../../connectors/crm/errors';
import {
  BadRequestError,
  NotFoundError,
  PageOrderError,
  RateLimitedError,
  ServerError,
  UnauthorizedError,
} from '../../connectors/platform';
import { NON_RETRYABLE_TYPES } from '../../contracts/activity-options';

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
      new PageOrderError({ ...at, message: 'asked for id > 5, got id 3 after 5' }),
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

  it('makes a CRM refusal non-retryable, typed by its status', () => {
    const cases: [CrmError, string][] = [
      [
        new CrmError({ destination: 'hubspot', status: 400, message: 'bad', retryable: false }),
        'CrmBadRequestError',
      ],
      [
        new CrmError({ destination: 'salesforce', status: 403, message: 'no', retryable: false }),
        'CrmForbiddenError',
      ],
      [
        new CrmError({ destination: 'hubspot', status: 404, message: 'gone', retryable: false }),
        'CrmNotFoundError',
      ],
      [
        new CrmError({ destination: 'hubspot', status: 207, message: 'batch', retryable: false }),
        'CrmRejectedError',
      ],
    ];
    for (const [err, type] of cases) {
      const f = failureOf(err);
      expect(f).toBeInstanceOf(ApplicationFailure);
      expect(f.nonRetryable).toBe(true);
      expect(f.type).toBe(type);
      expect(NON_RETRYABLE_TYPES).toContain(type);
    }
    const flaky = failureOf(
      new CrmError({ destination: 'hubspot', status: 503, message: 'x', retryable: true }),
    );
    expect(flaky.nonRetryable).toBe(false);
    expect(NON_RETRYABLE_TYPES).not.toContain(flaky.type);
  });

  it("waits the CRM's Retry-After as the next retry delay", () => {
    const f = failureOf(
      new CrmRateLimitedError({
        destination: 'hubspot',
        status: 429,
        message: 'slow down',
        retryAfterMs: 42_000,
      }),
    );
    expect(f.nonRetryable).toBe(false);
    expect(f.type).toBe('CrmRateLimitedError');
    expect(f.nextRetryDelay).toBe(42_000);
  });

  it("maps HubSpot's and jsforce's own error shapes, should one escape a connector", () => {
    const hubspot400 = {
      code: 400,
      headers: {},
      body: { message: 'Property "x" does not exist' },
      message: 'HTTP 400',
    };
    expect(failureOf(hubspot400)).toMatchObject({ type: 'CrmBadRequestError', nonRetryable: true });
    const hubspot429 = {
      code: 429,
      headers: { 'retry-after': '30' },
      body: { message: 'limit' },
      message: 'HTTP 429',
    };
    expect(failureOf(hubspot429)).toMatchObject({ type: 'CrmRateLimitedError', nextRetryDelay: 30_000 });
    const jsforce = Object.assign(new Error('No such column'), { errorCode: 'INVALID_FIELD' });
    expect(failureOf(jsforce)).toMatchObject({ type: 'CrmBadRequestError', nonRetryable: true });
    const limit = Object.assign(new Error('TotalRequests Limit exceeded.'), {
      errorCode: 'REQUEST_LIMIT_EXCEEDED',
    });
    expect(failureOf(limit)).toMatchObject({ type: 'CrmRateLimitedError', nextRetryDelay: 3_600_000 });
  });
});
