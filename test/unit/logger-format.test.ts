// Logs are readable lines on a terminal and JSON lines on a pipe, secrets redacted in both. The
// terminal case runs the logger under a pseudo-terminal (python3's pty module, which the project
// already needs for the Temporal CLI).
import { spawnSync } from 'node:child_process';
import { join, resolve } from 'node:path';

const root = resolve(__dirname, '../..');
const script = `require(${JSON.stringify(join(root, 'lib/logger.ts'))}).createLogger({ name: 't' }).info({ apiKey: 'sekrit-key' }, 'hello there')`;
const node = [process.execPath, '--require', join(root, 'node_modules/tsx/dist/cjs/index.cjs'), '-e', script];

describe('createLogger', () => {
  it('writes JSON lines when stderr is a pipe', () => {
    const run = spawnSync(node[0]!, node.slice(1), { encoding: 'utf8' });
    const line = JSON.parse(run.stderr.trim()) as Record<string, unknown>;
    expect(line).toMatchObject({ level: 30, msg: 'hello there', apiKey: '[redacted]' });
  });

  it('writes readable lines when stderr is a terminal', () => {
    const pty = `import pty, sys; sys.exit(pty.spawn(${JSON.stringify(node)}) >> 8)`;
    const run = spawnSync('python3', ['-c', pty], { encoding: 'utf8' });
    const text = run.stdout.replace(/\x1b\[[0-9;]*m/g, ''); // eslint-disable-line no-control-regex
    expect(run.status).toBe(0);
    expect(text).toMatch(/INFO.*hello there/);
    expect(text).not.toMatch(/"level"/);
    expect(text).not.toContain('sekrit-key');
  });
});
