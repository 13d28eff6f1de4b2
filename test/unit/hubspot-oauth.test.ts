// HubSpot OAuth pieces without PostgreSQL: the config's two ways to authenticate, the install state
// (bound to a session, expiring), and the grants against the HubSpot test server's token endpoint:
// its rules (single-use codes, rotated refresh tokens refused, expired access tokens answered 401
// EXPIRED_AUTHENTICATION), and errors that name HubSpot's reason and never carry a token.
import { hubspotConfigSchema } from '../../connectors/hubspot/config';
import { CrmError } from '../../connectors/crm/errors';
import {
  exchangeHubSpotCode,
  hubspotAuthorizeUrl,
  hubspotRefreshGrant,
} from '../../connectors/hubspot/oauth';
import { accountOfState, installState } from '../../server/dashboard/hubspot-install';
import { startFakeHubSpot, type FakeHubSpot } from '../fakes/hubspot-server';

const APP = { clientId: 'cid', clientSecret: 'csecret' };

describe('HubSpot destination config', () => {
  const oauth = { ...APP, redirectUrl: 'https://x.example/dashboard/hubspot/callback', scopes: ['a'] };
  it('takes a private app token or an OAuth app, one of the two, naming the field', () => {
    expect(hubspotConfigSchema.safeParse({ type: 'hubspot', accessToken: 'pat' }).success).toBe(true);
    expect(hubspotConfigSchema.parse({ type: 'hubspot', oauth }).oauth?.refreshBeforeExpirySeconds).toBe(300);
    const neither = hubspotConfigSchema.safeParse({ type: 'hubspot' });
    expect(neither.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([
      ['accessToken', 'set accessToken (a private app) or oauth (an OAuth app), one of the two'],
    ]);
    const both = hubspotConfigSchema.safeParse({ type: 'hubspot', accessToken: 'pat', oauth });
    expect(both.error?.issues[0]?.path).toEqual(['oauth']);
    const noScopes = hubspotConfigSchema.safeParse({ type: 'hubspot', oauth: { ...oauth, scopes: [] } });
    expect(noScopes.error?.issues[0]?.path).toEqual(['oauth', 'scopes']);
  });
});

describe('install state', () => {
  it('names the account for the session that signed it, for ten minutes, and for no one else', () => {
    const now = 1_800_000_000_000;
    const state = installState('session-secret', 'acme', now);
    expect(accountOfState('session-secret', state, now + 60_000)).toBe('acme');
    expect(accountOfState('other-session', state, now)).toBeNull();
    expect(accountOfState('session-secret', state, now + 11 * 60_000)).toBeNull();
    expect(accountOfState('session-secret', `${state}x`, now)).toBeNull();
    expect(accountOfState('session-secret', 'garbage', now)).toBeNull();
  });
});

describe('HubSpot token grants against the test server', () => {
  let fake: FakeHubSpot;
  const config = (f: FakeHubSpot) => ({
    ...APP,
    redirectUrl: 'https://x.example/cb',
    scopes: ['crm.objects.calls.write'],
    authorizeUrl: `${f.url}/oauth/authorize`,
    refreshBeforeExpirySeconds: 0,
  });
  async function code(f: FakeHubSpot): Promise<string> {
    const res = await fetch(hubspotAuthorizeUrl(config(f), 's'), { redirect: 'manual' });
    return new URL(res.headers.get('location')!).searchParams.get('code')!;
  }
  afterEach(async () => {
    await fake?.close();
  });

  it('exchanges a code once, for tokens of the portal, with the expiry HubSpot gives', async () => {
    fake = await startFakeHubSpot({ limits: false, oauth: { ...APP, accessTokenMs: 1_800_000 } });
    const c = await code(fake);
    const before = Date.now();
    const tokens = await exchangeHubSpotCode(fake.url, config(fake), c);
    expect(tokens.details).toEqual({ hubId: String(fake.portalId), scopes: 'crm.objects.calls.write' });
    expect(tokens.expiresAt.getTime()).toBeGreaterThanOrEqual(before + 1_800_000 - 5);
    expect(tokens.expiresAt.getTime()).toBeLessThanOrEqual(Date.now() + 1_800_000);
    const again = await exchangeHubSpotCode(fake.url, config(fake), c).catch((e: unknown) => e);
    expect(again).toBeInstanceOf(CrmError);
    expect((again as CrmError).retryable).toBe(false);
    expect((again as CrmError).message).not.toContain(c);
  });

  it('refuses a rotated refresh token with invalid_grant, without the token in the error', async () => {
    fake = await startFakeHubSpot({ limits: false, oauth: { ...APP, rotateRefreshTokens: true } });
    const first = await exchangeHubSpotCode(fake.url, config(fake), await code(fake));
    const refresh = hubspotRefreshGrant(fake.url, config(fake));
    const second = await refresh(first.refreshToken!);
    expect(second.refreshToken).not.toBe(first.refreshToken);
    const reused = await refresh(first.refreshToken!).catch((e: unknown) => e);
    expect(reused).toMatchObject({ status: 400, code: 'BAD_REFRESH_TOKEN', retryable: false });
    expect((reused as Error).message).toContain('refresh token is invalid, expired or revoked');
    expect((reused as Error).message).not.toContain(first.refreshToken!);
    expect(fake.oauth!.counters).toMatchObject({ refreshGrants: 1, invalidGrants: 1 });
    // Without rotation, HubSpot keeps the refresh token.
    await fake.close();
    fake = await startFakeHubSpot({ limits: false, oauth: APP });
    const kept = await exchangeHubSpotCode(fake.url, config(fake), await code(fake));
    expect((await hubspotRefreshGrant(fake.url, config(fake))(kept.refreshToken!)).refreshToken).toBe(
      kept.refreshToken,
    );
  });

  it("answers an expired access token with HubSpot's 401 EXPIRED_AUTHENTICATION", async () => {
    fake = await startFakeHubSpot({ limits: false, oauth: APP });
    const tokens = await exchangeHubSpotCode(fake.url, config(fake), await code(fake));
    const call = () =>
      fetch(`${fake.url}/account-info/v3/details`, {
        headers: { authorization: `Bearer ${tokens.accessToken}` },
      });
    expect((await call()).status).toBe(200);
    fake.oauth!.expire(tokens.accessToken);
    const res = await call();
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({
      status: 'error',
      category: 'EXPIRED_AUTHENTICATION',
      message: expect.stringMatching(
        /^The OAuth token used to make this call expired \d+ minute\(s\) ago\.$/,
      ),
    });
    // The private app's token still works beside the OAuth app's.
    const pat = await fetch(`${fake.url}/account-info/v3/details`, {
      headers: { authorization: `Bearer ${fake.token}` },
    });
    expect(pat.status).toBe(200);
  });
});
