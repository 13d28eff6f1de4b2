// The callsync services of docker-compose.yml run as compose would run them, without Docker: the
// file as `docker-compose config` resolves it (anchors merged, variables interpolated, required
// ones enforced), each service's entrypoint/command (or the image's CMD) and environment (the
// image's ENV under the service's), its volumes as directories, and its own ports, the way each
// container has a network namespace of its own. The other services' hostnames are mapped to local
// stand-ins (postgres:5432 → the test PostgreSQL, …) wherever a value names them.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import {
  cpSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { parse } from 'yaml';
import { compiledDist } from './compiled-dist';

export const root = resolve(__dirname, '../..');

export interface ComposeService {
  image?: string;
  build?: unknown;
  entrypoint?: string[] | string;
  command?: string[] | string;
  environment?: Record<string, string | number | boolean | null>;
  volumes?: string[];
  ports?: unknown[];
  healthcheck?: { test: string[] };
}

export interface ResolvedCompose {
  services: Record<string, ComposeService>;
}

/**
 * `docker-compose config` on the shipped file with exactly these variables (no .env, nothing of
 * this process's environment), parsed: the file as compose runs it. Throws compose's own message.
 */
export function composeConfig(vars: Record<string, string>): ResolvedCompose {
  const scratch = mkdtempSync(join(tmpdir(), 'callsync-compose-'));
  const envFile = join(scratch, 'empty.env');
  writeFileSync(envFile, '');
  const result = spawnSync(
    'docker-compose',
    ['--env-file', envFile, '-f', join(root, 'docker-compose.yml'), 'config'],
    { cwd: root, encoding: 'utf8', env: { PATH: process.env.PATH, HOME: scratch, ...vars }, timeout: 60_000 },
  );
  if (result.error)
    throw new Error(
      `docker-compose cannot run (${result.error.message}): bash scripts/debian-packages.sh installs Debian's docker-compose`,
    );
  if (result.status !== 0) throw new Error(`docker-compose config failed:\n${result.stderr}`);
  return parse(result.stdout) as ResolvedCompose;
}

/**
 * Runs the `.env` commands of docs/deployment.md (the ```sh block of "Deploying with docker-compose")
 * and reads the file.
 */
