// A running `npm start` describes itself in <data dir>/local-stack.json (its pid and effective
// settings), so that commands in another shell reach the same stack without configuration, and
// know when it is not running: the file of a killed run stays behind, so its pid must be alive.
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CallsyncConfigInput } from '../config/schema';
import { processCommandLine } from './leftover-process';

export interface StackFile {
  /** The `callsync start` process. */
  pid: number;
  /** Settings other commands take as defaults: accounts, database URL, Temporal address. */
  config: Partial<CallsyncConfigInput>;
}

/** The file a running local stack describes itself in. */
export function localStackFile(dataDir: string): string {
  return join(dataDir, 'local-stack.json');
}

/** Writes the stack file (0600: it holds the local account's key and webhook secret). */
export function writeStackFile(dataDir: string, config: Partial<CallsyncConfigInput>): void {
  const body: StackFile = { pid: process.pid, config };
  writeFileSync(localStackFile(dataDir), `${JSON.stringify(body, null, 2)}\n`, { mode: 0o600 });
}

/** Removes the stack file (on stop). */
export function removeStackFile(dataDir: string): void {
  rmSync(localStackFile(dataDir), { force: true });
}

/** The running stack's file, or undefined when there is none or its process is gone (a killed run). */
export function readRunningStack(dataDir: string): StackFile | undefined {
  const file = localStackFile(dataDir);
  if (!existsSync(file)) return undefined;
  try {
    const value = JSON.parse(readFileSync(file, 'utf8')) as Partial<StackFile>;
    if (typeof value.pid !== 'number' || !value.config) return undefined;
    if (value.pid !== process.pid && !isCallsyncProcess(value.pid)) return undefined;
    return value as StackFile;
  } catch {
    return undefined;
  }
}

/**
 * Claims the data directory for this process (<data dir>/start.pid), so a second `npm start` on it
 * refuses rather than stopping the first one's PostgreSQL and Temporal as if a crash had left them.
 * A claim whose process is gone (a killed run) is taken over. Returns the release.
 */
export function claimDataDir(dataDir: string): () => void {
  const file = join(dataDir, 'start.pid');
  if (existsSync(file)) {
    const pid = Number(readFileSync(file, 'utf8').trim());
    if (Number.isInteger(pid) && pid !== process.pid && isCallsyncProcess(pid)) {
      throw new Error(
        `callsync start is already running on ${dataDir} (pid ${pid}); stop it first, or give this one another --data-dir`,
      );
    }
  }
  writeFileSync(file, `${process.pid}\n`);
  return () => rmSync(file, { force: true });
}

/**
 * True when `pid` runs the callsync CLI (a pid a dead run left may since belong to another program):
 * the TypeScript one (`cli/main.ts` through tsx), the compiled one (`dist/cli/main.js`, which
 * bin/callsync runs after `npm run build`), or bin/callsync itself; whatever the project folder's name.
 */
function isCallsyncProcess(pid: number): boolean {
  return /(^|[\s/])(cli\/main\.[jt]s|bin\/callsync)(\s|$)/.test(processCommandLine(pid) ?? '');
}
