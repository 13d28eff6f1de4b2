// Zendesk Support passes the CRM conformance suite.
import { describeCrmConformance } from './crm-conformance';
import { createZendeskHarness, ZENDESK_FEATURES } from './harness-zendesk';

describeCrmConformance(createZendeskHarness, { name: 'Zendesk', features: ZENDESK_FEATURES });
