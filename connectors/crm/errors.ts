// Errors every CRM connector throws, whatever the vendor: activities map them to Temporal failures
// (retryable or not, with the vendor's Retry-After as the next retry delay).

export interface CrmErrorInit {
  /** The connector's name (hubspot, salesforce, builtin). */
  destination: string;
  message: string;
  /** HTTP status, when the vendor answered. */
  status?: number | undefined;
  /** The vendor's error code or category (VALIDATION_ERROR, INVALID_FIELD, …). */
  code?: string | undefined;
  /** True when the same request may succeed later (429, 5xx, network). */
  retryable: boolean;
}

/** A CRM call failed; `retryable` says whether trying again can help. */
export class CrmError extends Error {
  readonly destination: string;
  readonly status: number | undefined;
  readonly code: string | undefined;
  readonly retryable: boolean;

  constructor(init: CrmErrorInit) {
    super(`${init.destination}: ${init.message}`);
    this.name = new.target.name;
    this.destination = init.destination;
    this.status = init.status;
    this.code = init.code;
    this.retryable = init.retryable;
  }
}

/** The vendor's rate limit was hit and waiting for it here would take too long. */
export class CrmRateLimitedError extends CrmError {
  /** How long the vendor asked us to wait, when it said. */
  readonly retryAfterMs: number | undefined;

  constructor(init: Omit<CrmErrorInit, 'retryable'> & { retryAfterMs: number | undefined }) {
    super({ ...init, retryable: true });
    this.retryAfterMs = init.retryAfterMs;
  }
}

/** Statuses a later retry can fix. */
export function isRetryableStatus(status: number | undefined): boolean {
  return status === undefined || status === 408 || status === 429 || status >= 500;
}