export function deploymentGuideEnv(): Record<string, string> {
  const guide = readFileSync(join(root, 'docs', 'deployment.md'), 'utf8');
  const start = guide.indexOf('## Deploying with docker-compose');
  if (start < 0) throw new Error('docs/deployment.md has no "Deploying with docker-compose" section');
  const section = guide.slice(start);
  const block = /```sh\n([\s\S]*?)```/.exec(section)?.[1];
  const commands = block && /^umask[\s\S]*?^EOF$/m.exec(block)?.[0];
  if (!commands)
    throw new Error('docs/deployment.md "Deploying with docker-compose" has no `cat > .env <<EOF` commands');
  const dir = mkdtempSync(join(tmpdir(), 'callsync-dotenv-'));
  const run = spawnSync('bash', ['-euc', commands], { cwd: dir, encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`docs/deployment.md's .env commands failed: ${run.stderr}`);
  const vars: Record<string, string> = {};
  for (const line of readFileSync(join(dir, '.env'), 'utf8').split('\n')) {
    const m = /^([A-Z0-9_]+)=(.*)$/.exec(line);
    if (m) vars[m[1]!] = m[2]!;
  }
  return vars;
}

/** The final stage of the Dockerfile: WORKDIR, ENV and CMD, as the image runs a service. */
function imageOf(): { workdir: string; env: Record<string, string>; cmd: string[] } {
  const dockerfile = readFileSync(join(root, 'Dockerfile'), 'utf8');
  const stage = dockerfile.slice(dockerfile.lastIndexOf('\nFROM '));
  const env: Record<string, string> = {};
  for (const m of stage.matchAll(/^ENV (\w+)=(\S+)$/gm)) env[m[1]!] = m[2]!;
  const cmd = /^CMD (\[.*\])$/m.exec(stage)?.[1];
  const workdir = /^WORKDIR (\S+)$/m.exec(stage)?.[1];
  if (!cmd || !workdir) throw new Error('Dockerfile: no CMD or WORKDIR in the final stage');
  return { workdir, env, cmd: JSON.parse(cmd) as string[] };
}

export interface Image {
  /** The image's WORKDIR on this machine: the project's files, bin/ and dist/ as the build leaves them. */
  app: string;
  scratch: string;
}

/**
 * The image's files: a directory inside the project (so dist/ resolves node_modules as in /app)
 * holding links to the project's files, a copy of bin/ (bin/callsync finds dist/ beside itself, as
 * in /app) and dist/ compiled by tsc as the Dockerfile's build stage does (once per test run).
 */
export function buildImage(): Image {
  mkdirSync(join(root, '.scratch'), { recursive: true });
  const scratch = mkdtempSync(join(root, '.scratch', 'compose-'));
  const app = join(scratch, 'app');
  mkdirSync(app);
  const own = new Set(['.git', '.scratch', '.data', 'dist', 'keys', 'bin', 'callsync.json', '.env']);
  for (const entry of readdirSync(root))
    if (!own.has(entry)) symlinkSync(join(root, entry), join(app, entry));
  cpSync(join(root, 'bin'), join(app, 'bin'), { recursive: true });
  symlinkSync(compiledDist(), join(app, 'dist'));
  return { app, scratch };
}

export interface StackOptions {
  compose: ResolvedCompose;
  image: Image;
  /** `service:port` → `host:port` of its stand-in, replaced in env values, arguments and mounted files. */
  hosts: Record<string, string>;
  /** Bind-mount sources (absolute, as compose resolves them) → the file to mount instead. */
  binds: Record<string, string>;
  /** A mounted file's text, rewritten for one container (its own ports), by container path. */
  rewrite?: (containerPath: string, text: string, ports: Map<number, number>) => string;
}

export interface Container {
  service: string;
  child: ChildProcess;
  /** stdout and stderr so far. */
  output(): string;
  exited: Promise<number | null>;
  /** The container's own listening ports → the free ports they got on this machine. */
  ports: Map<number, number>;
  /** Waits for `text` in the output; fails with the output when the process exits first or time runs out. */
  waitFor(text: string, timeoutMs?: number): Promise<void>;
}

/**
 * Starts one container of `service`; `ports` maps the container ports it listens on to free ones
 * here; `without` leaves variables of the service's environment out (to show what they are for).
 */
export function runService(
  opts: StackOptions,
  service: string,
  ports: Map<number, number> = new Map(),
  without: string[] = [],
): Container {
  const spec = opts.compose.services[service];
  if (!spec) throw new Error(`docker-compose.yml has no service ${service}`);
  const image = imageOf();
  const id = `${service}-${Math.random().toString(36).slice(2, 8)}`;
  const dir = join(opts.image.scratch, 'containers', id);
  mkdirSync(dir, { recursive: true });
  const hosts = (text: string) =>
    Object.entries(opts.hosts).reduce((t, [from, to]) => t.replaceAll(from, to), text);
  const portArg = (arg: string) => (ports.has(Number(arg)) ? String(ports.get(Number(arg))) : arg);
  // Container paths → paths here: the mounts first, then the working directory (the image's files).
  const mounts: [string, string][] = [];
  for (const volume of spec.volumes ?? []) {
    const [source, target] = volume.split(':') as [string, string];
    if (source.startsWith('/')) {
      const file = opts.binds[source] ?? source;
      const text = hosts(readFileSync(file, 'utf8'));
      const mounted = join(dir, 'mounts', target);
      mkdirSync(dirname(mounted), { recursive: true });
      writeFileSync(mounted, opts.rewrite ? opts.rewrite(target, text, ports) : text, { mode: 0o600 });
      mounts.push([target, mounted]);
    } else if (!target.startsWith(`${image.workdir}/`)) {
      const volumeDir = join(opts.image.scratch, 'volumes', source);
      mkdirSync(volumeDir, { recursive: true });
      mounts.push([target, volumeDir]);
    } else {
      // A named volume inside the workdir (keys:/app/keys): one directory every container shares.
      mkdirSync(join(opts.image.app, target.slice(image.workdir.length + 1)), {
        recursive: true,
        mode: 0o700,
      });
    }
  }
  const path = (value: string) => {
    for (const [target, here] of mounts)
      if (value.startsWith(target)) return here + value.slice(target.length);
    if (value.startsWith(`${image.workdir}/`))
      return join(opts.image.app, value.slice(image.workdir.length + 1));
    return value;
  };
  const list = (v: string[] | string | undefined) =>
    v === undefined ? undefined : Array.isArray(v) ? v : [v];
  const entrypoint = list(spec.entrypoint);
  const command = list(spec.command) ?? (entrypoint ? [] : image.cmd);
  // `docker-compose config` prints $$ (a literal $ in the file) escaped again; the container sees $.
  const argv = [...(entrypoint ?? []), ...command].map((a) => path(portArg(hosts(a.replaceAll('$$', '$')))));
  if (argv[0] === 'node') argv[0] = process.execPath;
  const env: NodeJS.ProcessEnv = {
    PATH: `${dirname(process.execPath)}:/usr/local/bin:/usr/bin:/bin`,
    HOME: dir,
    ...Object.fromEntries(Object.entries(image.env).map(([k, v]) => [k, path(v)])),
  };
  for (const [k, v] of Object.entries(spec.environment ?? {}))
    if (v !== null && !without.includes(k)) env[k] = path(hosts(String(v)));
  // A port the image or the service sets by variable (CALLSYNC_WORKER_HEALTH_PORT) is the container's
  // own, like those in its config file: moved to its free port here.
  for (const [k, v] of Object.entries(env))
    if (k.endsWith('_PORT') && v !== undefined && /^\d+$/.test(v)) env[k] = portArg(v);
  const child = spawn(argv[0]!, argv.slice(1), {
    cwd: opts.image.app,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let text = '';
  child.stdout.on('data', (c: Buffer) => (text += c.toString()));
  child.stderr.on('data', (c: Buffer) => (text += c.toString()));
  const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  return {
    service,
    child,
    output: () => text,
    exited,
    ports,
    async waitFor(wanted, timeoutMs = 120_000) {
      const deadline = Date.now() + timeoutMs;
      while (!text.includes(wanted)) {
        if (child.exitCode !== null || child.signalCode !== null || Date.now() > deadline)
          throw new Error(
            `${service}: no "${wanted}" (exit ${child.exitCode ?? child.signalCode}):\n${text.slice(-6000)}`,
          );
        await new Promise((r) => setTimeout(r, 200));
      }
    },
  };
}
