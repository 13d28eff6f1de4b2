// A data directory belongs to one `callsync start` at a time, and a stack file a killed run left
// behind does not count as a running stack.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { claimDataDir, localStackFile, readRunningStack, writeStackFile } from '../../local/stack-file';

describe('stack file and data directory claim', () => {
  it('refuses a data directory a live callsync start holds, and takes over a dead one’s', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'callsync-claim-'));
    const other = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)', 'callsync-start'], {
      stdio: 'ignore',
    });
    try {
      writeFileSync(join(dir, 'start.pid'), `${other.pid}\n`);
      expect(() => claimDataDir(dir)).toThrow(
        `callsync start is already running on ${dir} (pid ${other.pid})`,
      );
    } finally {
      other.kill('SIGKILL');
      await new Promise((r) => other.once('exit', r));
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
});
