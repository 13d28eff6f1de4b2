// A worker's start prepares the CRM: a transient failure (429, 5xx, network) is waited out with
// backoff; a refusal (403 and the like) stops the start at once with the vendor's reason.
import { parseTestConfig } from '../support/test-config';
import type { CrmConnector } from '../../connectors/crm/crm-connector';
import { CrmError, CrmRateLimitedError } from '../../connectors/crm/errors';
import { metrics } from '../../lib/metrics';
import { prepareCrmDestinations } from '../../runtime/crm';

/** callsync_crm_setup_failures_total{destination="hubspot"} now (undefined before any setup). */
async function setupFailures(): Promise<number | undefined> {
  const { values } = await metrics().crmSetupFailures.get();
  return values.find((v) => v.labels.destination === 'hubspot')?.value;
}

const config = parseTestConfig({
  accounts: [
    {
      name: 'acme',
      platform: {
        baseUrl: 'http://127.0.0.1:1/v1.1/voipstudio',
        credentials: { type: 'apiKey', userId: 1, apiKey: 'k' },
      },
    },
  ],
});
const fast = { attempts: 4, firstDelayMs: 1, maxDelayMs: 2 };

function connector(failures: Error[]): { crm: CrmConnector; calls: () => number } {
  let calls = 0;
  const crm = {
    name: 'hubspot',
    prepare: async () => {
      const err = failures[calls++];
      if (err) throw err;
    },
  } as unknown as CrmConnector;
  return { crm, calls: () => calls };
}

const unavailable = () =>
  new CrmError({ destination: 'hubspot', message: 'internal error (503)', status: 503, retryable: true });

describe('prepareCrmDestinations', () => {
  it('waits out 5xx and 429 answers, then prepares', async () => {
    const c = connector([
      unavailable(),
      new CrmRateLimitedError({
        destination: 'hubspot',
        message: 'rate limited',
        status: 429,
        retryAfterMs: 5,
      }),
    ]);
    const waits: number[] = [];
    await prepareCrmDestinations(
      config,
      () => c.crm,
      fast,
      (_m, ms) => waits.push(ms),
    );
    expect(c.calls()).toBe(3);
    expect(waits).toEqual([1, 5]); // the second wait is the vendor's Retry-After
  });

  it('gives up after the last attempt, saying how many it made', async () => {
    const c = connector([unavailable(), unavailable(), unavailable(), unavailable(), unavailable()]);
    const before = (await setupFailures()) ?? 0;
    await expect(prepareCrmDestinations(config, () => c.crm, fast)).rejects.toThrow(
      'CRM setup failed (crm.destination hubspot) (after 4 attempts): hubspot: internal error (503)',
    );
    expect(c.calls()).toBe(4);
    // Every failed attempt counts (callsync_crm_setup_failures_total, alert CallsyncCrmSetupFailing).
    expect(await setupFailures()).toBe(before + 4);
  });

  it('stops at once on a refusal', async () => {
    const c = connector([
      new CrmError({
        destination: 'hubspot',
        message: 'missing scope crm.schemas.calls.write',
        status: 403,
        retryable: false,
      }),
    ]);
    await expect(prepareCrmDestinations(config, () => c.crm, fast)).rejects.toThrow(
      'CRM setup failed (crm.destination hubspot): hubspot: missing scope crm.schemas.calls.write',
    );
    expect(c.calls()).toBe(1);
  });
});
