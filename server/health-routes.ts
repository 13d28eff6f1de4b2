// GET /healthz (the process answers: 200) and GET /readyz (it can do its job: 200, else 503 naming
// what is not ready) on the receiver's port, for load balancers, compose and Kubernetes probes.
// Neither needs a token: the bodies carry check names and error codes only (runtime/readiness.ts).
import type { FastifyInstance } from 'fastify';
import { readinessBody, type Readiness } from '../runtime/readiness';

export interface HealthRoutesOptions {
  /** Runs the readiness checks (server/index.ts: PostgreSQL, the inbox, the relay). */
  readiness: () => Promise<Readiness>;
}

/** Registers GET /healthz and GET /readyz. */
export function registerHealthRoutes(app: FastifyInstance, opts: HealthRoutesOptions): void {
  app.get('/healthz', async (_req, reply) =>
    reply.header('cache-control', 'no-store').send({ status: 'ok' }),
  );
  app.get('/readyz', async (_req, reply) => {
    const r = await opts.readiness();
    return reply
      .code(r.ready ? 200 : 503)
      .header('cache-control', 'no-store')
      .send(readinessBody(r));
  });
}
