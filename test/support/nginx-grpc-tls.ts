// Debian's nginx as a TLS (and mTLS) front of a plaintext gRPC server, like a Temporal cluster's
// ingress: it terminates TLS, requires a client certificate signed by the test CA, optionally checks
// a bearer API key, and proxies HTTP/2 gRPC to the dev server (which has no TLS of its own). Runs
// unprivileged-style: its own prefix, config, pid and logs in a temporary directory, one process
// (master_process off), so it never switches users and stops with its child process.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stopChild } from '../../lib/child-process';
import { freePort } from '../../lib/free-port';

export const NGINX_BIN = process.env.CALLSYNC_NGINX ?? '/usr/sbin/nginx';

export interface NginxGrpcTlsOptions {
  /** host:port of the plaintext gRPC upstream. */
  upstream: string;
  serverCert: string;
  serverKey: string;
  /** CA whose client certificates are accepted; client certificates are required when given. */
  clientCa?: string;
  /** Only requests with `authorization: Bearer <apiKey>` pass; others get gRPC UNAUTHENTICATED. */
  apiKey?: string;
}

export interface RunningNginx {
  /** 127.0.0.1:<port> of the TLS listener. */
  address: string;
  port: number;
  stop(): Promise<void>;
  /** nginx's error log so far (for failure messages). */
  errorLog(): string;
}

function config(dir: string, port: number, o: NginxGrpcTlsOptions): string {
  const temp = (name: string) => `${name}_temp_path ${join(dir, name)};`;
  const mtls = o.clientCa ? `ssl_client_certificate ${o.clientCa};\n      ssl_verify_client on;` : '';
  // grpc status 16 (UNAUTHENTICATED) in a trailers-only answer, as Temporal Cloud answers a bad key.
  const keyCheck = o.apiKey
    ? `if ($http_authorization != "Bearer ${o.apiKey}") {
          add_header grpc-status 16 always;
          add_header grpc-message "API key refused" always;
          add_header content-type application/grpc always;
          return 200;
        }`
    : '';
  return `
daemon off;
master_process off;
worker_processes 1;
pid ${join(dir, 'nginx.pid')};
error_log ${join(dir, 'error.log')} info;
events { worker_connections 256; }
http {
  access_log ${join(dir, 'access.log')};
  ${['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map(temp).join('\n  ')}
  server {
    listen 127.0.0.1:${port} ssl http2;
    ssl_certificate ${o.serverCert};
    ssl_certificate_key ${o.serverKey};
    ${mtls}
    location / {
      ${keyCheck}
      grpc_pass grpc://${o.upstream};
      grpc_read_timeout 300s;
      grpc_send_timeout 300s;
    }
  }
}
`;
}

async function listening(port: number, child: ChildProcess, deadline: number): Promise<void> {
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`nginx exited with ${child.exitCode}`);
    const ok = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (ok) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('nginx did not listen within 10 s');
}

/** Starts nginx on a free port with a config of its own; fails saying how to install it when missing. */
export async function startNginxGrpcTls(opts: NginxGrpcTlsOptions): Promise<RunningNginx> {
  if (!existsSync(NGINX_BIN)) {
    throw new Error(
      `this test needs nginx at ${NGINX_BIN}: apt-get install nginx (scripts/debian-packages.sh, run by .ci/run), or set CALLSYNC_NGINX`,
    );
  }
  const dir = mkdtempSync(join(tmpdir(), 'callsync-nginx-'));
  mkdirSync(join(dir, 'logs'));
  const port = await freePort();
  const conf = join(dir, 'nginx.conf');
  writeFileSync(conf, config(dir, port, opts));
  const child = spawn(NGINX_BIN, ['-p', dir, '-c', conf, '-e', join(dir, 'error.log')], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  const errorLog = () => {
    const file = join(dir, 'error.log');
    return stderr + (existsSync(file) ? readFileSync(file, 'utf8') : '');
  };
  try {
    await listening(port, child, Date.now() + 10_000);
  } catch (err) {
    await stopChild(child, 2000);
    throw new Error(`${(err as Error).message}: ${errorLog()}`, { cause: err });
  }
  return {
    address: `127.0.0.1:${port}`,
    port,
    errorLog,
    stop: () => stopChild(child, 5000),
  };
}
