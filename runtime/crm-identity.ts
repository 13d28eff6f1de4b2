// Which CRM destination (portal, org) an account is configured with, from config alone: the server's
// dashboard has no connectors, and must still show the objects of the account's current destination.
import { crmDestinationOf } from '../config/account-settings';
import type { CallsyncConfig } from '../config/schema';
import { hubspotDestinationId } from '../connectors/hubspot/identity';
import { salesforceDestinationId } from '../connectors/salesforce/identity';
import { zendeskDestinationId } from '../connectors/zendesk/identity';
import { pipedriveDestinationId } from '../connectors/pipedrive/identity';
import { dynamicsDestinationId } from '../connectors/dynamics/config';

/** `account`'s destination identity, as its connector's destinationIdOf gives it (`builtin` for the built-in). */
export function crmDestinationIdOf(
  config: Pick<CallsyncConfig, 'accounts' | 'crm'>,
  account: string,
): string {
  const d = crmDestinationOf(config, account);
  if (d.type === 'hubspot') return hubspotDestinationId(d, account);
  if (d.type === 'salesforce') return salesforceDestinationId(d);
  if (d.type === 'zendesk') return zendeskDestinationId(d);
  if (d.type === 'pipedrive') return pipedriveDestinationId(d);
  if (d.type === 'dynamics') return dynamicsDestinationId(d);
  return d.type;
}
