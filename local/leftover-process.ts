// Processes an earlier `npm start` left running when it was killed (SIGKILL, a closed terminal):
// the embedded PostgreSQL and the Temporal dev server are separate processes that outlive it and
// keep holding the data directory, so the next start must stop them before starting its own.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';

/** The command line of a live process, or undefined when none runs with that pid (zombies count as gone). */
export function processCommandLine(pid: number): string | undefined {
  if (!Number.isInteger(pid) || pid <= 0) return undefined;
  const proc = `/proc/${pid}/cmdline`;
  if (existsSync('/proc/self/cmdline')) {
    try {
      // A zombie's cmdline is empty: it has exited and only waits to be reaped.
      const text = readFileSync(proc, 'utf8').split('\0').join(' ').trim();
      return text || undefined;
    } catch {
      return undefined;
    }
  }
  try {
    return execFileSync('ps', ['-o', 'args=', '-p', String(pid)], { encoding: 'utf8' }).trim() || undefined;
  } catch {
    return undefined; // ps exits 1 when no such process
  }
}

/**
 * Stops the process `pid` if it still runs and its command line contains `marker` (a path inside
 * our own data directory), so a pid reused by an unrelated program is never signalled. Sends
 * `signal`, waits up to `timeoutMs`, then SIGKILL. True when it stopped one.
 */
export async function stopLeftoverProcess(
  pid: number,
  marker: string,
  signal: NodeJS.Signals,
  timeoutMs = 20_000,
): Promise<boolean> {
  const cmd = processCommandLine(pid);
  if (!cmd || !cmd.includes(marker)) return false;
  const gone = () => !processCommandLine(pid)?.includes(marker);
  const waitGone = async (ms: number): Promise<boolean> => {
    const deadline = Date.now() + ms;
    while (!gone()) {
      if (Date.now() > deadline) return false;
      await new Promise((r) => setTimeout(r, 100));
    }
    return true;
  };
  try {
    process.kill(pid, signal);
  } catch {
    return gone();
  }
  if (await waitGone(timeoutMs)) return true;
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // exited meanwhile
  }
  if (!(await waitGone(5_000)))
    throw new Error(`process ${pid} (${marker}) left by an earlier run does not stop`);
  return true;
}
