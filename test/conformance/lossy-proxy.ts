// A pass-through HTTP proxy in front of a vendor's test server that can lose one answer: the request
// matching an armed rule reaches the server and is carried out, and the proxy then destroys the
// client's socket instead of answering, as a dropped connection does after the vendor did the work.
// Harnesses point the connector's base URL at it (DestinationHarness.loseNextAnswer).
import { createServer, request, type IncomingMessage, type Server } from 'node:http';

/** Which request loses its answer: by method, path (without the query) and body (as text). */
export type AnswerRule = (method: string, path: string, body: string) => boolean;

export interface LossyProxy {
  /** The proxy's origin, for the connector's base URL. */
  url: string;
  /** The next request this rule matches is carried out and its answer lost. */
  loseNext(rule: AnswerRule): void;
  /** Answers lost so far. */
  lost(): number;
  close(): Promise<void>;
}

async function bodyOf(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** Starts a proxy to `target` (an origin, `http://127.0.0.1:<port>`) on a free local port. */
export async function startLossyProxy(target: string): Promise<LossyProxy> {
  const upstream = new URL(target);
  const rules: AnswerRule[] = [];
  let lost = 0;
  const server: Server = createServer((req, res) => {
    void (async () => {
      const body = await bodyOf(req);
      const path = (req.url ?? '/').split('?')[0]!;
      const at = rules.findIndex((rule) => rule(req.method ?? 'GET', path, body.toString('utf8')));
      const loseIt = at >= 0;
      if (loseIt) rules.splice(at, 1);
      const out = request(
        {
          host: upstream.hostname,
          port: upstream.port,
          method: req.method,
          path: req.url,
          headers: { ...req.headers, host: upstream.host },
        },
        (answer) => {
          if (loseIt) {
            // Read the whole answer (the server finished the work), then drop the connection.
            void bodyOf(answer).then(() => {
              lost++;
              req.socket.destroy();
            });
            return;
          }
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      out.on('error', () => req.socket.destroy());
      out.end(body);
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('the lossy proxy did not bind a port');
  return {
    url: `http://127.0.0.1:${address.port}`,
    loseNext: (rule) => rules.push(rule),
    lost: () => lost,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((err) => (err ? reject(err) : resolve()));
      }),
  };
}
