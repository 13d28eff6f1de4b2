// The health checks the image and compose run, run here as written (node bin/healthcheck.mjs …) against
// a health endpoint that is ready, then not: exit 0, then 1 with the 503 body on stderr. The ports
// they name are the ones the server and worker listen on in the image and compose.
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { parse } from 'yaml';
import type { Readiness } from '../../runtime/readiness';
import { startHealthServer } from '../../runtime/worker-health';

const root = join(__dirname, '..', '..');
const read = (file: string) => readFileSync(join(root, file), 'utf8');
const run = promisify(execFile);

interface Service {
  command?: string[];
  healthcheck?: { test: string[] };
}

/** Runs a health check's argv (node → this Node) with `env`; resolves with its exit code and stderr. */
async function exitOf(
  argv: string[],
  env: NodeJS.ProcessEnv = {},
): Promise<{ code: number; stderr: string }> {
  const [cmd, ...args] = argv;
  expect(cmd).toBe('node');
  try {
    await run(process.execPath, args, { cwd: root, env: { ...process.env, ...env }, timeout: 15_000 });
    return { code: 0, stderr: '' };
  } catch (err) {
    const e = err as { code?: number; stderr?: string };
    return { code: e.code ?? -1, stderr: e.stderr ?? '' };
  }
}

describe('health check commands of the image and compose', () => {
  let ready = true;
  const readiness = async (): Promise<Readiness> =>
    ready
      ? { ready: true, checks: { postgres: 'ok' }, failing: [] }
      : { ready: false, checks: { postgres: 'ECONNREFUSED' }, failing: ['postgres'] };
  let health: Awaited<ReturnType<typeof startHealthServer>>;

  beforeAll(async () => {
    health = await startHealthServer(0, '127.0.0.1', readiness);
  });
  afterAll(() => health.close());
  beforeEach(() => (ready = true));

  it("the image's HEALTHCHECK asks the worker's /readyz on CALLSYNC_WORKER_HEALTH_PORT", async () => {
    const dockerfile = read('Dockerfile');
    const line = /^HEALTHCHECK .* CMD (\[.*\])$/m.exec(dockerfile);
    expect(line).not.toBeNull();
    const argv = JSON.parse(line![1]!) as string[];
    expect(dockerfile).toMatch(/^ENV CALLSYNC_WORKER_HEALTH_PORT=8789$/m);
    const env = { CALLSYNC_WORKER_HEALTH_PORT: String(health.port) };
    expect((await exitOf(argv, env)).code).toBe(0);
    ready = false;
    const down = await exitOf(argv, env);
    expect(down.code).toBe(1);
    expect(down.stderr).toContain('503');
    expect(down.stderr).toContain('"failing":["postgres"]');
  });

  it("compose's server and worker checks ask their own /readyz", async () => {
    const services = (parse(read('docker-compose.yml')) as { services: Record<string, Service> }).services;
    const server = services.server!;
    const worker = services.worker!;
    // The server listens where its check asks; the worker on the image's CALLSYNC_WORKER_HEALTH_PORT.
    const port = server.command![server.command!.indexOf('--port') + 1];
    const expected: [Service, string][] = [
      [server, `http://127.0.0.1:${port}/readyz`],
      [worker, 'http://127.0.0.1:8789/readyz'],
    ];
    for (const [service, url] of expected) {
      const argv = service.healthcheck!.test;
      expect(argv.slice(0, 3)).toEqual(['CMD', 'node', 'bin/healthcheck.mjs']);
      expect(argv[3]).toBe(url);
      const here = [...argv.slice(1, 3), url.replace(/:\d+\//, `:${health.port}/`)];
      ready = true;
      expect((await exitOf(here)).code).toBe(0);
      ready = false;
      expect((await exitOf(here)).code).toBe(1);
    }
  });

  it('fails when nothing listens', async () => {
    const { code, stderr } = await exitOf(['node', 'bin/healthcheck.mjs', 'http://127.0.0.1:1/readyz']);
    expect(code).toBe(1);
    expect(stderr).toContain('http://127.0.0.1:1/readyz');
  });
});
