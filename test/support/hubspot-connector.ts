// The product's HubSpot connector for one account, configured (through the config schema and the
// runtime's own CRM resolution) against a HubSpot test server.
import type { HubSpotConfig } from '../../connectors/hubspot/config';
import { HubSpotConnector } from '../../connectors/hubspot';
import { crmDestinationOf } from '../../runtime/crm';
import type { FakeHubSpot } from '../fakes/hubspot-server';
import { parseTestConfig } from './test-config';

/** A connector writing to `fake` with its token; `destination` adds settings (searchLagSeconds, …). */
export function hubspotConnectorOn(
  fake: FakeHubSpot,
  destination: Record<string, unknown> = {},
): HubSpotConnector {
  const config = parseTestConfig({
    accounts: [
      {
        name: 'a',
        platform: {
          baseUrl: 'http://127.0.0.1:1/v1.1/voipstudio',
          credentials: { type: 'apiKey', userId: 1, apiKey: 'k' },
        },
      },
    ],
    crm: { destination: { type: 'hubspot', accessToken: fake.token, basePath: fake.url, ...destination } },
    logLevel: 'silent',
  });
  return new HubSpotConnector(crmDestinationOf(config, 'a') as HubSpotConfig);
}
