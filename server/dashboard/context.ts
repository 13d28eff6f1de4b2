// What the dashboard's pages read from: the warehouse, Temporal (counts and the retry workflow), the
// audio archive directory, and the configured accounts and streams.
import type { Client } from '@temporalio/client';
import type { Kysely } from 'kysely';
import type { Database } from '../../connectors/postgres';
import type { Logger } from '../../lib/logger';
import type { PageSession } from './html';
import type { HubSpotConfig, HubSpotOAuthConfig } from '../../connectors/hubspot/config';
import type { SecretBox } from '../../lib/secret-box';

/** Accounts whose CRM destination is a HubSpot OAuth app, and the box their tokens are sealed with. */
export interface HubSpotInstallSettings {
  apps: Readonly<Record<string, HubSpotConfig & { oauth: HubSpotOAuthConfig }>>;
  box: SecretBox;
}

export interface DashboardOptions {
  /** The bootstrap admin's password (config server.dashboard.password or passwordFile). */
  password: string;
  /** How long a login lasts. */
  sessionHours: number;
  /** Failed log-ins for a username, and from an address, within lockoutMinutes that lock it out that long. */
  loginMaxFailures?: number;
  loginMaxFailuresPerAddress?: number;
  lockoutMinutes?: number;
  db: Kysely<Database>;
  /** The accounts the pages may show: every configured one, narrowed per request to the user's. */
  accounts: readonly string[];
  /** The logged-in user of this request (set per request). */
  session?: PageSession | undefined;
  streams: readonly string[];
  /** Without Temporal the retry button and the live counts are off. */
  temporal?: { client: Client; taskQueue: string } | undefined;
  /** The local audio archive (config archive.dir): the player serves file:// audio from under it. */
  archiveDir: string;
  /**
   * Each account's configured CRM destination, by its identity (`salesforce:<instance URL>`,
   * `hubspot:<token id>`, `builtin`): the call page shows the objects callsync created there.
   */
  destinations: Readonly<Record<string, string>>;
  /**
   * The page of a call log in the CRM that logged it (its connector's callLogPageUrl), or null when
   * that CRM has no pages or `destination` is no longer the account's; the call page links to it.
   */
  callLogPage?: ((account: string, destination: string, crmId: string) => Promise<string | null>) | undefined;
  /** Cookies always marked Secure; otherwise only when the request came over HTTPS (server.trustProxy). */
  secureCookies?: boolean;
  /** Accounts with a HubSpot OAuth app: the install pages (/dashboard/hubspot/install); off when absent. */
  hubspot?: HubSpotInstallSettings | undefined;
  /** How long a retry request waits for the workflow before answering "still running". */
  retryWaitMs?: number;
  logger: Logger;
}

/** Counts from Temporal's visibility (null when Temporal is off or does not answer in time). */
export async function temporalCount(opts: DashboardOptions, query: string): Promise<number | null> {
  if (!opts.temporal) return null;
  const timeout = new Promise<null>((resolve) => setTimeout(() => resolve(null), 3000).unref());
  try {
    const counted = await Promise.race([opts.temporal.client.workflow.count(query), timeout]);
    return counted === null ? null : counted.count;
  } catch (err) {
    opts.logger.warn({ err }, 'dashboard: Temporal count failed');
    return null;
  }
}

/** Midnight UTC of `now`'s day. */
export function startOfDay(now = new Date()): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
}
