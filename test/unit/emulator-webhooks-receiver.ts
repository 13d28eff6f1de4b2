// A tiny webhook receiver on 127.0.0.1 for the emulator's webhook and simulator tests.
/* eslint-disable @typescript-eslint/no-unsafe-return -- webhook bodies are untyped JSON here */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** Untyped JSON, which the tests assert on. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Json = any;

export interface Receiver {
  url: string;
  /** Bodies received, in arrival order. */
  events: Json[];
  /** Authorization headers received, in arrival order. */
  authorizations: (string | undefined)[];
  /** The status to answer (changeable; a function answers per request). */
  status: number | ((body: Json, n: number) => number);
  /** Resolves once `n` events have arrived (or rejects after `timeoutMs`). */
  waitFor(n: number, timeoutMs?: number): Promise<Json[]>;
  close(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  const events: Json[] = [];
  const authorizations: (string | undefined)[] = [];
  let count = 0;
  const receiver: Receiver = {
    url: '',
    events,
    authorizations,
    status: 200,
    waitFor: async (n, timeoutMs = 10_000) => {
      const until = Date.now() + timeoutMs;
      while (events.length < n) {
        if (Date.now() > until)
          throw new Error(`receiver: ${events.length} of ${n} events after ${timeoutMs} ms`);
        await new Promise((r) => setTimeout(r, 10));
      }
      return events;
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString('utf8')));
    req.on('end', () => {
      const json: Json = body === '' ? null : JSON.parse(body);
      const s = receiver.status;
      const status = typeof s === 'function' ? s(json, ++count) : s;
      if (status >= 200 && status < 300) {
        events.push(json);
        authorizations.push(req.headers.authorization);
      }
      res.writeHead(status, { 'content-type': 'application/json' }).end('{}');
    });
  });
  server.keepAliveTimeout = 1000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  return receiver;
}
