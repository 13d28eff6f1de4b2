// HubSpot counts the search limit (5 a second) and the daily limit per account (portal), whatever the
// token (https://developers.hubspot.com/docs/api/crm/search,
// https://developers.hubspot.com/docs/api/usage-details). The test server shares both among every
// token of its portal and answers a spent daily limit with 429 policyName DAILY; the connector then
// waits for a possible reset (and tells Temporal so) instead of retrying at once, and sends nothing
// more to that portal meanwhile.
import { CrmRateLimitedError } from '../../connectors/crm/errors';
import { HubSpotConnector } from '../../connectors/hubspot';
import { nextPossibleDailyReset } from '../../connectors/hubspot/daily-limit';
import { startFakeHubSpot, type FakeHubSpot } from '../fakes/hubspot-server';
import { hubspotConnectorOn } from '../support/hubspot-connector';

const post = (fake: FakeHubSpot, token: string, path: string, body: unknown) =>
  fetch(`${fake.url}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

function connector(fake: FakeHubSpot): HubSpotConnector {
  return hubspotConnectorOn(fake);
}

describe('HubSpot limits per portal', () => {
  it('two private apps of one portal share its 5 searches a second', async () => {
    const fake = await startFakeHubSpot({ token: 'pat-app-one', tokens: ['pat-app-two'] });
    try {
      const answers = await Promise.all(
        [1, 2, 3, 4, 5, 6].map((i) =>
          post(fake, i % 2 === 0 ? 'pat-app-one' : 'pat-app-two', '/crm/v3/objects/contacts/search', {}),
        ),
      );
      const limited = answers.filter((r) => r.status === 429);
      expect(limited).toHaveLength(1);
      expect(await limited[0]!.json()).toMatchObject({ policyName: 'SECONDLY', errorType: 'RATE_LIMIT' });
      expect(answers.filter((r) => r.status === 200)).toHaveLength(5);
    } finally {
      await fake.close();
    }
  });

  it('answers a spent daily limit with 429 policyName DAILY, whichever token asks', async () => {
    const fake = await startFakeHubSpot({
      token: 'pat-app-one',
      tokens: ['pat-app-two'],
      limits: { daily: 3 },
    });
    try {
      for (const token of ['pat-app-one', 'pat-app-two', 'pat-app-one'])
        expect((await post(fake, token, '/crm/v3/objects/contacts/search', {})).status).toBe(200);
      const refused = await post(fake, 'pat-app-two', '/crm/v3/objects/calls/search', {});
      expect(refused.status).toBe(429);
      expect(await refused.json()).toMatchObject({ policyName: 'DAILY', errorType: 'RATE_LIMIT' });
      expect(fake.counters.byPolicy.DAILY).toBe(1);
    } finally {
      await fake.close();
    }
  });

  it('the connector waits for a possible reset after a DAILY 429, and asks nothing more meanwhile', async () => {
    const fake = await startFakeHubSpot({ limits: { daily: 2 } });
    try {
      const hubspot = connector(fake);
      await hubspot.findContactsByPhone('+442079460001');
      await hubspot.findContactsByPhone('+442079460002');
      const before = Date.now();
      const err = await hubspot.findContactsByPhone('+442079460003').catch((e: unknown) => e);
      expect(err).toBeInstanceOf(CrmRateLimitedError);
      const wait = (err as CrmRateLimitedError).retryAfterMs!;
      // Until the next quarter hour (local midnights fall on one in every time zone), at least a minute.
      expect(wait).toBeGreaterThanOrEqual(60_000);
      expect(before + wait).toBeLessThanOrEqual(nextPossibleDailyReset(Date.now()) + 1_000);
      // One refusal, no tight retries.
      expect(fake.requests.filter((r) => r.status === 429)).toHaveLength(1);
      const sent = fake.requests.length;
      const again = await hubspot
        .createContact({ phone: '+442079460004', name: null })
        .catch((e: unknown) => e);
      expect(again).toBeInstanceOf(CrmRateLimitedError);
      expect((again as CrmRateLimitedError).retryAfterMs).toBeGreaterThan(0);
      expect(fake.requests.length).toBe(sent);
    } finally {
      await fake.close();
    }
  });

  it('the next possible reset is the next quarter hour of UTC, at least a minute on', () => {
    const at = (iso: string) => new Date(nextPossibleDailyReset(Date.parse(iso))).toISOString();
    expect(at('2026-11-27T13:02:00.000Z')).toBe('2026-11-27T13:15:00.000Z');
    expect(at('2026-11-27T13:14:30.000Z')).toBe('2026-11-27T13:15:30.000Z');
    expect(at('2026-11-27T23:50:00.000Z')).toBe('2026-11-28T00:00:00.000Z');
  });
});
