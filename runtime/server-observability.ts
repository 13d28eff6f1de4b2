// What callsync's HTTP server exposes for operators, from config: the codec endpoint (only with
// encryption, and only with its bearer token) and /metrics.
import { readFileSync } from 'node:fs';
import type { CodecEndpointConfig } from '../config/observability';
import type { CallsyncConfig } from '../config/schema';
import { metrics, type CallsyncMetrics } from '../lib/metrics';
import type { CodecRoutesOptions } from '../server/codec-routes';
import { payloadCodecFromConfig } from './temporal-encryption';

/** The codec endpoint's bearer token: `token`, or the first line of `tokenFile`; errors name the setting. */
export function codecToken(
  codec: Pick<CodecEndpointConfig, 'token' | 'tokenFile'>,
  read = readFileSync,
): string | undefined {
  if (codec.tokenFile === undefined) return codec.token;
  let text: string;
  try {
    text = read(codec.tokenFile, 'utf8');
  } catch (err) {
    throw new Error(
      `server.codec.tokenFile: cannot read ${codec.tokenFile} (${(err as NodeJS.ErrnoException).code ?? 'error'})`,
    );
  }
  const token = text.split('\n')[0]!.trim();
  if (token.length < 16) {
    throw new Error(`server.codec.tokenFile: ${codec.tokenFile} must hold a token of at least 16 characters`);
  }
  return token;
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
  codecOff: string | undefined;
} {
  const codec = payloadCodecFromConfig(config.temporal);
  const token = codecToken(config.server.codec);
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
    codecOff,
  };
}
