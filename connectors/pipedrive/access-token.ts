// OAuth access tokens for a Pipedrive app's install. Pipedrive's access tokens live about an hour
// (`expires_in` of the token answer) and are renewed with the refresh_token grant at
// oauth.pipedrive.com/oauth/token, the app's client id and secret as Basic auth
// (https://pipedrive.readme.io/docs/marketplace-oauth-authorization, https://developers.pipedrive.com/docs/api/v1/Oauth);
// the official client's OAuth2Configuration.tokenRefresh sends it. The tokens live in PostgreSQL
// (crm/renewing-token.ts): one worker at a time renews, and a rotated refresh token is stored before
// the new access token is used. The configured refresh token seeds the store on first use.
import { createHash } from 'node:crypto';
import type * as Pipedrive from 'pipedrive';
import { lazyPackage } from '../../lib/lazy-package';
import { CrmError } from '../crm/errors';
import { RenewingToken, type RefreshedTokens } from '../crm/renewing-token';
import type { TokenStore, VendorTokenKey } from '../crm/vendor-token-store';
import type { AccessTokenSource } from './client';
import type { PipedriveConfig, PipedriveOAuthConfig } from './config';
import { DESTINATION } from './errors';

const pipedrive = lazyPackage<typeof Pipedrive>('pipedrive');

/** The refresh grant needs no redirect URI, but the client's OAuth2Configuration insists on one. */
const UNUSED_REDIRECT = 'https://localhost/callsync-refresh-only';

/** The store key of an install: the company, the app, and which authorisation seeded it. */
export function pipedriveInstallKey(companyDomain: string, oauth: PipedriveOAuthConfig): VendorTokenKey {
  // A new authorisation (a new refresh token in config) starts a new row; the digest names it
  // without revealing it.
  const seed = createHash('sha256').update(oauth.refreshToken).digest('hex').slice(0, 16);
  return { vendor: DESTINATION, identity: `${companyDomain}#${oauth.clientId}#${seed}` };
}

/** Pipedrive's refresh_token grant through the official client; errors carry no token. */
export function pipedriveRefreshGrant(oauth: PipedriveOAuthConfig) {
  return async (refreshToken: string): Promise<RefreshedTokens> => {
    const grant = new (pipedrive().v1.OAuth2Configuration)({
      clientId: oauth.clientId,
      clientSecret: oauth.clientSecret,
      redirectUri: UNUSED_REDIRECT,
      host: oauth.oauthUrl.replace(/\/$/, ''),
    });
    grant.updateToken({ refresh_token: refreshToken } as Pipedrive.v1.TokenResponse);
    let answer: Pipedrive.v1.TokenResponse;
    try {
      answer = await grant.tokenRefresh();
    } catch (err) {
      // The client rejects with the answer's body (or an axios error whose config holds the token).
      const body = (err ?? {}) as { error?: unknown; message?: unknown; response?: { status?: number } };
      const reason = typeof body.error === 'string' ? body.error : 'no answer';
      const refused = reason === 'invalid_grant' || reason === 'invalid_client';
      throw new CrmError({
        destination: DESTINATION,
        code: refused ? 'REFRESH_REFUSED' : 'REFRESH_FAILED',
        message: refused
          ? `refresh token grant refused (${reason}): install callsync's Pipedrive app again and put the new refresh token in oauth.refreshToken`
          : `refresh token grant failed (${reason})`,
        retryable: !refused,
      });
    }
    if (typeof answer.access_token !== 'string' || !(answer.expires_in > 0))
      throw new CrmError({
        destination: DESTINATION,
        message: 'refresh token grant: no access token',
        retryable: true,
      });
    return {
      accessToken: answer.access_token,
      refreshToken: answer.refresh_token || null,
      expiresAt: new Date(Date.now() + answer.expires_in * 1000),
      details: answer.api_domain ? { apiDomain: answer.api_domain } : undefined,
    };
  };
}

/** An OAuth install's access tokens, renewed one worker at a time through the shared store. */
export class OAuthAccessToken<S> implements AccessTokenSource {
  private readonly renewing: RenewingToken<S>;

  constructor(
    config: PipedriveConfig & { oauth: PipedriveOAuthConfig },
    store: TokenStore<S>,
    onRefreshFailed: () => void = () => undefined,
  ) {
    const { refreshToken } = config.oauth;
    this.renewing = new RenewingToken({
      store,
      key: pipedriveInstallKey(config.companyDomain, config.oauth),
      refresh: pipedriveRefreshGrant(config.oauth),
      skewMs: config.oauth.refreshBeforeExpirySeconds * 1000,
      onRefreshFailed,
      // No access token yet: expired from the start, so the first use refreshes.
      seed: () => ({ accessToken: '', refreshToken, expiresAt: new Date(0), details: {} }),
    });
  }

  current(): Promise<string> {
    return this.renewing.current();
  }

  invalidate(token: string): boolean {
    this.renewing.invalidate(token);
    return true;
  }
}
