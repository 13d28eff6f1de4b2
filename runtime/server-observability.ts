// What callsync's HTTP server exposes for operators, from config: the codec endpoint (only with
// encryption, and only behind a token unless the server is on a loopback interface) and /metrics.
import type { CallsyncConfig } from '../config/schema';
import { metrics, type CallsyncMetrics } from '../lib/metrics';
import type { CodecRoutesOptions } from '../server/codec-routes';
import { payloadCodecFromConfig } from './temporal-encryption';

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
  const token = config.server.codec.token;
  let codecOff: string | undefined;
  if (!codec) codecOff = 'temporal.encryption is not set: histories are in clear, no codec endpoint';
  // Without a token the endpoint would decrypt for anyone who can reach it.
  else if (!token && !isLoopbackHost(host))
    codecOff = `server.codec.token is not set and server.host is ${host}`;
  return {
    codec: codec && !codecOff ? { codec, token, corsOrigins: config.server.codec.corsOrigins } : undefined,
    metrics: config.metrics.enabled ? metrics() : undefined,
    codecOff,
  };
}
