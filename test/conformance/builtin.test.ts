// The built-in destination passes the CRM conformance suite.
import { describeCrmConformance } from './crm-conformance';
import { BUILTIN_FEATURES, createBuiltinHarness } from './harness-builtin';

describeCrmConformance(createBuiltinHarness, { name: 'Built-in', features: BUILTIN_FEATURES });
