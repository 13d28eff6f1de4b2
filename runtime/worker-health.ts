// A worker's /healthz and /readyz on a port of their own (worker.healthPort; a worker has no HTTP
// server otherwise). The port answers before the worker has connected, so /healthz says the process
// is alive while /readyz says 503 until the worker polls its queues.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { NativeConnection } from '@temporalio/worker';
import type pg from 'pg';
import { pingDatabase } from '../connectors/postgres';
import { checkReadiness, NotReady, readinessBody, type Readiness, type ReadinessCheck } from './readiness';
import type { WorkerGroup } from './worker';

/** What a running worker's readiness is made of; absent parts (still starting) are not ready. */
export interface WorkerParts {
  worker?: WorkerGroup | undefined;
  connection?: NativeConnection | undefined;
  pool?: Pick<pg.Pool, 'query'> | undefined;
}

function starting(part: unknown): asserts part {
  if (part === undefined) throw new NotReady('starting');
}

/** The worker's checks: Temporal answers, every worker of the group polls, PostgreSQL answers. */
export function workerReadinessChecks(parts: WorkerParts, timeoutMs: number): ReadinessCheck[] {
  return [
    {
      name: 'temporal',
      probe: async () => {
        const connection = parts.connection;
        starting(connection);
        await connection.withDeadline(Date.now() + timeoutMs, () =>
          connection.workflowService.getSystemInfo({}),
        );
      },
    },
    {
      name: 'worker',
      probe: async () => {
        starting(parts.worker);
        const states = parts.worker.workers.map((w) => w.getState());
        if (!states.every((s) => s === 'RUNNING')) throw new NotReady(`not polling (${states.join(', ')})`);
      },
    },
    {
      name: 'postgres',
      probe: async () => {
        starting(parts.pool);
        await pingDatabase(parts.pool);
      },
    },
  ];
}

/** Serves GET /healthz and /readyz on host:port (0: a free one); resolves once listening. */
export async function startHealthServer(
  port: number,
  host: string,
  readiness: () => Promise<Readiness>,
): Promise<{ url: string; port: number; close(): Promise<void> }> {
  const json = { 'content-type': 'application/json', 'cache-control': 'no-store' };
  const server: Server = createServer((req, res) => {
    const path = req.url?.split('?')[0];
    if (req.method !== 'GET' || (path !== '/healthz' && path !== '/readyz')) {
      res.writeHead(404, json).end(JSON.stringify({ error: 'Not found' }));
      return;
    }
    if (path === '/healthz') {
      res.writeHead(200, json).end(JSON.stringify({ status: 'ok' }));
      return;
    }
    readiness().then(
      (r) => res.writeHead(r.ready ? 200 : 503, json).end(JSON.stringify(readinessBody(r))),
      () => res.writeHead(503, json).end(JSON.stringify({ status: 'not ready' })),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, resolve);
  });
  const bound = (server.address() as AddressInfo).port;
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${bound}`,
    port: bound,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** Readiness of a worker's parts, with each failure logged in full (the answer carries codes only). */
export function workerReadiness(
  parts: WorkerParts,
  onFailure: (name: string, err: unknown) => void,
  timeoutMs = 2_000,
): () => Promise<Readiness> {
  const checks = workerReadinessChecks(parts, timeoutMs);
  return () => checkReadiness(checks, { timeoutMs, onFailure });
}
