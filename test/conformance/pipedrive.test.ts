// Pipedrive passes the CRM conformance suite.
import { describeCrmConformance } from './crm-conformance';
import { createPipedriveHarness, PIPEDRIVE_FEATURES } from './harness-pipedrive';

describeCrmConformance(createPipedriveHarness, { name: 'Pipedrive', features: PIPEDRIVE_FEATURES });
