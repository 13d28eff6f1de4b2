// A TCP proxy in front of a server (PostgreSQL here) that a test can cut and restore on the same
// port: cut() drops every connection and refuses new ones, as a stopped database does, without
// stopping the server other test files share.
import { createServer, connect, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

export interface TcpProxy {
  port: number;
  /** Drops every connection and stops listening (clients see ECONNREFUSED). */
  cut(): Promise<void>;
  /** Listens again on the same port. */
  restore(): Promise<void>;
  close(): Promise<void>;
}

/** Starts a proxy on a free port of 127.0.0.1 forwarding to host:port. */
export async function startTcpProxy(host: string, port: number): Promise<TcpProxy> {
  const sockets = new Set<Socket>();
  const track = (s: Socket): void => {
    sockets.add(s);
    s.once('close', () => sockets.delete(s));
    s.on('error', () => s.destroy());
  };
  const make = (): Server =>
    createServer((client) => {
      const upstream = connect(port, host);
      track(client);
      track(upstream);
      client.pipe(upstream).pipe(client);
      client.once('close', () => upstream.destroy());
      upstream.once('close', () => client.destroy());
    });
  const listen = (server: Server, at: number): Promise<number> =>
    new Promise((resolve, reject) => {
      server.once('error', reject);
      server.listen(at, '127.0.0.1', () => resolve((server.address() as AddressInfo).port));
    });
  let server: Server | undefined = make();
  const bound = await listen(server, 0);
  const cut = async (): Promise<void> => {
    const s = server;
    server = undefined;
    for (const socket of sockets) socket.destroy();
    if (s) await new Promise<void>((resolve) => s.close(() => resolve()));
  };
  return {
    port: bound,
    cut,
    async restore() {
      if (server) return;
      server = make();
      await listen(server, bound);
    },
    close: cut,
  };
}
