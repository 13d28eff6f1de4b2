// A local service starts on its preferred port, or on another when that is taken, before or while
// it binds (two stacks started at once both see the port free), and says so each time.
import { createServer, type Server } from 'node:net';
import { freePort, startOnFreePort } from '../../lib/free-port';

const listen = (port: number): Promise<Server> =>
  new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve(server));
  });
const portOf = (s: Server) => (s.address() as { port: number }).port;

describe('startOnFreePort', () => {
  const servers: Server[] = [];
  afterAll(() => servers.forEach((s) => s.close()));

  it('uses the preferred port when it is free', async () => {
    const preferred = await freePort();
    const switches: string[] = [];
    const server = await startOnFreePort(preferred, listen, (a, b) => switches.push(`${a}->${b}`));
    servers.push(server);
    expect(portOf(server)).toBe(preferred);
    expect(switches).toEqual([]);
  });

  it('takes another port when the preferred one is taken, and says so', async () => {
    const holder = await listen(0);
    servers.push(holder);
    const switches: Array<[number, number]> = [];
    const server = await startOnFreePort(portOf(holder), listen, (a, b) => switches.push([a, b]));
    servers.push(server);
    expect(portOf(server)).not.toBe(portOf(holder));
    expect(switches).toEqual([[portOf(holder), portOf(server)]]);
  });

  it('tries another port when the chosen one is taken by the time it binds', async () => {
    const preferred = await freePort();
    const switches: Array<[number, number]> = [];
    let thief: Server | undefined;
    const server = await startOnFreePort(
      preferred,
      async (port) => {
        // Another process binds the port between the check and our bind.
        if (!thief) {
          thief = await listen(port);
          servers.push(thief);
        }
        return listen(port);
      },
      (a, b) => switches.push([a, b]),
    );
    servers.push(server);
    expect(portOf(server)).not.toBe(preferred);
    expect(switches).toEqual([[preferred, portOf(server)]]);
  });

  it('rethrows other failures at once', async () => {
    let calls = 0;
    await expect(
      startOnFreePort(
        undefined,
        () => {
          calls += 1;
          return Promise.reject(new Error('bad config'));
        },
        () => undefined,
      ),
    ).rejects.toThrow('bad config');
    expect(calls).toBe(1);
  });
});
