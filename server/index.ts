// Starts callsync's HTTP server (webhook receiver) and the relay that feeds the inbox into Temporal.
import type { AddressInfo } from 'node:net';
import type { Client } from '@temporalio/client';
import type { FastifyInstance } from 'fastify';
import type { AccountConfig } from '../config/schema';
import {
  createDatabase,
  explainPostgresTlsError,
  inboxWritable,
  pingDatabase,
  migrateToLatest,
  type PgSsl,
  type WarehouseDatabase,
} from '../connectors/postgres';
import type { CallsyncMetrics } from '../lib/metrics';
import { startMetricsServer } from '../runtime/metrics-server';
import type { Logger } from '../lib/logger';
import { checkReadiness, NotReady, type ReadinessCheck } from '../runtime/readiness';
import { buildServerApp, type TrustProxy } from './app';
import { readScrapeGauges } from './scrape-gauges';
import { InboxWriter, type InboxWriterOptions } from './inbox-writer';
import { temporalFastPath, type FastPath } from './fast-path';
import { recordRejected } from './rejected-store';
import { SuppressionList } from '../connectors/postgres';
import { createSuppressor } from '../lib/erasure/suppress';
import type { CountryCode } from 'libphonenumber-js/max';
import { Relay, temporalSignaller, type RelayOptions } from './relay';
import { createWebhookAuthenticator } from './webhook-auth';
import type { CodecRoutesOptions } from './codec-routes';
import type { DashboardOptions } from './dashboard/routes';

export { buildServerApp } from './app';
export { InboxWriter } from './inbox-writer';
export { Relay, temporalSignaller } from './relay';
export { BASIC_USER } from './webhook-auth';

export interface StartServerOptions {
  accounts: readonly Pick<AccountConfig, 'name' | 'webhookSecret'>[];
  databaseUrl: string;
  /** TLS towards PostgreSQL (config database.sslmode / sslCa, through postgresSsl). */
  databaseSsl?: PgSsl | undefined;
  port: number;
  host: string;
  logger: Logger;
  /** With Temporal, the relay runs in this process; without, rows wait for a relay elsewhere. */
  temporal?: { client: Client; taskQueue: string } | undefined;
  inbox?: InboxWriterOptions;
  relay?: Omit<RelayOptions, 'pool' | 'signal' | 'logger' | 'busy' | 'busyPauseMs'> & {
    /** Deliveries per second above which the relay yields to the receiver (config server.relay). */
    yieldAbove?: number;
    /** How long, in ms, a burst pauses the relay outright. */
    busyPause?: number;
  };
  /** Webhook body limit in bytes. */
  bodyLimit?: number;
  /** Longest a request may take to arrive (headers and body), in ms (config server.requestTimeout). */
  requestTimeoutMs?: number;
  /** Which proxies' X-Forwarded-For/-Proto to believe (config server.trustProxy). */
  trustProxy?: TrustProxy | undefined;
  /** Temporal's remote codec endpoint (server/codec-routes.ts); off when absent. */
  codec?: Omit<CodecRoutesOptions, 'logger'> | undefined;
  /** Counts webhooks into these (and serves them at `metricsEndpoint`); off when absent. */
  metrics?: CallsyncMetrics | undefined;
  /** Where /metrics is served (never on the receiver's port without a token); not served when absent. */
  metricsEndpoint?: MetricsEndpoint | undefined;
  /**
   * Anonymises deliveries about erased people before they are stored (the suppression list, docs/privacy.md
   * "Erasure"): the key of its hashes and the country of national numbers.
   */
  erasure?: { key: Buffer | undefined; defaultCountry: string } | undefined;
  /** The dashboard (runtime/server-observability.ts resolves it from config); off when absent. */
  dashboard?: DashboardSettings | undefined;
  /** archive.maxAge: older audio is never archived, and is left out of the archive backlog gauge. */
  archiveMaxAgeMs?: number | undefined;
  /** Whether an account's ringing calls start screen-pops (screenPopLinks of the config); all when absent. */
  screenPops?: ((account: string) => boolean) | undefined;
  /** Sees each committed delivery the fast path sees (bench:e2e times screen-pops from it). */
  observeFastPath?: FastPath | undefined;
}

