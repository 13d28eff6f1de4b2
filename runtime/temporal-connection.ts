// The one place that turns the `temporal` config block into connection options, for the client
// (`Connection`, @grpc/grpc-js) and the worker (`NativeConnection`, Rust core): TLS with a server CA
// and server name, an mTLS client certificate, a Temporal Cloud API key. Certificates and keys are
// read here (file or PEM), never logged; a refused connection becomes an error naming the setting.
import { readFileSync } from 'node:fs';
import { Connection, type ConnectionOptions } from '@temporalio/client';
import { NativeConnection, type NativeConnectionOptions } from '@temporalio/worker';
import type { TemporalConfig } from '../config/temporal';
import { probeTls } from './tls-probe';

/** What a connection needs from `config.temporal` (the address may be a local dev server's). */
export type TemporalConnectionSettings = Pick<TemporalConfig, 'namespace' | 'tls' | 'apiKey'> & {
  address: string;
};

/** TLS options shared by both connection kinds. */
type TlsOptions = NonNullable<Exclude<ConnectionOptions['tls'], boolean | null>>;

/** A Temporal connection that failed for a reason the operator must fix; the message names the setting. */
export class TemporalConnectionError extends Error {
  override readonly name = 'TemporalConnectionError';
  constructor(
    message: string,
    /** The config key to look at, e.g. `temporal.tls.serverCa`. */
    readonly setting: string,
  ) {
    super(message);
  }
}

/** PEM text as given, or the file it names; errors name the setting and the path, never the content. */
export function readPem(value: string, setting: string, read = readFileSync): Buffer {
  if (value.startsWith('-----BEGIN')) return Buffer.from(value);
  let text: string;
  try {
    text = read(value, 'utf8');
  } catch (err) {
    throw new TemporalConnectionError(
      `${setting}: cannot read ${value} (${(err as NodeJS.ErrnoException).code ?? 'error'})`,
      setting,
    );
  }
  if (!text.includes('-----BEGIN')) {
    throw new TemporalConnectionError(`${setting}: ${value} is not a PEM file (no -----BEGIN line)`, setting);
  }
  return Buffer.from(text);
}

/** The TLS options of the settings, or undefined for a plaintext connection. */
export function temporalTls(
  settings: TemporalConnectionSettings,
  read = readFileSync,
): TlsOptions | undefined {
  const tls = settings.tls;
  if (!tls) return undefined;
  return {
    ...(tls.serverCa
      ? { serverRootCACertificate: readPem(tls.serverCa, 'temporal.tls.serverCa', read) }
      : {}),
    ...(tls.serverName ? { serverNameOverride: tls.serverName } : {}),
    ...(tls.clientCert && tls.clientKey
      ? {
          clientCertPair: {
            crt: readPem(tls.clientCert, 'temporal.tls.clientCert', read),
            key: readPem(tls.clientKey, 'temporal.tls.clientKey', read),
          },
        }
      : {}),
  };
}

/** Options for `Connection.connect` (clients: CLI, receiver's relay, activities that signal). */
export function clientConnectionOptions(settings: TemporalConnectionSettings): ConnectionOptions {
  const tls = temporalTls(settings);
  return {
    address: settings.address,
    ...(tls ? { tls } : {}),
    // An API key alone turns TLS on with the system's CAs (the SDK's default for Temporal Cloud).
    ...(settings.apiKey ? { apiKey: settings.apiKey } : {}),
    channelArgs: RECONNECT_BACKOFF,
  };
}

/**
 * gRPC's reconnect backoff for client connections. Its default grows to two minutes while the
 * server is away, so a receiver could go on holding its backlog that long after Temporal is back;
 * at most 5 s between attempts, it relays within seconds of the restart.
 */
const RECONNECT_BACKOFF = {
  'grpc.initial_reconnect_backoff_ms': 500,
  'grpc.max_reconnect_backoff_ms': 5_000,
};

/** Options for `NativeConnection.connect` (workers). */
export function workerConnectionOptions(settings: TemporalConnectionSettings): NativeConnectionOptions {
  const tls = temporalTls(settings);
  return {
    address: settings.address,
    ...(tls ? { tls } : {}),
    ...(settings.apiKey ? { apiKey: settings.apiKey } : {}),
  };
}

const secured = (s: TemporalConnectionSettings): string =>
  s.apiKey ? 'temporal.apiKey' : s.tls?.clientCert ? 'temporal.tls.clientCert' : 'temporal.tls';

/**
 * Turns a failed connect or first call into an error that says which setting is wrong. The raw
 * message is kept at the end (it carries no secret: keys and certificates never enter it).
 */
