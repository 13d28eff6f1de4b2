// Microsoft Dynamics 365 passes the CRM conformance suite.
import { describeCrmConformance } from './crm-conformance';
import { createDynamicsHarness, DYNAMICS_FEATURES } from './harness-dynamics';

describeCrmConformance(createDynamicsHarness, {
  name: 'Microsoft Dynamics 365',
  features: DYNAMICS_FEATURES,
});
