// Salesforce passes the CRM conformance suite.
import { describeCrmConformance } from './crm-conformance';
import { createSalesforceHarness, SALESFORCE_FEATURES } from './harness-salesforce';

describeCrmConformance(createSalesforceHarness, { name: 'Salesforce', features: SALESFORCE_FEATURES });
