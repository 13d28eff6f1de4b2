// Platform errors as thrown values: a handler throws, the server's error handler writes {message, errors}.

/** An error that becomes a platform error response: a status, `{message, errors}` and optional headers. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly errors: string[] = [],
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

/** One entry of an error body's `errors`, as the platform's clients read it (`errors[i].field`, `.message`). */
export interface ErrorEntry {
  field: string;
  message: string;
}

/**
 * `errors` of a response body. The spec's examples show strings; the official clients read
 * `errors[i].message` (and the CTI connector `.field`) and print "undefined" for strings, so each
 * `field: why` becomes `{field, message}` (field '' when a reason names none).
 */
export function errorEntries(errors: readonly string[]): ErrorEntry[] {
  return errors.map((e) => {
    const m = /^([\w.[\]-]+): (.*)$/s.exec(e);
    return m ? { field: m[1] ?? '', message: m[2] ?? '' } : { field: '', message: e };
  });
}

/** 400 with the messages naming each bad field. */
export function badRequest(message: string, errors: string[] = []): HttpError {
  return new HttpError(400, message, errors);
}

/** 404 for a resource that does not exist. */
export function notFound(what: string): HttpError {
  return new HttpError(404, `${what} not found`, [`${what} does not exist`]);
}

/** 403 for a resource of another customer. */
export function accessDenied(): HttpError {
  return new HttpError(403, 'Access denied', ['the resource belongs to another customer']);
}
