import pino, { type Logger } from 'pino';

export type { Logger } from 'pino';

/** Keys whose values are secrets wherever they appear in a log object. */
const SECRET_KEYS = [
  'password',
  'token',
  'user_token',
  'api_key',
  'apiKey',
  'authorization',
  'Authorization',
  'x-auth-token',
  'secret',
  'nonce',
];

// pino's redact paths are exact; cover the usual nestings of request/response/credential objects.
const REDACT_PATHS = SECRET_KEYS.flatMap((k) => [
  k,
  `*.${k}`,
  `*.*.${k}`,
  `headers["${k}"]`,
  `*.headers["${k}"]`,
]);

/** The process logger: JSON lines on stderr (stdout is reserved for ready lines and benchmark JSON). */
export function createLogger(opts: { level?: string; name?: string } = {}): Logger {
  return pino(
    {
      name: opts.name ?? 'callsync',
      level: opts.level ?? 'info',
      redact: { paths: REDACT_PATHS, censor: '[redacted]' },
    },
    pino.destination(2),
  );
}

/** A logger that drops everything, for libraries used without one. */
export const silentLogger: Logger = pino({ level: 'silent' });
