// The CRM destination from config: HubSpot, Salesforce, or the built-in warehouse destination.
import type { Kysely } from 'kysely';
import type { CountryCode } from 'libphonenumber-js';
import type { CallsyncConfig, CrmDestinationConfig } from '../config/schema';
import { crmDestinationOf } from '../config/account-settings';
import { BuiltinCrmConnector } from '../connectors/builtin-crm';
import { destinationIdOf, type CrmConnector } from '../connectors/crm/crm-connector';
import { sharedRateLimiters } from '../connectors/crm/shared-rate-limiter';
import { CrmError, CrmRateLimitedError } from '../connectors/crm/errors';
import { metrics } from '../lib/metrics';
import { HubSpotConnector, type HubSpotConfig } from '../connectors/hubspot';
import { hubspotInstallKey, hubspotRefreshGrant } from '../connectors/hubspot/oauth';
import { RenewingToken } from '../connectors/crm/renewing-token';
import { VendorTokenStore } from '../connectors/crm/vendor-token-store';
import { secretBoxFromConfig } from '../lib/encryption-keys';
import { claimTypeOnlyRows, type Database } from '../connectors/postgres';
import { OUTCOMES_STREAM } from '../activities/outcome-activities';
import { SalesforceConnector } from '../connectors/salesforce';
import { DynamicsConnector } from '../connectors/dynamics';
import { GoogleTasksConnector } from '../connectors/google-tasks';
import { salesforceAuthOf, type SalesforceConfig } from '../connectors/salesforce/config';
import { ZendeskConnector } from '../connectors/zendesk';
import { pipedriveConnector } from './crm-pipedrive';
import { ZohoConnector, type ZohoConfig } from '../connectors/zoho';

export { crmDestinationOf } from '../config/account-settings';

/**
 * One connector per account for the built-in and Google Tasks destinations, and for a HubSpot OAuth
 * app (each account installs it into its own portal); one shared connector per other CRM destination
 * (accounts with the same destination share its connector and rate limits).
 */
export function createCrmConnectors(
  config: CallsyncConfig,
  db: Kysely<Database>,
): (account: string) => CrmConnector {
  const shared = new Map<string, CrmConnector>();
  const perAccount = new Map<string, CrmConnector>();
  let tokenStore: VendorTokenStore | undefined;
  // Built on first need: only OAuth destinations keep tokens (and need temporal.encryption's keys).
  const tokens = () => (tokenStore ??= new VendorTokenStore(db, secretBoxFromConfig(config.temporal)));
  /** A connector shared by every account with this destination (its rate windows are in PostgreSQL). */
  const sharedConnector = (d: SharedDestination): CrmConnector => {
    switch (d.type) {
      case 'hubspot':
        return new HubSpotConnector(d, { limiters: sharedRateLimiters(db, 'hubspot') });
      case 'salesforce':
        return salesforceConnector(d, db, tokens);
      case 'pipedrive':
        return pipedriveConnector(d, db, tokens);
      case 'zendesk':
        if (d.auth.type === 'oauth') metrics().tokenRefreshFailures.inc({ vendor: 'zendesk' }, 0);
        return new ZendeskConnector(d, {
          country: config.crm.defaultCountry as CountryCode,
          limiters: sharedRateLimiters(db, 'zendesk'),
          tokenStore: tokens,
          onTokenRefreshFailed: () => metrics().tokenRefreshFailures.inc({ vendor: 'zendesk' }),
        });
      case 'dynamics':
        return new DynamicsConnector(d, { limiters: sharedRateLimiters(db, 'dynamics') });
      case 'zoho':
        return zohoConnector(d, db, tokens);
    }
  };
  return (account) => {
    const d = crmDestinationOf(config, account);
    if (d.type === 'hubspot' && d.oauth) {
      // An OAuth app is installed per account (its own portal and tokens): one connector per account.
      const key = `${account}\n${JSON.stringify(d)}`;
      let c = shared.get(key);
      if (!c) {
        c = hubspotOAuthConnector(d, d.oauth, account, db, tokens());
        shared.set(key, c);
      }
      return c;
    }
    if (d.type !== 'builtin' && d.type !== 'google-tasks') {
      const key = JSON.stringify(d);
      let c = shared.get(key);
      if (!c) shared.set(key, (c = sharedConnector(d)));
      return c;
    }
    let c = perAccount.get(account);
    if (!c) {
      // Per account: call logs stay in that account's warehouse rows (the built-in destination).
      c =
        d.type === 'google-tasks'
          ? new GoogleTasksConnector(d, db, account)
          : new BuiltinCrmConnector(db, account);
      perAccount.set(account, c);
    }
    return c;
  };
}

/** Destinations whose connector every account with the same config shares. */
type SharedDestination = Exclude<CrmDestinationConfig, { type: 'builtin' | 'google-tasks' }>;

/**
 * A Salesforce destination's connector: rate slots and, for `auth: refresh-token`, the current
 * refresh token kept in PostgreSQL (sealed under temporal.encryption's keys) for every worker.
 */
function salesforceConnector(
  d: SalesforceConfig,
  db: Kysely<Database>,
  tokens: () => VendorTokenStore,
): SalesforceConnector {
  // From 0, so the first failure is an increase Prometheus sees.
  if (salesforceAuthOf(d)) metrics().tokenRefreshFailures.inc({ vendor: 'salesforce' }, 0);
  return new SalesforceConnector(d, {
    limiters: sharedRateLimiters(db, 'salesforce'),
    tokenStore: tokens,
    onTokenRefreshFailed: () => metrics().tokenRefreshFailures.inc({ vendor: 'salesforce' }),
  });
}

