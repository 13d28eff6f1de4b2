// A data directory belongs to one `callsync start` at a time, and a stack file a killed run left
// behind does not count as a running stack.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { claimDataDir, localStackFile, readRunningStack, writeStackFile } from '../../local/stack-file';

/** A process running a script at `path` below a folder not named callsync (as a clone may be). */
function runScript(path: string): ChildProcess {
  const file = join(mkdtempSync(join(tmpdir(), 'clone-')), path);
  mkdirSync(join(file, '..'), { recursive: true });
  writeFileSync(file, 'setTimeout(() => {}, 60000);');
  return spawn(process.execPath, [file, 'start'], { stdio: 'ignore' });
}

async function stop(child: ChildProcess): Promise<void> {
  child.kill('SIGKILL');
  await new Promise((r) => child.once('exit', r));
}

describe('stack file and data directory claim', () => {
  it('refuses a data directory a live callsync start holds, and takes over a dead one’s', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'callsync-claim-'));
    const other = runScript('cli/main.ts');
    try {
      writeFileSync(join(dir, 'start.pid'), `${other.pid}\n`);
      expect(() => claimDataDir(dir)).toThrow(
        `callsync start is already running on ${dir} (pid ${other.pid})`,
      );
    } finally {
      await stop(other);
    }
    const release = claimDataDir(dir);
    expect(readFileSync(join(dir, 'start.pid'), 'utf8').trim()).toBe(String(process.pid));
    release();
  });

  it('reads a running stack’s settings, and ignores the file of a run that is gone', () => {
    const dir = mkdtempSync(join(tmpdir(), 'callsync-stackfile-'));
    expect(readRunningStack(dir)).toBeUndefined();
    writeStackFile(dir, { temporal: { address: '127.0.0.1:7233' } });
    expect(readRunningStack(dir)?.config).toEqual({ temporal: { address: '127.0.0.1:7233' } });
    // A killed run's file: its pid no longer runs callsync.
    writeFileSync(localStackFile(dir), JSON.stringify({ pid: 2 ** 22 + 1, config: {} }));
    expect(readRunningStack(dir)).toBeUndefined();
  });

  it('knows the compiled CLI’s stack from a folder of any name, and not another program’s', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'callsync-compiled-'));
    const compiled = runScript('dist/cli/main.js');
    const other = runScript('server.js');
    try {
      writeFileSync(localStackFile(dir), JSON.stringify({ pid: compiled.pid, config: { logLevel: 'info' } }));
      expect(readRunningStack(dir)?.pid).toBe(compiled.pid);
      writeFileSync(localStackFile(dir), JSON.stringify({ pid: other.pid, config: { logLevel: 'info' } }));
      expect(readRunningStack(dir)).toBeUndefined();
    } finally {
      await Promise.all([stop(compiled), stop(other)]);
    }
  });
});
