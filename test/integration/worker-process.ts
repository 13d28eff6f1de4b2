// Runs `worker.ts` as its own process (as in production), so a test can kill it for real.
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..');

export interface WorkerProcess {
  child: ChildProcess;
  /** What the worker wrote on stderr so far (JSON log lines). */
  output(): string;
  /** Resolves when the process has exited. */
  exited: Promise<number | null>;
}

/**
 * Starts a worker process configured by `configFile` and waits until it runs; `args` replaces the
 * entry point (default `worker.ts`), e.g. `cli/main.ts worker --vendor-queues-only`.
 */
export async function spawnWorker(
  configFile: string,
  timeoutMs = 60_000,
  args: string[] = [join(ROOT, 'worker.ts')],
): Promise<WorkerProcess> {
  // The test run's DATABASE_URL would override the config file's database: leave it out.
  const { DATABASE_URL: _ignored, ...env } = process.env;
  const child = spawn(process.execPath, ['--import', 'tsx', ...args], {
    cwd: ROOT,
    env: { ...env, CALLSYNC_CONFIG: configFile, CALLSYNC_LOG_LEVEL: 'info' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let text = '';
  child.stderr?.on('data', (chunk: Buffer) => (text += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const deadline = Date.now() + timeoutMs;
  while (!text.includes('worker running')) {
    if (child.exitCode !== null) throw new Error(`worker exited with ${child.exitCode}:\n${text}`);
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`worker did not start in ${timeoutMs} ms:\n${text}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return { child, output: () => text, exited };
}
