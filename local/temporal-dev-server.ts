import { spawn, type ChildProcess } from 'node:child_process';
import { Connection } from '@temporalio/client';
import { stopChild } from '../lib/child-process';
import { freePort } from '../lib/free-port';
import { temporalCliPath } from './temporal-cli';

export interface TemporalDevServerOptions {
  /** gRPC port; a free one when omitted. */
  port?: number;
  /** Web UI port; no UI when omitted or null. */
  uiPort?: number | null;
  /** SQLite file that keeps workflows across restarts; in-memory when omitted. */
  dbFile?: string;
  namespace?: string;
  /** How long to wait for the server to answer. */
  startTimeoutMs?: number;
  onLog?: (line: string) => void;
}

export interface RunningTemporal {
  /** host:port for Connection.connect / NativeConnection.connect. */
  address: string;
  namespace: string;
  uiUrl: string | undefined;
  stop(): Promise<void>;
}

/** Starts `temporal server start-dev` (the real Temporal server, single process) and waits until it answers. */
export async function startTemporalDevServer(opts: TemporalDevServerOptions = {}): Promise<RunningTemporal> {
  const cli = await temporalCliPath();
  const port = opts.port ?? (await freePort());
  const namespace = opts.namespace ?? 'default';
  const args = ['server', 'start-dev', '--ip', '127.0.0.1', '--port', String(port), '--namespace', namespace];
  args.push('--log-level', 'warn');
  if (opts.uiPort) args.push('--ui-port', String(opts.uiPort));
  else args.push('--headless');
  if (opts.dbFile) args.push('--db-filename', opts.dbFile);

  const child = spawn(cli, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  const output: string[] = [];
  const collect = (chunk: Buffer): void => {
    const text = chunk.toString();
    output.push(text);
    if (output.length > 200) output.shift();
    opts.onLog?.(text);
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);

  const address = `127.0.0.1:${port}`;
  try {
    await waitUntilServing(child, address, opts.startTimeoutMs ?? 60_000);
  } catch (err) {
    child.kill('SIGKILL');
    throw new Error(`Temporal dev server did not start on ${address}: ${String(err)}\n${output.join('')}`, {
      cause: err,
    });
  }
  return {
    address,
    namespace,
    uiUrl: opts.uiPort ? `http://127.0.0.1:${opts.uiPort}` : undefined,
    stop: () => stopChild(child, 10_000),
  };
}

async function waitUntilServing(child: ChildProcess, address: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let exited: string | undefined;
  child.once('exit', (code, signal) => (exited = `exited with ${code ?? signal}`));
  for (;;) {
    if (exited) throw new Error(exited);
    try {
      const connection = await Connection.connect({ address, connectTimeout: 1000 });
      try {
        await connection.workflowService.getSystemInfo({});
        return;
      } finally {
        await connection.close();
      }
    } catch (err) {
      if (Date.now() > deadline) throw err;
      await new Promise((r) => setTimeout(r, 250));
    }
  }
}
