// A round-robin HTTP load balancer in front of the receivers, as a deployment with two receiver
// processes has. A receiver that refuses the connection (stopped, restarting) is skipped and the
// request goes to the next one; a request that reached a receiver and lost its answer is answered
// 502, so the platform retries it (the receiver may have stored it: the inbox deduplicates).
import { createServer, request, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Balancer {
  /** The balancer's origin (http://127.0.0.1:<port>). */
  origin: string;
  /** Requests answered by each upstream (by its origin), and those no upstream took. */
  stats: { byUpstream: Map<string, number>; failedOver: number; unavailable: number };
  close(): Promise<void>;
}

/** Answer of one try: the upstream's, or why there was none. */
type Attempt = { answer: IncomingMessage } | { refused: true } | { lost: true };

function forward(upstream: URL, req: IncomingMessage, body: Buffer): Promise<Attempt> {
  return new Promise((resolve) => {
    const out = request(
      {
        host: upstream.hostname,
        port: upstream.port,
        method: req.method,
        path: req.url,
        headers: { ...req.headers, host: upstream.host, 'content-length': String(body.length) },
      },
      (answer) => resolve({ answer }),
    );
    out.on('error', (err: NodeJS.ErrnoException) =>
      // Refused: nothing reached the receiver, another may take it. Anything else: it may have.
      resolve(err.code === 'ECONNREFUSED' ? { refused: true } : { lost: true }),
    );
    out.end(body);
  });
}

/** Starts the balancer on a free port of 127.0.0.1 in front of `upstreams` (origins). */
export async function startBalancer(upstreams: string[]): Promise<Balancer> {
  const targets = upstreams.map((u) => new URL(u));
  const stats: Balancer['stats'] = { byUpstream: new Map(), failedOver: 0, unavailable: 0 };
  let next = 0;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void (async () => {
        const body = Buffer.concat(chunks);
        const first = next++ % targets.length;
        for (let i = 0; i < targets.length; i++) {
          const target = targets[(first + i) % targets.length]!;
          const attempt = await forward(target, req, body);
          if ('refused' in attempt) {
            stats.failedOver++;
            continue;
          }
          if ('lost' in attempt) break;
          stats.byUpstream.set(target.origin, (stats.byUpstream.get(target.origin) ?? 0) + 1);
          res.writeHead(attempt.answer.statusCode ?? 502, attempt.answer.headers);
          attempt.answer.pipe(res);
          return;
        }
        stats.unavailable++;
        res.writeHead(502, { 'content-type': 'application/json' });
        res.end('{"error":"no receiver answered"}');
      })();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    stats,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
