// A plain TLS handshake towards a gRPC endpoint, to explain a connection the gRPC client only
// reports as "Failed to connect before the deadline": it tells a certificate signed by another CA,
// a wrong server name or a TLS server reached without TLS apart from an unreachable address.
import { connect, type ConnectionOptions } from 'node:tls';

/** What the probe learnt, as text for an error message; undefined when it learnt nothing. */
export type ProbeResult = string | undefined;

/** host and port of `host:port` (or `[v6]:port`). */
export function splitAddress(address: string): { host: string; port: number } {
  const at = address.lastIndexOf(':');
  const host = address.slice(0, at).replace(/^\[(.*)\]$/, '$1');
  return { host, port: Number(address.slice(at + 1)) };
}

const isIp = (host: string): boolean => /^[\d.]+$/.test(host) || host.includes(':');

/**
 * Handshakes with the given TLS settings (or, when `tls` is undefined, without verification, to see
 * whether the server speaks TLS at all). Never throws; the socket is closed at once.
 */
export async function probeTls(
  address: string,
  tls: { ca?: Uint8Array; servername?: string; cert?: Uint8Array; key?: Uint8Array } | undefined,
  timeoutMs = 10_000,
): Promise<ProbeResult> {
  const { host, port } = splitAddress(address);
  const servername = tls?.servername ?? (isIp(host) ? undefined : host);
  const options: ConnectionOptions = {
    host,
    port,
    ALPNProtocols: ['h2'],
    rejectUnauthorized: tls !== undefined,
    ...(servername ? { servername } : {}),
    ...(tls?.ca ? { ca: Buffer.from(tls.ca) } : {}),
    ...(tls?.cert && tls.key ? { cert: Buffer.from(tls.cert), key: Buffer.from(tls.key) } : {}),
  };
  return new Promise<ProbeResult>((resolve) => {
    const socket = connect(options);
    const done = (result: ProbeResult) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(result);
    };
    const timer = setTimeout(() => done(undefined), timeoutMs);
    socket.once('secureConnect', () =>
      done(tls === undefined ? 'the server answered a TLS handshake' : undefined),
    );
    socket.once('error', (err: NodeJS.ErrnoException) => {
      const text = `${err.code ?? ''} ${err.message}`.trim();
      if (tls !== undefined) return done(`TLS handshake: ${text}`);
      // Without TLS settings a failed handshake says little (the server may be plaintext), except a
      // TLS alert: only a TLS server sends one (an mTLS server refusing a client without a certificate).
      done(/ALERT|alert number/.test(text) ? 'the server answered a TLS handshake' : undefined);
    });
  });
}
