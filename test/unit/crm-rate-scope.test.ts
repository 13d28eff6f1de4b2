// Vendor rate windows are the portal's or org's, not the API host's: HubSpot counts its limits per app
// and portal (https://developers.hubspot.com/docs/guides/apps/api-usage/usage-details), Salesforce per
// org. Two accounts on two portals behind the one API host each get their own window; two workers with
// the same token share one. The scope names the portal by a digest, never by the token.
import type { TokenSourceFactory } from '../../connectors/crm/rate-gate';
import { HubSpotConnector } from '../../connectors/hubspot';
import { SalesforceConnector } from '../../connectors/salesforce';

/** A limiter factory that records the scopes asked for (its limiters let everything through). */
function recordingLimiters(): TokenSourceFactory & { scopes: string[] } {
  const scopes: string[] = [];
  const open = { acquire: () => Promise.resolve(0) };
  return {
    scopes,
    bucket: (scope: string) => (scopes.push(scope), open),
    window: (scope: string) => (scopes.push(scope), open),
  };
}

const hubspot = (accessToken: string, limiters: TokenSourceFactory, portalId?: number) =>
  new HubSpotConnector(
    {
      type: 'hubspot',
      accessToken,
      ...(portalId !== undefined ? { portalId } : {}),
      basePath: 'https://api.hubapi.com',
      requestsPer10Seconds: 100,
      searchRequestsPerSecond: 4,
      searchLagSeconds: 5,
      taskPriority: 'HIGH',
    },
    { limiters },
  );

describe('CRM rate windows', () => {
  it('gives each HubSpot portal (token) its own windows, shared by every connector with that token', () => {
    const [a, b, a2] = [recordingLimiters(), recordingLimiters(), recordingLimiters()];
    const portalA = hubspot('pat-na1-portal-a', a);
    const portalB = hubspot('pat-na1-portal-b', b);
    hubspot('pat-na1-portal-a', a2);
    expect(a.scopes).toHaveLength(2);
    for (const scope of a.scopes) expect(b.scopes).not.toContain(scope);
    expect(a2.scopes).toEqual(a.scopes);
    expect(portalA.destinationId).not.toBe(portalB.destinationId);
    expect(a.scopes.join(' ')).not.toContain('pat-na1');
  });

  it('shares the search rate among the tokens of one portal (portalId), not the 10-second window', () => {
    // HubSpot counts searches per account, whatever the token (https://developers.hubspot.com/docs/api/crm/search).
    const [one, two, other] = [recordingLimiters(), recordingLimiters(), recordingLimiters()];
    hubspot('pat-na1-app-one', one, 4242);
    hubspot('pat-na1-app-two', two, 4242);
    hubspot('pat-na1-app-three', other, 5151);
    const search = (l: { scopes: string[] }) => l.scopes.find((s) => s.endsWith(' search'))!;
    const requests = (l: { scopes: string[] }) => l.scopes.find((s) => s.endsWith(' requests'))!;
    expect(search(one)).toBe(search(two));
    expect(search(other)).not.toBe(search(one));
    expect(requests(one)).not.toBe(requests(two));
  });

  it('gives each Salesforce org its own window', () => {
    const org = (instanceUrl: string) => {
      const limiters = recordingLimiters();
      const c = new SalesforceConnector(
        {
          type: 'salesforce',
          instanceUrl,
          accessToken: 't',
          apiVersion: '62.0',
          requestsPerSecond: 5,
          taskPriority: 'High',
        },
        { limiters },
      );
      return { c, scopes: limiters.scopes };
    };
    const one = org('https://one.my.salesforce.com');
    const two = org('https://two.my.salesforce.com');
    expect(one.scopes).toHaveLength(1);
    expect(two.scopes).not.toContain(one.scopes[0]);
    expect(one.c.destinationId).toBe('salesforce:https://one.my.salesforce.com');
  });
});
