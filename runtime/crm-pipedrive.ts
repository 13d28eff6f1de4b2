// A Pipedrive destination's connector as the worker builds it: its 2-second windows shared by every
// worker through PostgreSQL, and for an OAuth app the install's tokens in the vendor token store
// (sealed under temporal.encryption's keys), renewed one worker at a time.
import type { Kysely } from 'kysely';
import { sharedRateLimiters } from '../connectors/crm/shared-rate-limiter';
import type { VendorTokenStore } from '../connectors/crm/vendor-token-store';
import { OAuthAccessToken, PipedriveConnector, type PipedriveConfig } from '../connectors/pipedrive';
import type { Database } from '../connectors/postgres';
import { metrics } from '../lib/metrics';

export function pipedriveConnector(
  d: PipedriveConfig,
  db: Kysely<Database>,
  tokens: () => VendorTokenStore,
): PipedriveConnector {
  const limiters = sharedRateLimiters(db, 'pipedrive');
  if (!d.oauth) return new PipedriveConnector(d, { limiters });
  // From 0, so the first failure is an increase Prometheus sees.
  metrics().tokenRefreshFailures.inc({ vendor: 'pipedrive' }, 0);
  const token = new OAuthAccessToken({ ...d, oauth: d.oauth }, tokens(), () =>
    metrics().tokenRefreshFailures.inc({ vendor: 'pipedrive' }),
  );
  return new PipedriveConnector(d, { limiters, token });
}
