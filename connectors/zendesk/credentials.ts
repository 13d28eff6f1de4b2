// What callsync authenticates with: an API token (fixed), or OAuth tokens that renew themselves through
// the refresh token grant, kept in the shared token store so every worker uses the current pair.
// Zendesk deletes the previous access and refresh tokens when it answers a refresh
// (https://support.zendesk.com/hc/en-us/articles/9182123625370), so a refresh token is used once:
// RenewingToken refreshes under the store's lock and saves the new pair before using it.
import { createHash } from 'node:crypto';
import { z } from 'zod';
import { CrmError } from '../crm/errors';
import { RenewingToken, type RefreshedTokens } from '../crm/renewing-token';
import type { TokenStore, VendorTokenKey } from '../crm/vendor-token-store';
import { zendeskOrigin, type ZendeskConfig } from './config';
import { DESTINATION, errorCodeOf } from './errors';

/** How one request authenticates: Basic `{email}/token:{api token}`, or a Bearer access token. */
export type ZendeskAuthHeader =
  { kind: 'api-token'; email: string; token: string } | { kind: 'oauth'; token: string };

export interface CredentialSource {
  current(): Promise<ZendeskAuthHeader>;
  /** Zendesk refused `auth` (401): true when a renewed one may work (OAuth), false when not. */
  invalidate(auth: ZendeskAuthHeader): boolean;
}

/** Where the OAuth tokens live (PostgreSQL, shared by every worker); built only for `auth: oauth`. */
export type TokenStoreFactory = () => TokenStore<unknown>;

/** An access token without a lifetime (Zendesk's older tokens) is used until refused. */
const UNTIL_REFUSED_MS = 10 * 365 * 86_400_000;

const tokenAnswerSchema = z.object({
  access_token: z.string().min(1),
  refresh_token: z.string().min(1).nullish(),
  expires_in: z.number().nullish(),
});

/**
 * The refresh token grant: POST /oauth/tokens (JSON) with grant_type=refresh_token
 * (https://developer.zendesk.com/api-reference/ticketing/oauth/grant_type_tokens/). node-zendesk has no
 * call for this endpoint (its oauthtokens client is the /api/v2/oauth/tokens admin API), so fetch.
 */
export function zendeskRefreshGrant(
  config: ZendeskConfig,
  auth: Extract<ZendeskConfig['auth'], { type: 'oauth' }>,
): (refreshToken: string) => Promise<RefreshedTokens> {
  return async (refreshToken) => {
    const res = await fetch(`${zendeskOrigin(config)}/oauth/tokens`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
      body: JSON.stringify({
        grant_type: 'refresh_token',
        refresh_token: refreshToken,
        client_id: auth.clientId,
        ...(auth.clientSecret ? { client_secret: auth.clientSecret } : {}),
        ...(auth.accessTokenSeconds ? { expires_in: auth.accessTokenSeconds } : {}),
      }),
    });
    const body: unknown = await res.json().catch(() => null);
    if (!res.ok) {
      // invalid_grant: the refresh token expired or was used; only a new authorisation helps.
      throw new CrmError({
        destination: DESTINATION,
        status: res.status,
        code: errorCodeOf(body),
        message: `OAuth refresh refused: HTTP ${res.status} ${errorCodeOf(body) ?? ''}`.trim(),
        retryable: res.status === 429 || res.status >= 500,
      });
    }
    const t = tokenAnswerSchema.parse(body);
    return {
      accessToken: t.access_token,
      refreshToken: t.refresh_token ?? null,
      expiresAt: new Date(Date.now() + (t.expires_in ? t.expires_in * 1000 : UNTIL_REFUSED_MS)),
    };
  };
}

/** The store key of an OAuth install: the account, the client, and which authorisation seeded it. */
export function zendeskTokenKey(origin: string, clientId: string, seedRefreshToken: string): VendorTokenKey {
  const seed = createHash('sha256').update(seedRefreshToken).digest('hex').slice(0, 16);
  return { vendor: DESTINATION, identity: `${origin}#${clientId}#${seed}` };
}

class OAuthCredentials<S> implements CredentialSource {
  private readonly renewing: RenewingToken<S>;
  constructor(
    auth: Extract<ZendeskConfig['auth'], { type: 'oauth' }>,
    config: ZendeskConfig,
    store: TokenStore<S>,
    onRefreshFailed: () => void,
  ) {
    const access = auth.accessToken;
    this.renewing = new RenewingToken({
      store,
      key: zendeskTokenKey(zendeskOrigin(config), auth.clientId, auth.refreshToken),
      refresh: zendeskRefreshGrant(config, auth),
      skewMs: auth.refreshBeforeExpirySeconds * 1000,
      onRefreshFailed,
      seed: () => ({
        accessToken: access ?? '',
        refreshToken: auth.refreshToken,
        // A configured access token is used until refused; without one the first use refreshes.
        expiresAt: new Date(access ? Date.now() + UNTIL_REFUSED_MS : 0),
        details: {},
      }),
    });
  }

  async current(): Promise<ZendeskAuthHeader> {
    return { kind: 'oauth', token: await this.renewing.current() };
  }

  invalidate(auth: ZendeskAuthHeader): boolean {
    this.renewing.invalidate(auth.token);
    return true;
  }
}

/** The credentials a configuration asks for. */
export function credentialSource(
  config: ZendeskConfig,
  deps: { tokenStore?: TokenStoreFactory | undefined; onRefreshFailed?: (() => void) | undefined },
): CredentialSource {
  const auth = config.auth;
  if (auth.type === 'api-token') {
    const header: ZendeskAuthHeader = { kind: 'api-token', email: auth.email, token: auth.apiToken };
    return { current: () => Promise.resolve(header), invalidate: () => false };
  }
  if (!deps.tokenStore)
    throw new Error('zendesk auth oauth: no token store (PostgreSQL) was given to the connector');
  return new OAuthCredentials(auth, config, deps.tokenStore(), deps.onRefreshFailed ?? (() => undefined));
}
