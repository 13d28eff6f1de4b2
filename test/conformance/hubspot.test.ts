// HubSpot passes the CRM conformance suite.
import { describeCrmConformance } from './crm-conformance';
import { createHubSpotHarness, HUBSPOT_FEATURES } from './harness-hubspot';

describeCrmConformance(createHubSpotHarness, { name: 'HubSpot', features: HUBSPOT_FEATURES });
