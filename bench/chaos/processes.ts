// The callsync processes of a chaos run, each started through the product's own command
// (`bin/callsync worker`, `bin/callsync server`) with the run's config file, its stdout and stderr
// kept in a log file of its own (every log is searched for secrets at the end).
import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, type WriteStream } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

const ROOT = resolve(__dirname, '..', '..');

export interface CallsyncProcess {
  name: string;
  child: ChildProcess;
  logFile: string;
  /** Resolves with how the process ended: its exit code, or the signal that killed it. */
  ended: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Set when the harness ends it (a kill or a stop); a process that ends otherwise crashed. */
  endedByHarness: boolean;
}

export interface SpawnOptions {
  /** e.g. 'worker-a#2' (the log file is named after it). */
  name: string;
  /** The command's arguments, e.g. ['worker'] or ['server', '--port', '8123']. */
  args: string[];
  configFile: string;
  dataDir: string;
  logDir: string;
  /** Text in the output that says the process is ready. */
  readyText: string;
  timeoutMs: number;
}

/**
 * The environment of a callsync process: this run's config file only (no platform, Temporal or
 * database settings of the caller's shell), and this Node first on PATH (bin/callsync needs ≥ 22).
 */
function processEnv(configFile: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (k.startsWith('PLATFORM_') || k.startsWith('TEMPORAL_') || k === 'DATABASE_URL') continue;
    env[k] = v;
  }
  return {
    ...env,
    CALLSYNC_CONFIG: configFile,
    CALLSYNC_LOG_LEVEL: 'info',
    PATH: `${dirname(process.execPath)}:${process.env.PATH ?? ''}`,
  };
}

/** Starts `bin/callsync <args>` and resolves once its output shows `readyText`. */
export async function spawnCallsync(opts: SpawnOptions): Promise<CallsyncProcess> {
  const logFile = join(opts.logDir, `${opts.name.replace(/[^a-z0-9-]+/gi, '-')}.log`);
  const log: WriteStream = createWriteStream(logFile, { flags: 'a' });
  const child = spawn(join(ROOT, 'bin', 'callsync'), [...opts.args, '--data-dir', opts.dataDir], {
    cwd: ROOT,
    env: processEnv(opts.configFile),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let seen = '';
  const take = (chunk: Buffer): void => {
    log.write(chunk);
    if (seen.length < 1_000_000) seen += chunk.toString();
  };
  child.stdout.on('data', take);
  child.stderr.on('data', take);
  const ended = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((done) =>
    child.once('exit', (code, signal) => {
      log.end();
      done({ code, signal });
    }),
  );
  const deadline = Date.now() + opts.timeoutMs;
  while (!seen.includes(opts.readyText)) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(
        `${opts.name} exited (${child.exitCode ?? child.signalCode}) before it was ready:\n${seen.slice(-3000)}`,
      );
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`${opts.name} was not ready within ${opts.timeoutMs} ms:\n${seen.slice(-3000)}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return { name: opts.name, child, logFile, ended, endedByHarness: false };
}

/** SIGKILL; resolves with the signal that ended the process. */
export async function killHard(p: CallsyncProcess): Promise<NodeJS.Signals | null> {
  p.endedByHarness = true;
  p.child.kill('SIGKILL');
  return (await p.ended).signal;
}

/** SIGTERM (the process drains and exits), SIGKILL after `graceMs`; resolves with its exit code. */
export async function stopGracefully(p: CallsyncProcess, graceMs = 30_000): Promise<number | null> {
  if (p.child.exitCode === null && p.child.signalCode === null) p.endedByHarness = true;
  if (p.child.exitCode !== null || p.child.signalCode !== null) return (await p.ended).code;
  p.child.kill('SIGTERM');
  const timer = setTimeout(() => p.child.kill('SIGKILL'), graceMs);
  const { code } = await p.ended;
  clearTimeout(timer);
  return code;
}
