// The compiled project (npm run build, as the Docker image and bin/callsync run it): tsc's output
// runs without tsx, the CLI answers, and code that finds project files from its own place (the
// Temporal CLI installer) finds them from dist/ too.
import { execFileSync } from 'node:child_process';
import { join, resolve } from 'node:path';
import { compiledDist } from '../support/compiled-dist';

jest.setTimeout(180_000);

const root = resolve(__dirname, '../..');
let out: string;

beforeAll(() => {
  out = compiledDist();
}, 300_000);

const run = (args: string[], env: NodeJS.ProcessEnv = {}) =>
  execFileSync(process.execPath, args, { cwd: root, encoding: 'utf8', env: { ...process.env, ...env } });

it('the compiled CLI runs without tsx', () => {
  const help = run([join(out, 'cli/main.js'), '--help']);
  expect(help).toMatch(/^Usage: callsync/);
  expect(help).toContain('worker');
  // No TypeScript loader in the process: it ran the emitted JavaScript.
  const loaders = run([
    '-e',
    `require(${JSON.stringify(join(out, 'cli/main.js'))}.replace(/main\\.js$/, 'commands/worker.js'));` +
      'console.log(Object.keys(require.cache).filter((f) => /node_modules\\/tsx\\//.test(f)).length)',
  ]);
  expect(loaders.trim()).toBe('0');
});

it('the compiled Temporal CLI lookup finds the installer from dist/', () => {
  const path = run([
    '-e',
    `require(${JSON.stringify(join(out, 'local/temporal-cli.js'))}).temporalCliPath().then((p) => console.log(p))`,
  ]);
  expect(path.trim()).toMatch(/temporal$/);
});

it('the compiled data converter loads its failure converter (encoded failure messages) from dist/', () => {
  const printed = run([
    '-e',
    `const m = require(${JSON.stringify(join(out, 'runtime/temporal-encryption.js'))});` +
      'const { failureConverter } = require(m.FAILURE_CONVERTER_PATH);' +
      'console.log(m.FAILURE_CONVERTER_PATH, failureConverter.options.encodeCommonAttributes)',
  ]);
  expect(printed.trim()).toBe(`${join(out, 'contracts/failure-converter.js')} true`);
});
