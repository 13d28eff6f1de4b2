// What a failed SMTP send means for a retry: a 4xx reply or a lost connection is temporary, a 5xx
// reply (bad credentials, a refused sender or recipients, a message too large) is permanent.
/** A failed send, classified. */
export interface SmtpFailure {
  retryable: boolean;
  /** Failure type name for Temporal (SmtpTemporaryError, SmtpRejectedError, SmtpAuthError). */
  type: string;
  message: string;
  responseCode: number | undefined;
}

/** Classifies a nodemailer error by its SMTP reply code (`responseCode`) and error `code`. */
export function classifySmtpError(err: unknown): SmtpFailure {
  const shape = (typeof err === 'object' && err !== null ? err : {}) as {
    code?: unknown;
    responseCode?: unknown;
    message?: unknown;
  };
  const responseCode = typeof shape.responseCode === 'number' ? shape.responseCode : undefined;
  const code = typeof shape.code === 'string' ? shape.code : undefined;
  const message = `SMTP: ${typeof shape.message === 'string' ? shape.message : String(err)}`;
  if (responseCode !== undefined && responseCode >= 500) {
    const type = code === 'EAUTH' ? 'SmtpAuthError' : 'SmtpRejectedError';
    return { retryable: false, type, message, responseCode };
  }
  // nodemailer's own refusals that no retry changes: no usable recipients, a malformed message.
  if (responseCode === undefined && (code === 'EENVELOPE' || code === 'EMESSAGE')) {
    return { retryable: false, type: 'SmtpRejectedError', message, responseCode };
  }
  return { retryable: true, type: 'SmtpTemporaryError', message, responseCode };
}
