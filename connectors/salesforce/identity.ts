// Which Salesforce org a configuration writes to, without a request: an org is reached at its own
// instance URL, so the URL names the org in cache keys, rate windows and CRM object mappings.
import type { SalesforceConfig } from './config';
import { DESTINATION } from './errors';

/** `salesforce:<instance URL>`: the same for every worker configured for this org. */
export function salesforceDestinationId(config: Pick<SalesforceConfig, 'instanceUrl'>): string {
  return `${DESTINATION}:${config.instanceUrl.replace(/\/$/, '')}`;
}
