// The worker process of bench:backfill and bench:reports, started as a deployment starts it: the
// project compiled to JavaScript (`npm run build`, dist/), two malloc arenas, the worker's heap
// flags. bin/callsync and the image run dist/ the same way; tsx compiling TypeScript at load cost a
// worker about 40 MB of resident memory (runtime/worker.ts at rest: 184 MB through tsx, 144 MB
// compiled).
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { join, resolve } from 'node:path';
import { WORKER_NODE_FLAGS } from '../runtime/worker';

const ROOT = resolve(__dirname, '..');

/** Compiles the project into dist/ (tsc -p tsconfig.build.json); throws with tsc's output on errors. */
export function buildDist(log: (message: string) => void): void {
  log('compiling to dist/ (npm run build)');
  execFileSync(
    process.execPath,
    [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.build.json'],
    {
      cwd: ROOT,
      stdio: ['ignore', 'inherit', 'inherit'],
    },
  );
}

/**
 * Starts dist/bench/worker-process.js (build first) with `env`; BENCH_WORKER_NODE_ARGS adds node
 * flags (e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof" to profile the worker).
 */
export function spawnCompiledWorker(env: NodeJS.ProcessEnv): ChildProcess {
  const extra = (process.env.BENCH_WORKER_NODE_ARGS ?? '').split(' ').filter(Boolean);
  return spawn(
    process.execPath,
    [...WORKER_NODE_FLAGS, ...extra, join(ROOT, 'dist/bench/worker-process.js')],
    {
      cwd: ROOT,
      env: { ...process.env, MALLOC_ARENA_MAX: process.env.MALLOC_ARENA_MAX ?? '2', ...env },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
}
