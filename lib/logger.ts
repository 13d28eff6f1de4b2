import pino, { type DestinationStream, type Logger } from 'pino';
import type pinoPrettyModule from 'pino-pretty';
import { lazyPackage } from './lazy-package';

/** Only interactive commands print pretty lines: the others never load pino-pretty. */
const pinoPretty = lazyPackage<typeof pinoPrettyModule>('pino-pretty');

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

/**
 * The process logger, on stderr (stdout is reserved for ready lines, banners and benchmark JSON):
 * readable coloured lines when stderr is a terminal, JSON lines when it is a pipe or a file, for
 * log collectors. `pretty` overrides the choice. Secrets are redacted either way (before formatting).
 */
export function createLogger(opts: { level?: string; name?: string; pretty?: boolean } = {}): Logger {
  const pretty = opts.pretty ?? process.stderr.isTTY === true;
  return pino(
    {
      name: opts.name ?? 'callsync',
      level: opts.level ?? 'info',
      redact: { paths: REDACT_PATHS, censor: '[redacted]' },
    },
    pretty ? prettyStream() : pino.destination(2),
  );
}

/** pino-pretty in the same thread (sync), so lines keep their order with the banner and exit output. */
function prettyStream(): DestinationStream {
  return pinoPretty().build({
    destination: 2,
    sync: true,
    colorize: true,
    translateTime: 'SYS:HH:MM:ss',
    ignore: 'pid,hostname',
  });
}

/**
 * A logger that appends JSON lines to `file` (a harness keeps each run's log beside its data), with
 * the same redaction as the process logger.
 */
export function createFileLogger(file: string, level = 'info'): Logger {
  return pino(
    { name: 'callsync', level, redact: { paths: REDACT_PATHS, censor: '[redacted]' } },
    pino.destination({ dest: file, mkdir: true, sync: false }),
  );
}

/** A logger that drops everything, for libraries used without one. */
export const silentLogger: Logger = pino({ level: 'silent' });
