// A /metrics port of its own (callsync_*): a worker's (a worker has no HTTP server otherwise), and
// the server's, so that metrics are not served on the public receiver port. With a token, every
// scrape must carry it (Prometheus `authorization: { credentials_file }`). The Temporal SDK's
// temporal_* metrics are served by the SDK's core on a port of their own.
import { timingSafeEqual } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Registry } from 'prom-client';

/** Options of a metrics port beyond where it listens. */
export interface MetricsServerOptions {
  /** Sets gauges that are read on demand; a failure is passed to `onScrapeError`, the rest is served. */
  beforeScrape?: () => Promise<void>;
  onScrapeError?: (err: unknown) => void;
  /** Bearer token every scrape must carry (401 otherwise). */
  token?: string | undefined;
}

/** True when `header` is `Bearer <token>` (compared in constant time). */
export function bearerIs(header: string | undefined, token: string): boolean {
  const m = /^Bearer\s+(.+)$/i.exec(header ?? '');
  if (!m) return false;
  const given = Buffer.from(m[1]!.trim());
  const want = Buffer.from(token);
  return given.length === want.length && timingSafeEqual(given, want);
}

/** Serves `registry` at GET /metrics on host:port (0: a free one); resolves once listening. */
export async function startMetricsServer(
  registry: Registry,
  port: number,
  host: string,
  opts: MetricsServerOptions = {},
): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer((req, res) => {
    if (req.method !== 'GET' || req.url?.split('?')[0] !== '/metrics') {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found');
      return;
    }
    if (opts.token !== undefined && !bearerIs(req.headers.authorization, opts.token)) {
      res
        .writeHead(401, { 'content-type': 'text/plain', 'www-authenticate': 'Bearer' })
        .end('Unauthorized: /metrics needs its bearer token (metrics.token)');
      return;
    }
    (opts.beforeScrape
      ? opts.beforeScrape().catch((err: unknown) => opts.onScrapeError?.(err))
      : Promise.resolve()
    )
      .then(() => registry.metrics())
      .then(
        (text) => res.writeHead(200, { 'content-type': registry.contentType }).end(text),
        () => res.writeHead(500, { 'content-type': 'text/plain' }).end('metrics could not be collected'),
      );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, resolve);
  });
  const bound = (server.address() as AddressInfo).port;
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${bound}/metrics`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
