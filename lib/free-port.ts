import { createServer } from 'node:net';

/** A TCP port that was free on 127.0.0.1 a moment ago (the OS picks it). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => (port ? resolve(port) : reject(new Error('no free port'))));
    });
  });
}

/** True when nothing listens on `port` of 127.0.0.1 (we could bind it a moment ago). */
export async function isPortFree(port: number): Promise<boolean> {
  return new Promise<boolean>((resolve) => {
    const server = createServer();
    server.unref();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/**
 * `preferred` when it is free, else a free port; `onTaken` hears about the switch, so the user
 * learns why a service is not where they expect it.
 */
export async function portOrFree(
  preferred: number | undefined,
  onTaken?: (preferred: number, chosen: number) => void,
): Promise<number> {
  if (preferred !== undefined && preferred > 0 && (await isPortFree(preferred))) return preferred;
  const chosen = await freePort();
  if (preferred !== undefined && preferred > 0) onTaken?.(preferred, chosen);
  return chosen;
}

/** True when `err` says a port was already taken (Node's EADDRINUSE, or a server's own log of it). */
export function isAddressInUse(err: unknown): boolean {
  if (typeof err === 'object' && err !== null && (err as { code?: unknown }).code === 'EADDRINUSE')
    return true;
  return err instanceof Error && /address already in use/i.test(err.message);
}

/**
 * Starts a service on `preferred` (or a free port when it is taken), and again on another free
 * port when the chosen one is taken by the time the service binds it: two stacks started at once
 * both see a port free, and only one gets it. `onTaken` hears about each switch.
 */
export async function startOnFreePort<T>(
  preferred: number | undefined,
  start: (port: number) => Promise<T>,
  onTaken: (wanted: number, chosen: number) => void,
  attempts = 3,
): Promise<T> {
  let port = await portOrFree(preferred, onTaken);
  for (let attempt = 1; ; attempt++) {
    try {
      return await start(port);
    } catch (err) {
      if (attempt >= attempts || !isAddressInUse(err)) throw err;
      const next = await freePort();
      onTaken(port, next);
      port = next;
    }
  }
}
