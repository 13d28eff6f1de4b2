import pino, { type DestinationStream, type Logger, type LoggerOptions } from 'pino';
import type pinoPrettyModule from 'pino-pretty';
import { lazyPackage } from './lazy-package';
import { maskPhoneNumbers } from './redact-pii';

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
  // OAuth and service-account credentials (HubSpot, Salesforce, Google), in both spellings.
  'accessToken',
  'access_token',
  'refreshToken',
  'refresh_token',
  'idToken',
  'id_token',
  'clientSecret',
  'client_secret',
  'privateKey',
  'private_key',
  'webhookSecret',
  'hashKey',
  'idKey',
  'cookie',
  'set-cookie',
];

// pino's redact paths are exact; cover the usual nestings of request/response/credential objects.
const REDACT_PATHS = SECRET_KEYS.flatMap((k) => [
  k,
  `*.${k}`,
  `*.*.${k}`,
  `headers["${k}"]`,
  `*.headers["${k}"]`,
]);

/** An error as pino serializes it, with phone numbers masked in its message and stack (and causes'). */
export function serializeError(err: unknown): unknown {
  // Callers also log an error already described as text (`{ err: describeError(err) }`).
  if (typeof err === 'string') return maskPhoneNumbers(err);
  const out = pino.stdSerializers.err(err as Error) as unknown;
  return maskErrorText(out, 0);
}

function maskErrorText(value: unknown, depth: number): unknown {
  if (value === null || typeof value !== 'object' || depth > 5) return value;
  const o = value as Record<string, unknown>;
  for (const k of ['message', 'stack', 'detail', 'details', 'body']) {
    if (typeof o[k] === 'string') o[k] = maskPhoneNumbers(o[k]);
  }
  if (o.cause !== undefined) o.cause = maskErrorText(o.cause, depth + 1);
  if (Array.isArray(o.aggregateErrors))
    o.aggregateErrors = o.aggregateErrors.map((e) => maskErrorText(e, depth + 1));
  return o;
}

/** Options every callsync logger shares: secrets redacted by key, numbers masked in errors. */
export function loggerOptions(name: string, level: string): LoggerOptions {
  return {
    name,
    level,
    redact: { paths: REDACT_PATHS, censor: '[redacted]' },
    serializers: { err: serializeError, error: serializeError },
    hooks: {
      // Warnings and errors carry error text in their message too (pino takes an error's message
      // when none is given): numbers are masked there as well.
      logMethod(args, method, level) {
        if (level < 40) return method.apply(this, args);
        const [first, ...rest] = args as unknown[];
        if (first instanceof Error && rest.length === 0) {
          return method.apply(this, [first, maskPhoneNumbers(first.message)]);
        }
        const masked = args.map((a: unknown) => (typeof a === 'string' ? maskPhoneNumbers(a) : a));
        return method.apply(this, masked as Parameters<typeof method>);
      },
    },
  };
}

/**
 * The process logger, on stderr (stdout is reserved for ready lines, banners and benchmark JSON):
 * readable coloured lines when stderr is a terminal, JSON lines when it is a pipe or a file, for
 * log collectors. `pretty` overrides the choice. Secrets are redacted either way (before formatting).
 */
export function createLogger(opts: { level?: string; name?: string; pretty?: boolean } = {}): Logger {
  const pretty = opts.pretty ?? process.stderr.isTTY === true;
  return pino(
    loggerOptions(opts.name ?? 'callsync', opts.level ?? 'info'),
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
  return pino(loggerOptions('callsync', level), pino.destination({ dest: file, mkdir: true, sync: false }));
}

/** A logger that drops everything, for libraries used without one. */
export const silentLogger: Logger = pino({ level: 'silent' });
