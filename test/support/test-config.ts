// parseConfig for tests whose configs are literals with their secrets inline, as only a local setup
// may write them (allowInlineSecrets). Tests about secrets (test/unit/config-secrets.test.ts) call
// parseConfig itself, which refuses them.
import { parseConfig } from '../../config/load';
import type { CallsyncConfig } from '../../config/schema';

/** parseConfig with allowInlineSecrets, unless the input says otherwise. */
export function parseTestConfig(input: object, source?: string): CallsyncConfig {
  return parseConfig({ allowInlineSecrets: true, ...input }, source);
}
