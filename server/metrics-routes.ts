// GET /metrics on the receiver's port, behind a bearer token (the port is public): the process's
// callsync_* metrics in Prometheus text format. Gauges read from the database (inbox backlog, relay
// lag) are refreshed at each scrape, so they cost nothing between. Without a token the server serves
// them on a port of its own instead (runtime/metrics-server.ts, metrics.serverPort).
import type { FastifyInstance } from 'fastify';
import type { CallsyncMetrics } from '../lib/metrics';
import type { Logger } from '../lib/logger';
import { bearerIs } from '../runtime/metrics-server';
import { errorBody } from './webhook-routes';

export interface MetricsRoutesOptions {
  metrics: CallsyncMetrics;
  /** Sets gauges that are read on demand (a failure is logged; the rest is still served). */
  beforeScrape?: () => Promise<void>;
  logger: Logger;
  /** Bearer token every scrape must carry (metrics.token). */
  token: string;
}

/** Registers GET /metrics. */
export function registerMetricsRoutes(app: FastifyInstance, opts: MetricsRoutesOptions): void {
  app.get('/metrics', async (req, reply) => {
    if (!bearerIs(req.headers.authorization, opts.token)) {
      return reply
        .code(401)
        .header('www-authenticate', 'Bearer')
        .send(errorBody('Unauthorized: /metrics needs its bearer token (metrics.token)'));
    }
    await opts
      .beforeScrape?.()
      .catch((err: unknown) => opts.logger.warn({ err }, 'metrics: a gauge could not be read'));
    const text = await opts.metrics.registry.metrics();
    return reply.type(opts.metrics.registry.contentType).send(text);
  });
}
