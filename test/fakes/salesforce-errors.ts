// The Salesforce test server's errors: SalesforceError, answered in Salesforce's format
// (`[{ message, errorCode, fields }]`; per record in a collection, `{ success: false, errors }`) by the
// server's error handler (salesforce-server.ts), and the small helpers its resource files share.

export class SalesforceError extends Error {
  constructor(
    readonly status: number,
    readonly errorCode: string,
    message: string,
    readonly fields: string[] = [],
    /** More of the error (a DuplicateError's duplicateResult). */
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
  }
  toJSON() {
    return { message: this.message, errorCode: this.errorCode, fields: this.fields, ...this.extra };
  }
  /** The error as one of a collection's per-record errors. */
  asRecordError() {
    return { statusCode: this.errorCode, message: this.message, fields: this.fields, ...this.extra };
  }
}

export function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export const digits = (s: unknown) => (typeof s === 'string' ? s.replace(/\D/g, '') : '');