/**
 * Where the server serves /metrics: a port of its own (on `host`, with an optional token), or the
 * receiver's public port behind a bearer token (no `port`).
 */
export type MetricsEndpoint =
  { port: number; host: string; token?: string | undefined } | { port?: undefined; token: string };

/** The dashboard's settings from config; the server adds its warehouse and Temporal client. */
export type DashboardSettings = Omit<DashboardOptions, 'logger' | 'db' | 'temporal'>;

export interface RunningServer {
  /** e.g. http://127.0.0.1:8788 */
  url: string;
  /** Where /metrics is served, when it is. */
  metricsUrl: string | undefined;
  port: number;
  app: FastifyInstance;
  inbox: InboxWriter;
  relay: Relay | undefined;
  warehouse: WarehouseDatabase;
  /** The URL to give the platform for an account (path-token form). */
  webhookUrl(account: string, secret: string): string;
  /** Replaces the accounts whose webhooks are accepted (accounts added or removed at run time). */
  setAccounts(accounts: StartServerOptions['accounts']): void;
  /** Stops accepting, lets commits finish, stops the relay, closes the pool. */
  close(): Promise<void>;
}

/** The receiver's fast path: workflow starts with Temporal, and the observer when given. */
function fastPathOf(opts: StartServerOptions): FastPath | undefined {
  const started =
    opts.temporal &&
    temporalFastPath(
      opts.temporal.client,
      opts.temporal.taskQueue,
      opts.logger.child({ module: 'fast-path' }),
      opts.screenPops,
    );
  const observe = opts.observeFastPath;
  if (!observe) return started;
  return (account, webhook, receivedAt, suppressed) => {
    observe(account, webhook, receivedAt, suppressed);
    started?.(account, webhook, receivedAt, suppressed);
  };
}

/** Migrates the warehouse, starts listening and (with Temporal) starts the relay. */
/** The host of a URL to a server listening on `host` (a wildcard is reached on loopback). */
function urlHostOf(host: string): string {
  const h = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
  return h.includes(':') ? `[${h}]` : h;
}

