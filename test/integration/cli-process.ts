// Runs `callsync` as a user does, in a child process: `start` until its banner, other commands to
// completion. The environment is cleaned of platform, Temporal and config settings, so a test
// gets the local stack unless it says otherwise.
import { spawn, spawnSync, type ChildProcess, type SpawnSyncReturns } from 'node:child_process';
import { join, resolve } from 'node:path';

export const root = resolve(__dirname, '../..');

/**
 * The command line that runs the CLI with this test's Node: from source through tsx, or the compiled
 * build in `dist` (test/support/compiled-dist.ts compiledDist()) when given.
 */
export function cliCommand(args: string[], dist?: string): [string, string[]] {
  if (dist) return [process.execPath, [join(dist, 'cli/main.js'), ...args]];
  // tsx by absolute path: --require resolves from the working directory, which a test may change.
  return [
    process.execPath,
    ['--require', join(root, 'node_modules/tsx/dist/cjs/index.cjs'), join(root, 'cli/main.ts'), ...args],
  ];
}

/** process.env without PLATFORM_*, TEMPORAL_*, CALLSYNC_CONFIG and DATABASE_URL, plus `extra`. */
export function cliEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const k of Object.keys(env)) if (k.startsWith('PLATFORM_') || k.startsWith('TEMPORAL_')) delete env[k];
  delete env.CALLSYNC_CONFIG;
  delete env.DATABASE_URL;
  return { ...env, ...extra };
}

export interface StartedCli {
  child: ChildProcess;
  stdout(): string;
  stderr(): string;
  /** Resolves with the exit code (null when killed by a signal). */
  exited: Promise<number | null>;
  /** Waits for the banner; fails with the output when the process exits first or it takes too long. */
  banner(timeoutMs?: number): Promise<string>;
  /** The banner line's value for a label, e.g. bannerValue('warehouse'). */
  bannerValue(label: string): string;
}

/** Where and how startCli runs the CLI: the working directory (default the project) and the build. */
export interface CliRunOptions {
  cwd?: string;
  /** Run the compiled build in this directory (compiledDist()) instead of the sources through tsx. */
  dist?: string;
}

/** Spawns `callsync start …` (or any long-running command). */
export function startCli(args: string[], env: NodeJS.ProcessEnv, opts: CliRunOptions = {}): StartedCli {
  const [cmd, argv] = cliCommand(args, opts.dist);
  // A process group of its own, like a shell's foreground job, so stopCli can signal the whole
  // group as a terminal's Ctrl-C does.
  const child = spawn(cmd, argv, {
    cwd: opts.cwd ?? root,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr.on('data', (c: Buffer) => (err += c.toString()));
  const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  return {
    child,
    stdout: () => out,
    stderr: () => err,
    exited,
    async banner(timeoutMs = 90_000) {
      const deadline = Date.now() + timeoutMs;
      while (!out.includes('callsync is running')) {
        if (child.exitCode !== null || child.signalCode !== null || Date.now() > deadline) {
          throw new Error(
            `no banner; exit ${child.exitCode ?? child.signalCode}\nstdout:\n${out}\nstderr:\n${err.slice(-4000)}`,
          );
        }
        await new Promise((r) => setTimeout(r, 200));
      }
      return out;
    },
    bannerValue(label: string) {
      const line = out.split('\n').find((l) => l.trimStart().startsWith(`${label} `));
      if (!line) throw new Error(`no "${label}" line in the banner:\n${out}`);
      return line.trim().slice(label.length).trim();
    },
  };
}

/**
 * Sends `signal` to the command's process group, as a terminal sends Ctrl-C to every process of its
 * foreground job (children that must stop in order live in groups of their own), and waits for the
 * exit code, failing after `timeoutMs`.
 */
export async function stopCli(
  cli: StartedCli,
  signal: NodeJS.Signals,
  timeoutMs = 60_000,
): Promise<number | null> {
  process.kill(-cli.child.pid!, signal);
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<'timeout'>((r) => (timer = setTimeout(() => r('timeout'), timeoutMs)));
  const code = await Promise.race([cli.exited, timeout]);
  clearTimeout(timer);
  if (code === 'timeout') {
    cli.child.kill('SIGKILL');
    throw new Error(
      `callsync did not exit within ${timeoutMs} ms of ${signal}\n${cli.stderr().slice(-4000)}`,
    );
  }
  return code;
}

/**
 * Runs a command to completion without blocking this process (as runCli's spawnSync does), so a
 * worker in the test's own process keeps serving the workflows the command starts; kills it after
 * `timeoutMs`.
 */
export async function finishCli(
  args: string[],
  env: NodeJS.ProcessEnv,
  opts: CliRunOptions & { timeoutMs?: number } = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const cli = startCli(args, env, opts);
  const timer = setTimeout(() => cli.child.kill('SIGKILL'), opts.timeoutMs ?? 90_000);
  // 'close', not 'exit': the pipes may still hold the last lines when the process exits.
  const code = await new Promise<number | null>((r) => cli.child.once('close', r));
  clearTimeout(timer);
  return { code, stdout: cli.stdout(), stderr: cli.stderr() };
}

/** Runs a short command to completion. */
export function runCli(args: string[], env: NodeJS.ProcessEnv, cwd = root): SpawnSyncReturns<string> {
  const [cmd, argv] = cliCommand(args);
  return spawnSync(cmd, argv, { cwd, env, encoding: 'utf8', timeout: 60_000 });
}
