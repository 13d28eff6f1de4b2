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
