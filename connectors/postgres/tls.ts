// PostgreSQL over TLS, as libpq's sslmode names it: the config's `sslmode` and CA turned into the
// `ssl` option of node-postgres (used by every pool, and so by COPY, which runs on pool clients).
import { readFileSync } from 'node:fs';
import type { ConnectionOptions } from 'node:tls';
import type { SslMode } from './tls-config';

/** The `ssl` option of pg: false for plaintext, or node's TLS options. */
export type PgSsl = false | ConnectionOptions;

/** A CA as PEM text, or the file that holds it; errors name `database.sslCa`. */
function readCa(value: string, read: typeof readFileSync): string {
  if (value.trim().startsWith('-----BEGIN')) return value;
  try {
    return read(value, 'utf8');
  } catch (err) {
    throw new Error(
      `database.sslCa: cannot read ${value} (${(err as NodeJS.ErrnoException).code ?? 'error'})`,
      {
        cause: err,
      },
    );
  }
}

/**
 * The pg `ssl` option for a mode: `require` encrypts without checking the certificate (as libpq),
 * `verify-ca` checks it against the CA but not the host name, `verify-full` checks both.
 * Undefined (no mode configured) leaves whatever the connection URL says.
 */
export function postgresSsl(
  mode: SslMode | undefined,
  ca: string | undefined,
  read: typeof readFileSync = readFileSync,
): PgSsl | undefined {
  if (mode === undefined) return undefined;
  if (mode === 'disable') return false;
  if (mode === 'require') return { rejectUnauthorized: false };
  if (ca === undefined)
    throw new Error(`database.sslCa: sslmode ${mode} needs the server's CA (file or PEM)`);
  const trusted = { rejectUnauthorized: true, ca: readCa(ca, read) };
  return mode === 'verify-ca' ? { ...trusted, checkServerIdentity: () => undefined } : trusted;
}

/** A refused TLS connection to PostgreSQL, explained with the setting to look at. */
export function explainPostgresTlsError(err: unknown): Error {
  const e = err as { message?: string; code?: string };
  const text = `${e.code ?? ''} ${e.message ?? String(err)}`;
  if (
    /SELF_SIGNED|UNABLE_TO_VERIFY|unable to verify|self[- ]signed|CERT_UNTRUSTED|UNABLE_TO_GET_ISSUER/i.test(
      text,
    )
  ) {
    return new Error(
      `PostgreSQL: the server's certificate is not signed by the configured CA (check database.sslCa): ${e.message ?? ''}`,
      { cause: err },
    );
  }
  if (/ERR_TLS_CERT_ALTNAME_INVALID|does not match certificate/i.test(text)) {
    return new Error(
      `PostgreSQL: the server's certificate is for another host name (database.sslmode verify-full checks it): ${e.message ?? ''}`,
      { cause: err },
    );
  }
  if (/does not support SSL|The server does not support SSL/i.test(text)) {
    return new Error(
      `PostgreSQL: the server does not accept TLS (check database.sslmode): ${e.message ?? ''}`,
      {
        cause: err,
      },
    );
  }
  return err instanceof Error ? err : new Error(String(err));
}
