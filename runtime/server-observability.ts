// What callsync's HTTP server exposes for operators, from config: the codec endpoint (only with
// encryption, and only with its bearer token) and /metrics (on a port of its own, or behind a token).
import { readFileSync } from 'node:fs';
import type { CodecEndpointConfig, MetricsConfig } from '../config/observability';
import type { CallsyncConfig } from '../config/schema';
import { metrics, type CallsyncMetrics } from '../lib/metrics';
import type { CodecRoutesOptions } from '../server/codec-routes';
import type { MetricsEndpoint } from '../server/index';
import { payloadCodecFromConfig } from '../lib/encryption-keys';

/** A bearer token: `token`, or the first line of `tokenFile`; errors name the setting (`prefix`.tokenFile). */
export function tokenSetting(
  block: { token?: string | undefined; tokenFile?: string | undefined },
  prefix: string,
  read = readFileSync,
): string | undefined {
  if (block.tokenFile === undefined) return block.token;
  let text: string;
  try {
    text = read(block.tokenFile, 'utf8');
  } catch (err) {
    throw new Error(
      `${prefix}.tokenFile: cannot read ${block.tokenFile} (${(err as NodeJS.ErrnoException).code ?? 'error'})`,
      { cause: err },
    );
  }
  const token = text.split('\n')[0]!.trim();
  if (token.length < 16) {
    throw new Error(`${prefix}.tokenFile: ${block.tokenFile} must hold a token of at least 16 characters`);
  }
  return token;
}

/** The codec endpoint's bearer token (server.codec.token or tokenFile). */
export function codecToken(
  codec: Pick<CodecEndpointConfig, 'token' | 'tokenFile'>,
  read = readFileSync,
): string | undefined {
  return tokenSetting(codec, 'server.codec', read);
}

/** Where the server serves /metrics, or why it does not. */
export function metricsEndpointOf(
  m: MetricsConfig,
  read = readFileSync,
): { endpoint: MetricsEndpoint | undefined; metricsOff: string | undefined } {
  if (!m.enabled) return { endpoint: undefined, metricsOff: 'metrics.enabled is false' };
  const token = tokenSetting(m, 'metrics', read);
  if (m.serverPort !== undefined)
    return { endpoint: { port: m.serverPort, host: m.host, token }, metricsOff: undefined };
  if (token !== undefined) return { endpoint: { token }, metricsOff: undefined };
  return {
    endpoint: undefined,
    metricsOff:
      'neither metrics.serverPort nor metrics.token (or tokenFile) is set, and /metrics is not served on the public receiver port without a token',
  };
}

/** True for 127.0.0.0/8, ::1 and localhost. */
export function isLoopbackHost(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host);
}

/** The server's codec and metrics options, and why the codec endpoint is off (to log) when it is. */
export function serverObservability(
  config: Pick<CallsyncConfig, 'temporal' | 'server' | 'metrics'>,
  host: string = config.server.host,
): {
  codec: Omit<CodecRoutesOptions, 'logger'> | undefined;
  metrics: CallsyncMetrics | undefined;
  /** Where /metrics is served (server/index.ts); undefined: not served (`metricsOff` says why). */
  metricsEndpoint: MetricsEndpoint | undefined;
  codecOff: string | undefined;
  metricsOff: string | undefined;
} {
  const codec = payloadCodecFromConfig(config.temporal);
  const token = codecToken(config.server.codec);
  const { endpoint, metricsOff } = metricsEndpointOf(config.metrics);
  let codecOff: string | undefined;
  if (!codec) codecOff = 'temporal.encryption is "off": histories are in clear, no codec endpoint';
  // Without a token the endpoint would decrypt for anyone who can reach it, loopback included (a
  // web page can reach loopback by DNS rebinding, a reverse proxy on the host exposes it).
  else if (!token)
    codecOff = 'server.codec.token (or tokenFile) is not set (the codec endpoint needs its bearer token)';
  return {
    codec:
      codec && token && !codecOff
        ? {
            codec,
            token,
            // The address the server listens on is a name it may be reached under (not a wildcard).
            allowedHosts: [
              ...config.server.codec.hosts,
              ...(host === '0.0.0.0' || host === '::' ? [] : [host]),
            ],
            corsOrigins: config.server.codec.corsOrigins,
          }
        : undefined,
    metrics: config.metrics.enabled ? metrics() : undefined,
    metricsEndpoint: endpoint,
    codecOff,
    metricsOff,
  };
}