export function explainTemporalError(err: unknown, s: TemporalConnectionSettings): Error {
  if (err instanceof TemporalConnectionError) return err;
  // The client wraps the gRPC error ("Failed to connect to Temporal server", cause: 16 UNAUTHENTICATED …).
  const cause = (err as { cause?: unknown }).cause;
  const raw = [err, cause]
    .filter((e) => e !== undefined)
    .map((e) => (e instanceof Error ? e.message : String(e as string)))
    .join(': ');
  const code = (err as { code?: unknown }).code ?? (cause as { code?: unknown } | undefined)?.code;
  const where = `Temporal at ${s.address}`;
  const fail = (setting: string, what: string) =>
    new TemporalConnectionError(`${where}: ${what} (check ${setting}): ${raw}`, setting);
  if (/namespace .*not found|Namespace .* is not found|NamespaceNotFound/i.test(raw)) {
    return fail('temporal.namespace', `namespace "${s.namespace}" does not exist`);
  }
  if (code === 16 || /UNAUTHENTICATED|not have valid authentication credentials|invalid api key/i.test(raw)) {
    return s.apiKey
      ? fail('temporal.apiKey', 'the API key was refused')
      : fail(secured(s), 'the server asks for credentials (an API key or a client certificate)');
  }
  if (code === 7 || /PERMISSION_DENIED|permission denied/i.test(raw)) {
    return fail(secured(s), `not allowed on namespace "${s.namespace}"`);
  }
  if (
    /NotValidForName|Hostname\/IP does not match|does not match certificate|ERR_TLS_CERT_ALTNAME/i.test(raw)
  ) {
    return fail('temporal.tls.serverName', "the server's certificate is for another name");
  }
  if (
    /UnknownIssuer|unable to verify|self[- ]signed certificate|certificate verify failed|unknown ca|invalid peer certificate|CERTIFICATE_VERIFY_FAILED/i.test(
      raw,
    )
  ) {
    return fail('temporal.tls.serverCa', "the server's certificate is not signed by the configured CA");
  }
  if (
    /certificate required|No required SSL certificate|handshake failure|alert.*certificate|bad certificate|HTTP status code 400|status: 400 Bad Request|tlsv13 alert/i.test(
      raw,
    )
  ) {
    return fail(
      'temporal.tls.clientCert',
      s.tls?.clientCert
        ? 'the client certificate was rejected'
        : 'the server requires a client certificate (mTLS)',
    );
  }
  if (
    !s.tls &&
    !s.apiKey &&
    /answered a TLS handshake|Connection reset|ECONNRESET|wrong version number|http2 error|h2 protocol error|frame with invalid size|Protocol error/i.test(
      raw,
    )
  ) {
    return fail('temporal.tls', 'the server seems to speak TLS; set temporal.tls');
  }
  return new TemporalConnectionError(
    `${where}: cannot connect (check temporal.address): ${raw}`,
    'temporal.address',
  );
}

/** Options of the connect functions. */
export interface ConnectOptions {
  /** How long the client waits for the server (the SDK's default: 10 s). */
  connectTimeoutMs?: number;
}

/**
 * The connection's failure as an error naming the setting. A refused handshake often reaches us only
 * as a missed deadline or a transport error, whose wording differs between the gRPC client, the
 * worker's Rust core and how loaded the machine is: when the error alone points at nothing better
 * than the address, a TLS handshake of our own finds the reason (certificate, name, or a TLS server
 * reached in plaintext).
 */
async function explainConnectFailure(err: unknown, s: TemporalConnectionSettings): Promise<Error> {
  const explained = explainTemporalError(err, s);
  if (!(explained instanceof TemporalConnectionError) || explained.setting !== 'temporal.address') {
    return explained;
  }
  return explainTemporalError(await withHandshakeReason(err, s), s);
}

/** The error with what a TLS handshake of our own learnt about the server appended. */
async function withHandshakeReason(err: unknown, s: TemporalConnectionSettings): Promise<unknown> {
  const tls = s.tls || s.apiKey ? temporalTls(s) : undefined;
  const reason = await probeTls(
    s.address,
    tls || s.apiKey
      ? {
          ...(tls?.serverRootCACertificate ? { ca: tls.serverRootCACertificate } : {}),
          ...(tls?.serverNameOverride ? { servername: tls.serverNameOverride } : {}),
          ...(tls?.clientCertPair ? { cert: tls.clientCertPair.crt, key: tls.clientCertPair.key } : {}),
        }
      : undefined,
  );
  return reason ? new Error(`${(err as Error).message}: ${reason}`) : err;
}

/**
 * A client connection, checked by reading the namespace (so a wrong namespace, key or certificate
 * fails here, naming the setting, not at the first workflow call).
 */
export async function connectTemporalClient(
  settings: TemporalConnectionSettings,
  opts: ConnectOptions = {},
): Promise<Connection> {
  let connection: Connection | undefined;
  try {
    connection = await Connection.connect({
      ...clientConnectionOptions(settings),
      ...(opts.connectTimeoutMs ? { connectTimeout: opts.connectTimeoutMs } : {}),
    });
    await connection.workflowService.describeNamespace({ namespace: settings.namespace });
    return connection;
  } catch (err) {
    await connection?.close().catch(() => undefined);
    throw await explainConnectFailure(err, settings);
  }
}

/** A lazy client connection (nothing connects until the first call); errors surface at that call. */
export function lazyTemporalClient(settings: TemporalConnectionSettings): Connection {
  return Connection.lazy(clientConnectionOptions(settings));
}

/** A worker connection, checked like connectTemporalClient. */
export async function connectTemporalWorker(settings: TemporalConnectionSettings): Promise<NativeConnection> {
  let connection: NativeConnection | undefined;
  try {
    connection = await NativeConnection.connect(workerConnectionOptions(settings));
    await connection.workflowService.describeNamespace({ namespace: settings.namespace });
    return connection;
  } catch (err) {
    await connection?.close().catch(() => undefined);
    throw await explainConnectFailure(err, settings);
  }
}
