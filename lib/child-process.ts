// Helpers for the services callsync starts as child processes (emulator, worker, server, Temporal).
import type { ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';

/** The first stdout line of a child that parses as JSON with the given key. */
export async function readyLine(child: ChildProcess, key: string): Promise<Record<string, unknown>> {
  const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
  const exited = new Promise<never>((_, reject) =>
    child.once('exit', (code) => reject(new Error(`${key} exited with ${String(code)} before it was ready`))),
  );
  const ready = (async () => {
    for await (const line of lines) {
      try {
        const value = JSON.parse(line) as Record<string, unknown>;
        if (key in value) return value;
      } catch {
        // not the ready line
      }
    }
    throw new Error(`${key}: stdout closed before the ready line`);
  })();
  return Promise.race([ready, exited]);
}

/** Stops a child with SIGTERM, and SIGKILL when it has not exited after `killAfterMs`. */
export async function stopChild(child: ChildProcess, killAfterMs = 15_000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), killAfterMs);
  await exited;
  clearTimeout(timer);
}
