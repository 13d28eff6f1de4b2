// A Pipedrive destination's identity, from config alone (the dashboard has no connectors).
import type { PipedriveConfig } from './config';

/** `pipedrive:<company domain>`: caches, mappings and rate windows are keyed by it. */
export function pipedriveDestinationId(config: Pick<PipedriveConfig, 'companyDomain'>): string {
  return `pipedrive:${config.companyDomain.toLowerCase()}`;
}
