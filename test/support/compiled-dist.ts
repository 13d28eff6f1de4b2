// The project as `npm run build` compiles it (tsc, tsconfig.build.json), built once per test run for
// every file that runs the compiled code (compiled-build, the compose stack).
// The first caller builds under a lock (an atomic mkdir); the others wait for it. Inside the project,
// so the output resolves node_modules as dist/ does; global-teardown deletes it.
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const root = resolve(__dirname, '../..');
const WAIT_MS = 240_000;

/** The directory of this run's compiled build (global-setup names it; a lone run gets its own). */
function distDir(): string {
  return (process.env.CALLSYNC_TEST_DIST ??= join(root, '.scratch', `dist-${process.pid}`));
}

/** The compiled project's directory (its `cli/main.js` and so on), building it if no one has. */
export function compiledDist(): string {
  const dir = distDir();
  const done = join(dir, '.built');
  if (existsSync(done)) return dir;
  mkdirSync(join(root, '.scratch'), { recursive: true });
  try {
    mkdirSync(`${dir}.lock`);
  } catch {
    return awaitBuild(dir, done);
  }
  try {
    rmSync(dir, { recursive: true, force: true });
    const tsc = spawnSync(
      process.execPath,
      // tsc's own output, without its type check (the static checks run that): 8 s, not a minute of CPU.
      [
        join(root, 'node_modules/typescript/bin/tsc'),
        '-p',
        'tsconfig.build.json',
        '--noCheck',
        '--outDir',
        dir,
      ],
      { cwd: root, encoding: 'utf8' },
    );
    if (tsc.status !== 0) throw new Error(`npm run build (tsc) failed:\n${tsc.stdout}${tsc.stderr}`);
    // The build's workflow bundle: the one global-setup made from the same sources, else made here.
    const bundle = process.env.CALLSYNC_TEST_WORKFLOW_BUNDLE;
    if (bundle) copyFileSync(bundle, join(dir, 'workflow-bundle.js'));
    else {
      const made = spawnSync(
        process.execPath,
        ['--import', 'tsx', join(root, 'scripts/bundle-workflows.ts'), join(dir, 'workflow-bundle.js')],
        { cwd: root, encoding: 'utf8' },
      );
      if (made.status !== 0) throw new Error(`bundling the workflows failed:\n${made.stdout}${made.stderr}`);
    }
    writeFileSync(done, '');
    return dir;
  } finally {
    rmSync(`${dir}.lock`, { recursive: true, force: true });
  }
}

function awaitBuild(dir: string, done: string): string {
  const deadline = Date.now() + WAIT_MS;
  const pause = new Int32Array(new SharedArrayBuffer(4));
  while (!existsSync(done)) {
    if (!existsSync(`${dir}.lock`))
      throw new Error(`the build of ${dir} by another test file failed (see its output)`);
    if (Date.now() > deadline)
      throw new Error(`the build of ${dir} by another test file took over ${WAIT_MS} ms`);
    Atomics.wait(pause, 0, 0, 250);
  }
  return dir;
}

/** Deletes this run's build (global-teardown). */
export function removeCompiledDist(): void {
  const dir = process.env.CALLSYNC_TEST_DIST;
  if (dir) rmSync(dir, { recursive: true, force: true });
}
