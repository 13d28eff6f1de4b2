// The error the Tasks, Speech and Language modules throw for an answer Google would give; the
// route host (route-host.ts) turns it into the router's error, answered in Google's JSON shape.

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
