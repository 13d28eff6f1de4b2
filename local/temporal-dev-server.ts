import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { Connection } from '@temporalio/client';
import { stopChild } from '../lib/child-process';
import { portOrFree } from '../lib/free-port';
import { stopLeftoverProcess } from './leftover-process';
import { temporalCliPath } from './temporal-cli';

export interface TemporalDevServerOptions {
  /** Preferred gRPC port; another free one when it is taken (reported to onNotice). */
  port?: number;
  /** Preferred web UI port; no UI when omitted or null. */
  uiPort?: number | null;
  /** SQLite file that keeps workflows across restarts; in-memory when omitted. */
  dbFile?: string;
  /** Where the server's pid is kept, so the next start stops one a killed run left behind (with dbFile). */
  pidFile?: string;
  namespace?: string;
  /**
   * Marks the server as ours (see OWNER_PREFIX); a random one when omitted. Keep it stable for a
   * given dbFile, as the marker namespace is stored there.
   */
  ownerToken?: string;
  /** How long to wait for the server to answer. */
  startTimeoutMs?: number;
  /**
   * Run the server in a process group of its own, for a caller that stops it itself: a terminal's
   * Ctrl-C signals the whole foreground group, and the server must outlive the worker that uses it.
   */
  ownProcessGroup?: boolean;
  onLog?: (line: string) => void;
  /** Things the user should hear about: a port that was taken, a leftover server that was stopped. */
  onNotice?: (message: string) => void;
}

export interface RunningTemporal {
  /** host:port for Connection.connect / NativeConnection.connect. */
  address: string;
  port: number;
  namespace: string;
  /** The namespace that proves a server at `address` is this one. */
  ownerNamespace: string;
  uiUrl: string | undefined;
  uiPort: number | undefined;
  stop(): Promise<void>;
}

/**
 * Our dev server is started with one extra namespace, `callsync-owner-<token>`, and counts as
 * started only when the server at its address has that namespace and our child process still runs.
 * A port check alone is not enough: another stack's server can take the port between the check and
 * our bind, our child then exits ("address already in use"), and the other server answers every
 * call, so we would run our workflows on it. A namespace is the marker because it is something the
 * server itself reports (DescribeNamespace), we choose it before the server starts, and a server
 * we did not start cannot have it. (The db file path would identify ours too, but no API reports it.)
 */
const OWNER_PREFIX = 'callsync-owner-';
const ATTEMPTS = 3;

/** Starts `temporal server start-dev` (the real Temporal server, single process) and waits until it answers as ours. */
export async function startTemporalDevServer(opts: TemporalDevServerOptions = {}): Promise<RunningTemporal> {
  const cli = await temporalCliPath(opts.onNotice);
  const namespace = opts.namespace ?? 'default';
  const ownerNamespace = `${OWNER_PREFIX}${opts.ownerToken ?? randomBytes(8).toString('hex')}`;
  const notice = opts.onNotice ?? (() => undefined);
  if (opts.pidFile && opts.dbFile) {
    const pid = readPid(opts.pidFile);
    if (pid && (await stopLeftoverProcess(pid, opts.dbFile, 'SIGTERM', 10_000)))
      notice(`stopped the Temporal dev server (pid ${pid}) an earlier run left running on ${opts.dbFile}`);
  }
  let lastError: unknown;
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const port = await portOrFree(attempt === 0 ? opts.port : undefined, (wanted, chosen) =>
      notice(`port ${wanted} (Temporal) is taken; using ${chosen}`),
    );
    const uiPort = opts.uiPort
      ? await portOrFree(attempt === 0 ? opts.uiPort : undefined, (wanted, chosen) =>
          notice(`port ${wanted} (Temporal UI) is taken; using ${chosen}`),
        )
      : undefined;
    try {
      const started = await startOnce(cli, { ...opts, namespace }, ownerNamespace, port, uiPort);
      if (opts.pidFile) writeFileSync(opts.pidFile, `${started.pid}\n`);
      const pidFile = opts.pidFile;
      return {
        ...started.running,
        stop: async () => {
          await started.running.stop();
          if (pidFile) rmSync(pidFile, { force: true });
        },
      };
    } catch (err) {
      lastError = err;
      if (!(err instanceof PortConflict)) throw err;
      notice(`Temporal could not start on ${err.address} (${err.reason}); trying another port`);
    }
  }
  throw lastError;
}

