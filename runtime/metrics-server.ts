// A worker's own /metrics (callsync_* from its activities): a worker has no HTTP server otherwise.
// The Temporal SDK's temporal_* metrics are served by the SDK's core on a port of their own.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Registry } from 'prom-client';

/** Serves `registry` at GET /metrics on host:port; resolves once listening. */
export async function startMetricsServer(
  registry: Registry,
  port: number,
  host: string,
): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer((req, res) => {
    if (req.method !== 'GET' || req.url?.split('?')[0] !== '/metrics') {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found');
      return;
    }
    registry.metrics().then(
      (text) => res.writeHead(200, { 'content-type': registry.contentType }).end(text),
      (err: unknown) => res.writeHead(500, { 'content-type': 'text/plain' }).end(String(err)),
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
