// `npx callsync …`, as README, docs/local-stack.md and the start banner recommend it: from the project folder, and
// through a symlink on PATH as `npm link` (and npm's node_modules/.bin) makes one. With no stack
// running, `status` says so and how to start one, and exits 1.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cliEnv, root } from './cli-process';

jest.setTimeout(120_000);

describe('npx callsync', () => {
  const scratch = mkdtempSync(join(tmpdir(), 'callsync-npx-'));
  // Node 22+ with its npm and npx first on PATH, as README and docs/local-stack.md have a user put it.
  const nodeDir = execFileSync('bash', [join(root, 'scripts/node.sh')], { encoding: 'utf8' }).trim();
  const env = cliEnv({
    PATH: `${nodeDir}:${process.env.PATH ?? ''}`,
    CALLSYNC_DATA_DIR: join(scratch, 'data'),
    npm_config_yes: 'true',
    npm_config_update_notifier: 'false',
  });
  const run = (cmd: string, args: string[], cwd: string, extraPath = '') =>
    spawnSync(cmd, args, {
      cwd,
      env: { ...env, PATH: `${extraPath}${env.PATH}` },
      encoding: 'utf8',
      timeout: 90_000,
    });

  it('runs from the project folder', () => {
    const npx = join(nodeDir, 'npx');
    const help = run(npx, ['--no-install', 'callsync', '--help'], root);
    expect(help.stderr).not.toMatch(/callsync: /);
    expect(help.status).toBe(0);
    expect(help.stdout).toMatch(/Usage: callsync/);
    expect(help.stdout).toMatch(/status/);
  });

  it('runs through a symlink on PATH (npm link), from another folder, and status says the stack is down', () => {
    const bin = join(scratch, 'bin');
    spawnSync('mkdir', ['-p', bin]);
    symlinkSync(join(root, 'bin', 'callsync'), join(bin, 'callsync'));
    const elsewhere = mkdtempSync(join(tmpdir(), 'callsync-cwd-'));

    const help = run('callsync', ['--help'], elsewhere, `${bin}:`);
    expect(help.stderr).toBe('');
    expect(help.status).toBe(0);
    expect(help.stdout).toMatch(/Usage: callsync/);

    const status = run('callsync', ['status'], elsewhere, `${bin}:`);
    expect(status.status).toBe(1);
    expect(status.stdout).toBe('');
    expect(status.stderr).toMatch(/the local stack is not running/);
    expect(status.stderr).toMatch(/npm start/);
    expect(status.stderr).not.toMatch(/undefined/);
  });
});
