// GET /metrics: the process's callsync_* metrics in Prometheus text format. Gauges read from the
// database (inbox backlog, relay lag) are refreshed at each scrape, so they cost nothing between.
import type { FastifyInstance } from 'fastify';
import type { CallsyncMetrics } from '../lib/metrics';
import type { Logger } from '../lib/logger';

export interface MetricsRoutesOptions {
  metrics: CallsyncMetrics;
  /** Sets gauges that are read on demand (a failure is logged; the rest is still served). */
  beforeScrape?: () => Promise<void>;
  logger: Logger;
}

/** Registers GET /metrics. */
export function registerMetricsRoutes(app: FastifyInstance, opts: MetricsRoutesOptions): void {
  app.get('/metrics', async (_req, reply) => {
    await opts
      .beforeScrape?.()
      .catch((err: unknown) => opts.logger.warn({ err }, 'metrics: a gauge could not be read'));
    const text = await opts.metrics.registry.metrics();
    return reply.type(opts.metrics.registry.contentType).send(text);
  });
}
