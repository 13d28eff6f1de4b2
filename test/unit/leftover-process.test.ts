// stopLeftoverProcess stops a process a killed run left behind only when its command line names
// our data directory, so a reused pid of an unrelated program is never signalled.
import { spawn } from 'node:child_process';
import { processCommandLine, stopLeftoverProcess } from '../../local/leftover-process';

describe('stopLeftoverProcess', () => {
  it('stops a live process whose command line holds the marker, and leaves others alone', async () => {
    const marker = `/tmp/callsync-test-${process.pid}/temporal.db`;
    // A process whose command line names the marker, as the Temporal dev server's names its db file.
    const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)', marker], { stdio: 'ignore' });
    const pid = child.pid!;
    try {
      expect(processCommandLine(pid)).toContain(marker);
      expect(await stopLeftoverProcess(pid, '/somewhere/else/temporal.db', 'SIGTERM')).toBe(false);
      expect(processCommandLine(pid)).toContain(marker);

      expect(await stopLeftoverProcess(pid, marker, 'SIGTERM', 5_000)).toBe(true);
      expect(processCommandLine(pid)).toBeUndefined();
      expect(await stopLeftoverProcess(pid, marker, 'SIGTERM')).toBe(false);
    } finally {
      child.kill('SIGKILL');
    }
  });
});
