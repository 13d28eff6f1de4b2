// The dashboard's settings from config: its password (given, or read from a file), and the refusal
// to serve it without one on an interface other machines can reach.
import { readFileSync } from 'node:fs';
import type { CallsyncConfig } from '../config/schema';
import type { DashboardSettings } from '../server';
import { STREAMS } from '../sync/streams';
import { crmDestinationOf } from '../config/account-settings';
import type { HubSpotInstallSettings } from '../server/dashboard/context';
import { crmDestinationIdOf } from './crm-identity';
import { secretBoxFromConfig } from '../lib/encryption-keys';
import { isLoopbackHost } from './server-observability';

/** The password from server.dashboard (inline or its file), or undefined when none is set. */
function dashboardPassword(config: Pick<CallsyncConfig, 'server'>): string | undefined {
  const d = config.server.dashboard;
  if (d.password) return d.password;
  if (!d.passwordFile) return undefined;
  let text: string;
  try {
    text = readFileSync(d.passwordFile, 'utf8');
  } catch (err) {
    throw new Error(
      `server.dashboard.passwordFile: cannot read ${d.passwordFile} (${(err as NodeJS.ErrnoException).code ?? 'error'})`,
      { cause: err },
    );
  }
  const password = text.split(/\r?\n/)[0]!.trim();
  if (password.length < 12)
    throw new Error(
      `server.dashboard.passwordFile: ${d.passwordFile} must hold a password of at least 12 characters`,
    );
  return password;
}

/** The accounts whose destination is a HubSpot OAuth app (installed from the dashboard), or undefined. */
function hubspotInstalls(
  config: Pick<CallsyncConfig, 'accounts' | 'crm' | 'temporal'>,
): HubSpotInstallSettings | undefined {
  const apps: HubSpotInstallSettings['apps'] = Object.fromEntries(
    config.accounts.flatMap((a) => {
      const d = crmDestinationOf(config, a.name);
      return d.type === 'hubspot' && d.oauth ? [[a.name, { ...d, oauth: d.oauth }]] : [];
    }),
  );
  if (Object.keys(apps).length === 0) return undefined;
  return { apps, box: secretBoxFromConfig(config.temporal) };
}

/**
 * The dashboard's settings, or why it is off (to log). Throws when it would run without a password
 * on a non-loopback interface: the server must not start like that.
 */
export function dashboardSettings(
  config: Pick<CallsyncConfig, 'server' | 'accounts' | 'sync' | 'archive' | 'crm' | 'temporal'>,
  host: string = config.server.host,
): { dashboard: DashboardSettings | undefined; dashboardOff: string | undefined } {
  const d = config.server.dashboard;
  if (!d.enabled) return { dashboard: undefined, dashboardOff: 'server.dashboard.enabled is false' };
  const password = dashboardPassword(config);
  if (!password) {
    if (isLoopbackHost(host))
      return { dashboard: undefined, dashboardOff: 'server.dashboard.password (or passwordFile) is not set' };
    throw new Error(
      `server.dashboard.password (or passwordFile) is not set and server.host is ${host}: the dashboard ` +
        'would be open to the network; set a password of 12+ characters, or server.dashboard.enabled: false',
    );
  }
  const hubspot = hubspotInstalls(config);
  return {
    dashboard: {
      ...(hubspot ? { hubspot } : {}),
      password,
      sessionHours: d.sessionHours,
      loginMaxFailures: d.loginMaxFailures,
      loginMaxFailuresPerAddress: d.loginMaxFailuresPerAddress,
      lockoutMinutes: d.lockoutMinutes,
      accounts: config.accounts.map((a) => a.name),
      streams: config.sync.streams ?? Object.keys(STREAMS),
      archiveDir: config.archive.dir,
      destinations: Object.fromEntries(
        config.accounts.map((a) => [a.name, crmDestinationIdOf(config, a.name)]),
      ),
    },
    dashboardOff: undefined,
  };
}
