// Activity retry settings shared by the sync workflows (pure data, importable from workflow code).

/** Failure types that retrying cannot fix (bad request, no permission, gone, unreadable, bad config). */
export const NON_RETRYABLE_TYPES = [
  'BadRequestError',
  'ForbiddenError',
  'NotFoundError',
  'SchemaError',
  'UnauthorizedError',
  'ConfigError',
  'CheckpointMissing',
];

/** Transient errors (5xx, network, 429 after its Retry-After) retry with exponential backoff. */
export const SYNC_RETRY = {
  initialInterval: '1 second',
  backoffCoefficient: 2,
  maximumInterval: '1 minute',
  nonRetryableErrorTypes: NON_RETRYABLE_TYPES,
} as const;
