// After a crash (SIGKILL of `callsync start`), the embedded PostgreSQL and the Temporal dev server
// it started keep running on its data directory. The next start stops them, starts cleanly, and
// gives the warehouse the same port as before, so a saved connection string keeps working.
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { processCommandLine } from '../../local/leftover-process';
import { cliEnv, startCli, stopCli, type StartedCli } from './cli-process';

jest.setTimeout(180_000);

describe('callsync start after a crash', () => {
  const dataDir = join(mkdtempSync(join(tmpdir(), 'callsync-crash-')), 'data');
  const env = cliEnv({ CALLSYNC_DATA_DIR: dataDir, CALLSYNC_LOG_LEVEL: 'info' });
  const args = ['start', '--emulator-cdrs', '300'];
  const running: StartedCli[] = [];

  afterAll(async () => {
    for (const cli of running)
      if (cli.child.exitCode === null) await stopCli(cli, 'SIGINT').catch(() => undefined);
  });

  it('stops what the killed run left, starts cleanly on the same warehouse port, and exits 0 on SIGINT', async () => {
    const first = startCli(args, env);
    running.push(first);
    await first.banner();
    const warehouse = first.bannerValue('warehouse');
    expect(warehouse).toMatch(/^postgres:\/\/callsync:[^@]+@127\.0\.0\.1:\d+\/callsync$/);
    const pgPid = Number(readFileSync(join(dataDir, 'postgres', 'postmaster.pid'), 'utf8').split('\n')[0]);
    const temporalPid = Number(readFileSync(join(dataDir, 'temporal.pid'), 'utf8'));

    first.child.kill('SIGKILL');
    await first.exited;
    // The crash left PostgreSQL running on this data directory. (Temporal may stop by itself when
    // it next writes to its closed output pipe; if it is still there, the next start stops it.)
    expect(processCommandLine(pgPid)).toContain(join(dataDir, 'postgres'));

    const second = startCli(args, env);
    running.push(second);
    await second.banner();
    expect(second.stderr()).not.toMatch(/callsync: /);
    expect(second.bannerValue('warehouse')).toBe(warehouse);
    expect(second.stderr()).toContain(`stopped PostgreSQL (pid ${pgPid})`);
    expect(processCommandLine(pgPid)).toBeUndefined();
    expect(processCommandLine(temporalPid)).toBeUndefined();

    expect(await stopCli(second, 'SIGINT')).toBe(0);
    expect(existsSync(join(dataDir, 'local-stack.json'))).toBe(false);
    expect(existsSync(join(dataDir, 'temporal.pid'))).toBe(false);
    // PostgreSQL was shut down cleanly (it removes its pid file), not left running.
    expect(existsSync(join(dataDir, 'postgres', 'postmaster.pid'))).toBe(false);
  });
});
