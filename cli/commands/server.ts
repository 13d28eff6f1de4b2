// `callsync server`: the HTTP server (webhook receiver) and the relay into Temporal, for the
// configured accounts, until SIGINT/SIGTERM. Prints one JSON ready line on stdout.
import type { Command } from 'commander';
import { erasureHashKey, payloadCodecFromConfig } from '../../lib/encryption-keys';
import { z } from 'zod';
import { postgresSsl } from '../../connectors/postgres/tls';
import { startServer } from '../../server';
import {
  cliLogger,
  connectTemporal,
  globalOptions,
  loadCliConfig,
  readStoredAccounts,
  resolveDatabase,
} from '../context';
import { storedAccountsFingerprint } from '../../connectors/postgres';
import { describeError } from '../../lib/describe-error';
import { watchStoredAccounts } from '../../runtime/account-watch';
import { withStoredAccounts } from '../../runtime/stored-accounts';
import { installTemporalRuntime } from './worker';
import { serverObservability } from '../../runtime/server-observability';
import { dashboardSettings } from '../../runtime/dashboard-settings';
import { callLogPages, createCrmConnectors } from '../../runtime/crm';
import type { CrmConnector } from '../../connectors/crm/crm-connector';
import type { CallsyncConfig } from '../../config/schema';
import { screenPopLinks } from '../../config/account-settings';

const optionsSchema = z.object({
  port: z.coerce.number().int().min(0).max(65535).optional(),
  host: z.string().min(1).optional(),
  relay: z.boolean(),
});

/** Registers `server` on the CLI program. */
export function registerServerCommand(program: Command): void {
  program
    .command('server')
    .description('Run the webhook receiver (HTTP) and the relay that hands events to Temporal, until Ctrl-C')
    .option('--port <port>', 'listen port (else server.port, default 8788; 0 picks a free one)')
    .option('--host <host>', 'listen address (else server.host, default 127.0.0.1)')
    .option('--no-relay', 'only receive; another process relays the inbox into Temporal')
    .action(async (raw: unknown, cmd: Command) => {
      const opts = optionsSchema.parse(raw);
      const fileConfig = loadCliConfig(globalOptions(cmd));
      // Before anything starts: no keys (and no explicit encryption "off") refuses, naming the setting.
      payloadCodecFromConfig(fileConfig.temporal);
      const logger = cliLogger(fileConfig, 'server');
      installTemporalRuntime(logger);
      const database = await resolveDatabase(fileConfig, logger);
      // Accounts stored with `callsync accounts add` too; the watch below keeps them current.
      const config = await readStoredAccounts(fileConfig, database.url, logger);
      /** The config the receiver routes by, stored accounts included (replaced when they change). */
      let current = config;
      const without = config.accounts.filter((a) => !a.webhookSecret).map((a) => a.name);
      if (without.length === config.accounts.length) {
        throw new Error(
          'no account has a webhookSecret: set accounts[].webhookSecret (16+ characters, as { "env": NAME } or { "file": path }) in the config file',
        );
      }
      if (without.length > 0)
        logger.warn({ accounts: without }, 'accounts without webhookSecret accept no webhooks');
      const host = opts.host ?? config.server.host;
      // Before anything starts: no password on a non-loopback interface refuses to start.
      const { dashboard, dashboardOff } = dashboardSettings(config, host);
      if (dashboardOff) logger.warn(`dashboard off: ${dashboardOff}`);
      const temporal = opts.relay ? await connectTemporal(config) : undefined;
      const observability = serverObservability(config, host);
      if (observability.codecOff) logger.warn(`codec endpoint off: ${observability.codecOff}`);
      if (observability.metricsOff) logger.warn(`/metrics off: ${observability.metricsOff}`);
      // The call page's CRM links, through connectors of the server's own (built anew when the
      // stored accounts change).
      let crm: { config: CallsyncConfig; connectors: (account: string) => CrmConnector } | undefined;
      const crmOf = () => {
        if (crm?.config !== current)
          crm = { config: current, connectors: createCrmConnectors(current, server.warehouse.db) };
        return crm.connectors;
      };
      const server = await startServer({
        dashboard: dashboard && {
          ...dashboard,
          callLogPage: (account, destination, crmId) => callLogPages(crmOf())(account, destination, crmId),
        },
        codec: observability.codec,
        metrics: observability.metrics,
        metricsEndpoint: observability.metricsEndpoint,
        accounts: config.accounts,
        databaseUrl: database.url,
        databaseSsl: postgresSsl(config.database.sslmode, config.database.sslCa),
        port: opts.port ?? config.server.port,
        host,
        logger,
        temporal: temporal ? { client: temporal.client, taskQueue: config.temporal.taskQueue } : undefined,
        relay: config.server.relay,
        requestTimeoutMs: config.server.requestTimeout,
        trustProxy: config.server.trustProxy,
        erasure: { key: erasureHashKey(config), defaultCountry: config.crm.defaultCountry },
        archiveMaxAgeMs: config.archive.maxAge,
        screenPops: (account) => screenPopLinks(current, account),
      });
      logger.info({ url: server.url, metrics: server.metricsUrl, relay: opts.relay }, 'server listening');
      const watch = watchStoredAccounts(server.warehouse.db, {
        initial: await storedAccountsFingerprint(server.warehouse.db),
        onError: (err) => logger.warn({ err: describeError(err) }, 'stored accounts not read; trying again'),
        onChange: async () => {
          const now = await withStoredAccounts(fileConfig, server.warehouse.db);
          current = now;
          server.setAccounts(now.accounts);
          logger.info(
            { accounts: now.accounts.map((a) => a.name) },
            'stored accounts changed: webhooks routed anew',
          );
        },
      });
      const ready = { server: 'ready', url: server.url, port: server.port };
      process.stdout.write(
        `${JSON.stringify(dashboard ? { ...ready, dashboard: `${server.url}/dashboard` } : ready)}\n`,
      );
      await new Promise<void>((resolve) => {
        const stop = (signal: string): void => {
          logger.info({ signal }, 'server stopping');
          resolve();
        };
        process.once('SIGINT', stop);
        process.once('SIGTERM', stop);
      });
      watch.stop();
      await server.close();
      await temporal?.close();
      await database.stop();
      logger.info('server stopped');
    });
}
