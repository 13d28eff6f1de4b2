// callsync's HTTP server: the webhook receiver, the dashboard, /metrics and the codec endpoint.
import Fastify, { type FastifyBaseLogger, type FastifyInstance, type FastifyReply } from 'fastify';
import type { Logger } from '../lib/logger';
import { errorBody, registerWebhookRoutes, type WebhookRoutesOptions } from './webhook-routes';
import { registerCodecRoutes, type CodecRoutesOptions } from './codec-routes';
import { registerMetricsRoutes, type MetricsRoutesOptions } from './metrics-routes';
import { registerDashboardRoutes, type DashboardOptions } from './dashboard/routes';
import { registerHealthRoutes, type HealthRoutesOptions } from './health-routes';

/** Longest a request may take to arrive, headers and body, by default (config server.requestTimeout). */
export const DEFAULT_REQUEST_TIMEOUT_MS = 10_000;

/** Fastify's trustProxy: true (any sender), or the proxies' addresses/CIDRs. */
export type TrustProxy = boolean | string[];

export interface ServerAppOptions {
  logger: Logger;
  /**
   * Believe X-Forwarded-For/-Proto from these proxies (config server.trustProxy): the client's address
   * (the dashboard's per-address lockout) and HTTPS (its Secure cookie). Off when absent.
   */
  trustProxy?: TrustProxy | undefined;
  webhooks: Omit<WebhookRoutesOptions, 'logger'>;
  /** Longest a request may take to arrive (headers and body), in ms; a slower client is cut off. */
  requestTimeoutMs?: number;
  /** Temporal's remote codec endpoint (/codec/encode, /codec/decode); off when absent. */
  codec?: Omit<CodecRoutesOptions, 'logger'> | undefined;
  /** GET /metrics (Prometheus); off when absent. */
  metrics?: Omit<MetricsRoutesOptions, 'logger'> | undefined;
  /** The dashboard at /dashboard; off when absent. */
  dashboard?: Omit<DashboardOptions, 'logger'> | undefined;
  /** GET /healthz and /readyz; off when absent. */
  health?: HealthRoutesOptions | undefined;
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
  const requestTimeout = opts.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
  const app = Fastify({
    loggerInstance: fastifyLogger,
    trustProxy: opts.trustProxy ?? false,
    // No child logger per request: with redaction configured, creating one costs more than the
    // rest of a webhook's handling.
    childLoggerFactory: (parent) => parent,
    // Longer than a load balancer's idle timeout (60 s), so that it never reuses a closed socket.
    keepAliveTimeout: 75_000,
    // A slow or stalled client (headers or body) holds a connection for at most this long. Node
    // checks the deadlines only every connectionsCheckingInterval (30 s by default): every second.
    requestTimeout,
    http: { headersTimeout: requestTimeout, connectionsCheckingInterval: Math.min(1000, requestTimeout) },
    // A URL Fastify cannot route is answered without echoing it: it may carry a webhook secret.
    frameworkErrors: (err, _req, reply) => {
      void (reply as FastifyReply).code(400).send(errorBody(`Bad request (${err.code})`));
    },
  });
  app.setNotFoundHandler((_req, reply) => reply.code(404).send(errorBody('Not found')));
  app.get('/health', async () => ({ status: 'ok' }));
  if (opts.health) registerHealthRoutes(app, opts.health);
  await registerWebhookRoutes(app, { ...opts.webhooks, logger });
  if (opts.codec) await registerCodecRoutes(app, { ...opts.codec, logger });
  if (opts.metrics) registerMetricsRoutes(app, { ...opts.metrics, logger });
  if (opts.dashboard) await registerDashboardRoutes(app, { ...opts.dashboard, logger });
  return app;
}