/** A Zoho CRM destination's connector: rate slots, and its access token renewed through the shared store. */
function zohoConnector(d: ZohoConfig, db: Kysely<Database>, tokens: () => VendorTokenStore): ZohoConnector {
  metrics().tokenRefreshFailures.inc({ vendor: 'zoho' }, 0);
  return new ZohoConnector(d, {
    limiters: sharedRateLimiters(db, 'zoho'),
    tokenStore: tokens,
    onTokenRefreshFailed: () => metrics().tokenRefreshFailures.inc({ vendor: 'zoho' }),
  });
}

/** A HubSpot connector whose bearer tokens come from `account`'s install, renewed one worker at a time. */
function hubspotOAuthConnector(
  d: HubSpotConfig,
  oauth: NonNullable<HubSpotConfig['oauth']>,
  account: string,
  db: Kysely<Database>,
  store: VendorTokenStore,
): HubSpotConnector {
  const key = hubspotInstallKey(account, oauth.clientId);
  metrics().tokenRefreshFailures.inc({ vendor: 'hubspot' }, 0);
  const tokens = new RenewingToken({
    store,
    key,
    refresh: hubspotRefreshGrant(d.basePath, oauth),
    skewMs: oauth.refreshBeforeExpirySeconds * 1000,
    onRefreshFailed: () => metrics().tokenRefreshFailures.inc({ vendor: 'hubspot' }),
    notInstalled: () =>
      new CrmError({
        destination: 'hubspot',
        code: 'NOT_INSTALLED',
        message: `account ${account}: the HubSpot app is not installed yet (dashboard: /dashboard/hubspot/install)`,
        retryable: true,
      }),
  });
  return new HubSpotConnector(d, { limiters: sharedRateLimiters(db, 'hubspot'), tokens, account });
}

/** How long a start waits out a CRM that answers 429, 5xx or not at all, before it gives up. */
export interface PrepareRetry {
  attempts: number;
  firstDelayMs: number;
  maxDelayMs: number;
}

/** About two minutes of retries: a CRM's bad minute must not stop a worker from starting. */
export const PREPARE_RETRY: PrepareRetry = { attempts: 8, firstDelayMs: 1000, maxDelayMs: 30_000 };

/**
 * Prepares every configured CRM destination once (HubSpot properties, Salesforce field access), so
 * a worker on a new portal writes from its first call. A refusal stops the start with the
 * vendor's reason and the permission to grant. A transient failure (429, 5xx, network) is retried
 * with backoff (the vendor's Retry-After when it gives one): a worker restarted while the CRM has a
 * bad minute would otherwise exit, and keep exiting under a supervisor that restarts it.
 */
export async function prepareCrmDestinations(
  config: CallsyncConfig,
  crm: (account: string) => CrmConnector,
  retry: PrepareRetry = PREPARE_RETRY,
  onRetry: (message: string, delayMs: number) => void = () => undefined,
): Promise<void> {
  const connectors = new Set(config.accounts.map((a) => crm(a.name)));
  // Each series from 0, so the first failure is an increase Prometheus sees.
  for (const connector of connectors) metrics().crmSetupFailures.inc({ destination: connector.name }, 0);
  for (const connector of connectors) {
    for (
      let attempt = 1, delay = retry.firstDelayMs;
      ;
      attempt++, delay = Math.min(delay * 2, retry.maxDelayMs)
    ) {
      try {
        await connector.prepare?.();
        break;
      } catch (err) {
        // An OAuth app not installed yet: the install prepares the portal; the worker starts anyway.
        if (err instanceof CrmError && err.code === 'NOT_INSTALLED') {
          onRetry(`CRM setup (crm.destination ${connector.name}) skipped: ${err.message}`, 0);
          break;
        }
        metrics().crmSetupFailures.inc({ destination: connector.name });
        const reason = err instanceof Error ? err.message : String(err);
        if (!(err instanceof CrmError && err.retryable) || attempt >= retry.attempts) {
          const tries = attempt > 1 ? ` (after ${attempt} attempts)` : '';
          throw new Error(`CRM setup failed (crm.destination ${connector.name})${tries}: ${reason}`, {
            cause: err,
          });
        }
        const wait = Math.max(delay, err instanceof CrmRateLimitedError ? (err.retryAfterMs ?? 0) : 0);
        onRetry(`CRM setup (crm.destination ${connector.name}) failed for now: ${reason}`, wait);
        await new Promise((r) => setTimeout(r, wait));
      }
    }
  }
}

/**
 * Gives CRM state written before it was keyed by the destination's identity (type-only rows) the
 * identity of each account's configured destination; run at a worker's start, before any task, so the
 * objects callsync created are found again. Returns how many rows each account's claim moved.
 */
export function claimCrmDestinations(
  config: CallsyncConfig,
  crm: (account: string) => CrmConnector,
  db: Kysely<Database>,
): Promise<Map<string, number>> {
  return claimTypeOnlyRows(
    db,
    config.accounts.map((a) => {
      const c = crm(a.name);
      return { account: a.name, type: c.name, destination: destinationIdOf(c) };
    }),
    [OUTCOMES_STREAM],
  );
}

/**
 * The dashboard's call-log links: the page of a call log in the account's CRM, through the connector
 * that wrote it (null when that CRM has no pages, or the log belongs to a destination the account no
 * longer has).
 */
export function callLogPages(
  crm: (account: string) => CrmConnector,
): (account: string, destination: string, crmId: string) => Promise<string | null> {
  return async (account, destination, crmId) => {
    const connector = crm(account);
    if (!connector.callLogPageUrl || destinationIdOf(connector) !== destination) return null;
    try {
      return await connector.callLogPageUrl(crmId);
    } catch {
      // A CRM that cannot be asked right now (Pipedrive reads the call's person) costs the link, not the page.
      return null;
    }
  };
}
