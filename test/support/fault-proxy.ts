// An HTTP proxy in front of a local emulator that injects the faults a real network and a real
// service show: an answer of 503 before the request reaches the service, and a request the service
// handled whose answer never arrives (the connection is cut). Seeded, so a run replays.
import { createServer, request, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mulberry32 } from '../../lib/seeded-random';

export interface FaultProxyOptions {
  /** Where requests go (http://127.0.0.1:<port>). */
  upstream: string;
  /** Chance a request is answered 503 without reaching the upstream. */
  unavailable: number;
  /** Chance a request is handled upstream and its answer dropped (the client sees a reset). */
  dropResponse: number;
  /** Only requests whose method and path match are faulted (e.g. BigQuery job inserts and uploads). */
  match?: (method: string, path: string) => boolean;
  seed?: number;
}

export interface FaultProxy {
  /** The proxy's origin, to use as the client's endpoint. */
  endpoint: string;
  /** How often each fault was applied. */
  applied: { unavailable: number; dropResponse: number };
  /** Upstream answers by status (409s show retries meeting jobs that already ran). */
  statuses: Map<number, number>;
  /** Faults off (or on again). */
  enabled: boolean;
  close(): Promise<void>;
}

/** Starts the proxy on a free port of 127.0.0.1. */
export async function startFaultProxy(options: FaultProxyOptions): Promise<FaultProxy> {
  const random = mulberry32(options.seed ?? 11);
  const upstream = new URL(options.upstream);
  const proxy: FaultProxy = {
    endpoint: '',
    applied: { unavailable: 0, dropResponse: 0 },
    statuses: new Map(),
    enabled: true,
    close: async () => undefined,
  };
  const server: Server = createServer((req, res) => {
    const faultable = proxy.enabled && (options.match?.(req.method ?? '', req.url ?? '') ?? true);
    const roll = faultable ? random() : 1;
    if (roll < options.unavailable) {
      proxy.applied.unavailable += 1;
      req.resume();
      res.writeHead(503, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          error: { code: 503, message: 'injected: service unavailable', status: 'UNAVAILABLE' },
        }),
      );
      return;
    }
    const drop = roll < options.unavailable + options.dropResponse;
    const forward = request(
      {
        host: upstream.hostname,
        port: upstream.port,
        method: req.method,
        path: req.url,
        headers: { ...req.headers, host: upstream.host },
      },
      (answer: IncomingMessage) => {
        const status = answer.statusCode ?? 0;
        proxy.statuses.set(status, (proxy.statuses.get(status) ?? 0) + 1);
        if (drop) {
          proxy.applied.dropResponse += 1;
          answer.resume();
          answer.once('end', () => req.socket.destroy());
          return;
        }
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    forward.on('error', () => req.socket.destroy());
    req.pipe(forward);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  proxy.endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  proxy.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return proxy;
}
