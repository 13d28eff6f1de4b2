// Public surface of the platform connector.
export { createPlatformClient, type PlatformClient, type PlatformClientOptions } from './client';
export {
  MAX_PAGE_SIZE,
  platformClientConfigSchema,
  platformCredentialsSchema,
  type PlatformClientConfig,
  type PlatformClientConfigInput,
  type PlatformCredentials,
} from './config';
export { AuthSession, type TwoFactorCodeProvider } from './core/auth';
export {
  BadRequestError,
  ForbiddenError,
  NetworkError,
  NotFoundError,
  PageOrderError,
  PlatformError,
  RateLimitedError,
  SchemaError,
  ServerError,
  TimeoutError,
  UnauthorizedError,
} from './core/errors';
export {
  encodeFilter,
  filter,
  FilterBuilder,
  toPlatformDate,
  type FilterCondition,
  type FilterInput,
  type FilterOperator,
  type FilterValue,
} from './core/filter';
export {
  PlatformCore,
  type BinaryResponse,
  type DeleteResult,
  type HttpMethod,
  type RequestEvent,
} from './core/http-core';
export {
  Paginator,
  type InvalidRecord,
  type KeysetPage,
  type ListOptions,
  type Page,
} from './core/pagination';
export { expandPath, type PathParams } from './core/path';
export { redact } from './core/redact';
export { backoffDelay, shouldRetry } from './core/retry';
export type { CallOptions, Id, Ids } from './resources/common';
export { BEYOND_SPEC_ENDPOINTS } from './resources/beyond-spec';
export * from './schemas';
