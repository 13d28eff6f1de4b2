// Zoho CRM passes the CRM conformance suite.
import { describeCrmConformance } from './crm-conformance';
import { createZohoHarness, ZOHO_FEATURES } from './harness-zoho';

describeCrmConformance(createZohoHarness, { name: 'Zoho CRM', features: ZOHO_FEATURES });
