// callsync's HTTP server: the webhook receiver now; the status dashboard and metrics join it later.
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import type { Logger } from '../lib/logger';
import { registerWebhookRoutes, type WebhookRoutesOptions } from './webhook-routes';

export interface ServerAppOptions {
  logger: Logger;
  webhooks: Omit<WebhookRoutesOptions, 'logger'>;
}

/** Builds (but does not start) the server. */
export async function buildServerApp(opts: ServerAppOptions): Promise<FastifyInstance> {
  const logger = opts.logger.child({ module: 'server' });
  // Fastify's request logging (info) stays off: webhooks arrive by the thousand, and their URLs
  // carry secrets. Its warnings and errors still show.
  const fastifyLogger: FastifyBaseLogger = logger.child(
    {},
    { level: logger.levelVal >= 40 ? logger.level : 'warn' },
  );
  const app = Fastify({
    loggerInstance: fastifyLogger,
    // No child logger per request: with redaction configured, creating one costs more than the
    // rest of a webhook's handling.
    childLoggerFactory: (parent) => parent,
    keepAliveTimeout: 75_000,
  });
  app.get('/health', async () => ({ status: 'ok' }));
  await registerWebhookRoutes(app, { ...opts.webhooks, logger });
  return app;
}
