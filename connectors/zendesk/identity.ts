// Which Zendesk account a configuration writes to, without a request: the subdomain names the account
// in cache keys, rate windows and CRM object mappings.
import type { ZendeskConfig } from './config';
import { DESTINATION } from './errors';

/** `zendesk:<subdomain>`: the same for every worker configured for this Zendesk account. */
export function zendeskDestinationId(config: Pick<ZendeskConfig, 'subdomain'>): string {
  return `${DESTINATION}:${config.subdomain}`;
}