export async function startServer(opts: StartServerOptions): Promise<RunningServer> {
  const log = opts.logger;
  const warehouse = createDatabase(opts.databaseUrl, {
    max: 10,
    applicationName: 'callsync-server',
    ...(opts.databaseSsl !== undefined ? { ssl: opts.databaseSsl } : {}),
    onIdleError: (err) => log.warn({ err }, 'idle PostgreSQL connection failed'),
  });
  let relay: Relay | undefined;
  let metricsServer: { url: string; close(): Promise<void> } | undefined;
  try {
    await migrateToLatest(warehouse.db).catch((err: unknown) => {
      throw explainPostgresTlsError(err);
    });
    const suppression = opts.erasure ? new SuppressionList(warehouse.pool) : undefined;
    const suppressor = suppression
      ? async () =>
          createSuppressor(
            opts.erasure!.key,
            await suppression.current(),
            opts.erasure!.defaultCountry as CountryCode,
          )
      : undefined;
    const inbox = new InboxWriter(warehouse.pool, {
      ...(suppressor ? { suppressor } : {}),
      ...opts.inbox,
      onCommitted: (n) => {
        opts.inbox?.onCommitted?.(n);
        relay?.wake();
      },
    });
    if (opts.temporal) {
      const { yieldAbove = Infinity, busyPause, ...relayOptions } = opts.relay ?? {};
      relay = new Relay({
        ...relayOptions,
        ...(busyPause !== undefined ? { busyPauseMs: busyPause } : {}),
        busy: () => inbox.arrivalRate() >= yieldAbove,
        pool: warehouse.pool,
        timeline: warehouse.db,
        signal: temporalSignaller(opts.temporal.client, opts.temporal.taskQueue),
        logger: log.child({ module: 'relay' }),
      });
    }
    const relayRef = relay;
    const endpoint = opts.metricsEndpoint;
    const beforeScrape = (): Promise<void> =>
      readScrapeGauges(opts.metrics!, {
        pool: warehouse.pool,
        db: warehouse.db,
        archiveMaxAgeMs: opts.archiveMaxAgeMs,
      });
    // Temporal is not checked: deliveries wait in the durable inbox while it is away, so the
    // receiver is still doing its job; the relay's backlog shows in /metrics (relay_lag_seconds).
    const checks: ReadinessCheck[] = [
      { name: 'postgres', probe: () => pingDatabase(warehouse.pool) },
      {
        name: 'inbox',
        probe: async () => {
          if (!(await inboxWritable(warehouse.pool))) throw new NotReady('not writable');
        },
      },
    ];
    if (relayRef) {
      checks.push({
        name: 'relay',
        probe: async () => {
          if (!relayRef.running) throw new NotReady('stopped');
        },
      });
    }
    // Swapped whole by setAccounts: a request sees the old accounts or the new, never a mix.
    let authenticate = createWebhookAuthenticator(opts.accounts);
    const healthLog = log.child({ module: 'readyz' });
    const app = await buildServerApp({
      health: {
        readiness: () =>
          checkReadiness(checks, { onFailure: (check, err) => healthLog.warn({ err, check }, 'not ready') }),
      },
      logger: log,
      ...(opts.requestTimeoutMs !== undefined ? { requestTimeoutMs: opts.requestTimeoutMs } : {}),
      trustProxy: opts.trustProxy,
      webhooks: {
        authenticate: (account, presented) => authenticate(account, presented),
        inbox,
        recordRejected: async (d) => {
          // A refused body is text, perhaps not JSON: erased identifiers inside it are replaced.
          const scrubbed = (await suppressor?.())?.scrub(d.body);
          await recordRejected(warehouse.db, typeof scrubbed === 'string' ? { ...d, body: scrubbed } : d);
        },
        ...(opts.bodyLimit !== undefined ? { bodyLimit: opts.bodyLimit } : {}),
        metrics: opts.metrics,
        fastPath: fastPathOf(opts),
      },
      codec: opts.codec,
      dashboard: opts.dashboard && { ...opts.dashboard, db: warehouse.db, temporal: opts.temporal },
      metrics:
        opts.metrics && endpoint && endpoint.port === undefined
          ? { metrics: opts.metrics, beforeScrape, token: endpoint.token }
          : undefined,
    });
    await app.listen({ port: opts.port, host: opts.host });
    const port = (app.server.address() as AddressInfo).port;
    const url = `http://${urlHostOf(opts.host)}:${port}`;
    if (opts.metrics && endpoint?.port !== undefined) {
      metricsServer = await startMetricsServer(opts.metrics.registry, endpoint.port, endpoint.host, {
        beforeScrape,
        token: endpoint.token,
        onScrapeError: (err) => log.warn({ err }, 'metrics: a gauge could not be read'),
      });
    }
    const metricsUrl = !opts.metrics || !endpoint ? undefined : (metricsServer?.url ?? `${url}/metrics`);
    relay?.start();
    return {
      url,
      metricsUrl,
      port,
      app,
      inbox,
      relay,
      warehouse,
      webhookUrl: (account, secret) =>
        `${url}/webhooks/${encodeURIComponent(account)}/${encodeURIComponent(secret)}`,
      setAccounts(accounts) {
        authenticate = createWebhookAuthenticator(accounts);
      },
      async close() {
        await metricsServer?.close();
        await app.close();
        await inbox.drain();
        await relayRef?.stop();
        await warehouse.close();
      },
    };
  } catch (err) {
    await metricsServer?.close();
    await relay?.stop();
    await warehouse.close();
    throw err;
  }
}
