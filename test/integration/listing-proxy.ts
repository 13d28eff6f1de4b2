// A small HTTP proxy in front of the emulator that lists collections the way some real servers do
// and the spec allows: newest first when no `sort` is asked for (as the platform's own CLI asks),
// and pages capped below the `limit` asked for (with `total` still the whole match). Its rules can
// change between tests; everything else passes through unchanged.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ListingRules {
  /** Without `sort`, list by id descending. */
  newestFirstByDefault?: boolean;
  /** At most this many rows a page, whatever `limit` asks. */
  cap?: number;
  /** Called before each collection read is forwarded (e.g. to write records while a read goes on). */
  beforeList?: (path: string) => void;
}

export interface ListingProxy {
  /** The proxy's API base URL, to configure as the platform's. */
  baseUrl: string;
  /** Rules of the next requests. */
  rules: ListingRules;
  /** Query strings of the collection reads forwarded, by path (e.g. `/cdrs`). */
  reads: { path: string; query: URLSearchParams }[];
  close(): Promise<void>;
}

const API_PREFIX = '/v1.1/voipstudio';

async function body(req: IncomingMessage): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return chunks.length > 0 ? Buffer.concat(chunks) : undefined;
}

/** Starts the proxy; `target()` gives the emulator's origin when a request comes (set after it starts). */
export async function startListingProxy(target: () => string): Promise<ListingProxy> {
  const proxy: Omit<ListingProxy, 'baseUrl' | 'close'> = { rules: {}, reads: [] };
  const server: Server = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', target());
      // A collection read is a GET with page and limit (the client always sends both).
      if (req.method === 'GET' && url.searchParams.has('page') && url.searchParams.has('limit')) {
        const q = url.searchParams;
        const { newestFirstByDefault, cap, beforeList } = proxy.rules;
        if (newestFirstByDefault && !q.has('sort')) {
          q.set('sort', 'id');
          q.set('dir', 'DESC');
        }
        if (cap !== undefined && Number(q.get('limit')) > cap) q.set('limit', String(cap));
        const path = url.pathname.slice(API_PREFIX.length);
        proxy.reads.push({ path, query: new URLSearchParams(q) });
        beforeList?.(path);
      }
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(req.headers)) {
        if (typeof v === 'string' && k !== 'host' && k !== 'content-length') headers[k] = v;
      }
      const sent = await body(req);
      const answer = await fetch(url, {
        method: req.method ?? 'GET',
        headers,
        redirect: 'manual',
        ...(sent !== undefined ? { body: sent } : {}),
      });
      const out: Record<string, string> = {};
      answer.headers.forEach((v, k) => {
        if (k !== 'content-length' && k !== 'transfer-encoding' && k !== 'content-encoding') out[k] = v;
      });
      res.writeHead(answer.status, out);
      res.end(Buffer.from(await answer.arrayBuffer()));
    })().catch((err: unknown) => {
      res.writeHead(502, { 'content-type': 'text/plain' });
      res.end(`listing proxy: ${String(err)}`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(proxy, {
    baseUrl: `http://127.0.0.1:${port}${API_PREFIX}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((err) => (err ? reject(err) : resolve()));
      }),
  });
}