/** Our server exited because a port was taken (another server got it first) or it crashed starting. */
class PortConflict extends Error {
  constructor(
    readonly address: string,
    output: string,
    readonly reason = 'a port it needs was taken meanwhile',
  ) {
    super(`Temporal dev server could not start on ${address} (${reason})\n${output}`);
  }
}

async function startOnce(
  cli: string,
  opts: TemporalDevServerOptions & { namespace: string },
  ownerNamespace: string,
  port: number,
  uiPort: number | undefined,
): Promise<{ running: RunningTemporal; pid: number }> {
  const args = ['server', 'start-dev', '--ip', '127.0.0.1', '--port', String(port)];
  args.push('--namespace', opts.namespace, '--namespace', ownerNamespace, '--log-level', 'warn');
  if (uiPort) args.push('--ui-port', String(uiPort));
  else args.push('--headless');
  if (opts.dbFile) args.push('--db-filename', opts.dbFile);

  const child = spawn(cli, args, {
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: opts.ownProcessGroup ?? false,
  });
  // The head of the output holds the cause of a crash at start (a Go panic prints it first, then
  // every goroutine); the tail holds the latest lines.
  let head = '';
  const output: string[] = [];
  const collect = (chunk: Buffer): void => {
    const text = chunk.toString();
    if (head.length < 16_000) head += text;
    else output.push(text);
    if (output.length > 200) output.shift();
    opts.onLog?.(text);
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);

  const address = `127.0.0.1:${port}`;
  try {
    await waitUntilOurs(child, address, ownerNamespace, opts.startTimeoutMs ?? 60_000);
  } catch (err) {
    child.kill('SIGKILL');
    const text = head + (output.length ? `\n[…]\n${output.join('')}` : '');
    if (/address already in use|bind:/i.test(text)) throw new PortConflict(address, text);
    // A crash at start (a panic while wiring its services) is retried on fresh ports like a taken
    // port: the dev server picks its internal ports itself, and another server may take one first.
    if (child.exitCode !== null || child.signalCode !== null) {
      if (/panic|fatal error/i.test(text)) throw new PortConflict(address, text, 'it crashed at start');
    }
    throw new Error(`Temporal dev server did not start on ${address}: ${String(err)}\n${text}`, {
      cause: err,
    });
  }
  return {
    pid: child.pid!,
    running: {
      address,
      port,
      namespace: opts.namespace,
      ownerNamespace,
      uiPort,
      uiUrl: uiPort ? `http://127.0.0.1:${uiPort}` : undefined,
      stop: () => stopChild(child, 10_000),
    },
  };
}

/** Waits until the server at `address` answers and has our marker namespace, while our child runs. */
async function waitUntilOurs(
  child: ChildProcess,
  address: string,
  ownerNamespace: string,
  timeoutMs: number,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let exited: string | undefined;
  child.once('exit', (code, signal) => (exited = `exited with ${code ?? signal}`));
  for (;;) {
    if (exited) throw new Error(exited);
    try {
      if (await isOwnServer(address, ownerNamespace)) {
        // The check ran against whoever holds the port; ours must still be alive to be the one.
        if (exited) throw new Error(exited);
        return;
      }
    } catch (err) {
      if (exited) throw new Error(exited, { cause: err });
      if (Date.now() > deadline) throw err;
    }
    if (Date.now() > deadline) throw new Error(`no server with namespace ${ownerNamespace} answered`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** True when the Temporal server at `address` has `ownerNamespace`; throws when none answers. */
export async function isOwnServer(address: string, ownerNamespace: string): Promise<boolean> {
  const connection = await Connection.connect({ address, connectTimeout: 1000 });
  try {
    await connection.workflowService.getSystemInfo({});
    try {
      await connection.workflowService.describeNamespace({ namespace: ownerNamespace });
      return true;
    } catch {
      return false; // NOT_FOUND: a server, but not ours (or ours still registering its namespaces)
    }
  } finally {
    await connection.close();
  }
}

function readPid(file: string): number | undefined {
  if (!existsSync(file)) return undefined;
  const pid = Number(readFileSync(file, 'utf8').trim());
  return Number.isInteger(pid) && pid > 0 ? pid : undefined;
}
