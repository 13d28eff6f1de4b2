// The webhook receiver with its dashboard on a sync harness's warehouse and Temporal, as `callsync
// server` starts it from a config with one account and a dashboard password (for dashboard tests).
import { parseTestConfig } from '../support/test-config';
import { silentLogger } from '../../lib/logger';
import { dashboardSettings } from '../../runtime/dashboard-settings';
import { startServer, type RunningServer } from '../../server';
import type { SyncHarness } from './sync-harness';

/** Starts the server for the harness's account `acme` on a free loopback port. */
export async function startDashboardServer(
  h: SyncHarness,
  opts: { webhookSecret: string; password: string },
): Promise<RunningServer> {
  const config = parseTestConfig({
    accounts: [{ name: 'acme', platform: h.config.accounts[0]!.platform, webhookSecret: opts.webhookSecret }],
    archive: { dir: h.config.archive.dir },
    server: { dashboard: { password: opts.password } },
  });
  const { dashboard } = dashboardSettings(config, '127.0.0.1');
  return startServer({
    accounts: config.accounts,
    databaseUrl: h.database.url,
    port: 0,
    host: '127.0.0.1',
    logger: silentLogger,
    temporal: { client: h.client, taskQueue: h.taskQueue },
    dashboard,
  });
}
