// The CRM destination from config: HubSpot, Salesforce, or the built-in warehouse destination.
import type { Kysely } from 'kysely';
import type { CallsyncConfig } from '../config/schema';
import { BuiltinCrmConnector } from '../connectors/builtin-crm';
import type { CrmConnector } from '../connectors/crm/crm-connector';
import { HubSpotConnector } from '../connectors/hubspot';
import type { Database } from '../connectors/postgres';
import { SalesforceConnector } from '../connectors/salesforce';
import { GoogleTasksConnector } from '../connectors/google-tasks';

/** One connector per account for the built-in destination; one shared connector for a CRM. */
export function createCrmConnectors(
  config: CallsyncConfig,
  db: Kysely<Database>,
): (account: string) => CrmConnector {
  const d = config.crm.destination;
  if (d.type === 'hubspot') {
    const hubspot = new HubSpotConnector(d);
    return () => hubspot;
  }
  if (d.type === 'salesforce') {
    const salesforce = new SalesforceConnector(d);
    return () => salesforce;
  }
  if (d.type === 'google-tasks') {
    // Per account: call logs stay in that account's warehouse rows (the built-in destination).
    const perAccount = new Map<string, GoogleTasksConnector>();
    return (account) => {
      let c = perAccount.get(account);
      if (!c) perAccount.set(account, (c = new GoogleTasksConnector(d, db, account)));
      return c;
    };
  }
  const builtin = new Map<string, BuiltinCrmConnector>();
  return (account) => {
    let c = builtin.get(account);
    if (!c) builtin.set(account, (c = new BuiltinCrmConnector(db, account)));
    return c;
  };
}

/**
 * Prepares every configured CRM destination once (HubSpot properties, Salesforce field access), so
 * a worker on a new portal writes from its first call. A refusal stops the start with the
 * vendor's reason and the permission to grant.
 */
export async function prepareCrmDestinations(
  config: CallsyncConfig,
  crm: (account: string) => CrmConnector,
): Promise<void> {
  const connectors = new Set(config.accounts.map((a) => crm(a.name)));
  for (const connector of connectors) {
    try {
      await connector.prepare?.();
    } catch (err) {
      const reason = err instanceof Error ? err.message : String(err);
      throw new Error(`CRM setup failed (crm.destination ${connector.name}): ${reason}`, { cause: err });
    }
  }
}
