// HubSpot's OAuth grants (legacy v1 token API): the install's authorization-code exchange, the refresh
// grant the renewing token calls, and the token-info lookup that names the portal. Form-encoded POST
// /oauth/v1/token, JSON answers; access tokens live `expires_in` seconds (1800).
// https://developers.hubspot.com/docs/api-reference/legacy/authentication/oauth-tokens/v1/guide
// https://developers.hubspot.com/docs/api-reference/legacy/authentication/oauth-tokens/v1/refresh-oauth-token
// https://developers.hubspot.com/docs/api-reference/legacy/authentication/oauth-tokens/v1/get-oauth-token-metadata
// HubSpot retires these v1 endpoints on 2027-02-16 for /oauth/2026-03/token and …/token/introspect
// (same form fields): https://developers.hubspot.com/changelog/v1-oauth-api-deprecation
// Nothing here puts a token or the client secret in an error or a log.
import { z } from 'zod';
import type { RefreshGrant, RefreshedTokens } from '../crm/renewing-token';
import type { VendorTokenKey, VendorTokens, VendorTokenStore } from '../crm/vendor-token-store';
import { CrmError, isRetryableStatus } from '../crm/errors';
import type { HubSpotOAuthConfig } from './config';
import { DESTINATION } from './errors';

const TOKEN_PATH = '/oauth/v1/token';
const TOKEN_INFO_PATH = '/oauth/v1/access-tokens/';
const TIMEOUT_MS = 15_000;

const tokenResponseSchema = z.object({
  access_token: z.string().min(1),
  refresh_token: z.string().min(1),
  expires_in: z.number().positive(),
});

const tokenInfoSchema = z.object({
  hub_id: z.coerce.number().int(),
  hub_domain: z.string().optional(),
  app_id: z.coerce.number().int().optional(),
  scopes: z.array(z.string()).optional(),
});

/** The store key of `account`'s install of the app (the account is part of it: installs never mix). */
export function hubspotInstallKey(account: string, clientId: string): VendorTokenKey {
  return { vendor: DESTINATION, identity: `${account}/${clientId}` };
}

/** HubSpot's consent page for the app, carrying `state` back to the redirect URL. */
export function hubspotAuthorizeUrl(oauth: HubSpotOAuthConfig, state: string): string {
  const url = new URL(oauth.authorizeUrl);
  url.searchParams.set('client_id', oauth.clientId);
  url.searchParams.set('redirect_uri', oauth.redirectUrl);
  url.searchParams.set('scope', oauth.scopes.join(' '));
  url.searchParams.set('state', state);
  return url.toString();
}

function fieldOf(body: unknown, field: string): string | undefined {
  const v = typeof body === 'object' && body !== null ? (body as Record<string, unknown>)[field] : undefined;
  return typeof v === 'string' ? v : undefined;
}

async function send(url: string, init: RequestInit, what: string): Promise<unknown> {
  let res: Response;
  try {
    res = await fetch(url, { ...init, signal: AbortSignal.timeout(TIMEOUT_MS) });
  } catch (err) {
    const reason = err instanceof Error ? err.name : 'network error';
    throw new CrmError({ destination: DESTINATION, message: `${what}: ${reason}`, retryable: true });
  }
  const text = await res.text();
  let body: unknown = null;
  try {
    body = JSON.parse(text);
  } catch {
    // Not JSON (a proxy's error page): the status says enough.
  }
  if (res.ok) return body;
  // HubSpot's OAuth errors: {status: BAD_REFRESH_TOKEN, message} and, newer, {error, error_description}.
  const code = fieldOf(body, 'status') ?? fieldOf(body, 'error') ?? fieldOf(body, 'category');
  const reason = fieldOf(body, 'message') ?? fieldOf(body, 'error_description') ?? `HTTP ${res.status}`;
  const refused = res.status === 400 || res.status === 401 || res.status === 403;
  throw new CrmError({
    destination: DESTINATION,
    status: res.status,
    code,
    message: `${what} refused: ${reason}${refused ? ' (install the app again from the dashboard)' : ''}`,
    retryable: isRetryableStatus(res.status),
  });
}

async function tokenGrant(basePath: string, form: Record<string, string>, what: string) {
  const body = await send(
    `${basePath.replace(/\/$/, '')}${TOKEN_PATH}`,
    {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: new URLSearchParams(form).toString(),
    },
    what,
  );
  const parsed = tokenResponseSchema.safeParse(body);
  if (!parsed.success)
    throw new CrmError({
      destination: DESTINATION,
      message: `${what}: the answer lacks ${parsed.error.issues.map((i) => i.path.join('.')).join(', ')}`,
      retryable: false,
    });
  return parsed.data;
}

/** The portal (hub) an access token belongs to, with its domain and scopes. */
export async function hubspotTokenInfo(
  basePath: string,
  accessToken: string,
): Promise<z.infer<typeof tokenInfoSchema>> {
  const body = await send(
    `${basePath.replace(/\/$/, '')}${TOKEN_INFO_PATH}${encodeURIComponent(accessToken)}`,
    { headers: { accept: 'application/json' } },
    'HubSpot token info',
  );
  const parsed = tokenInfoSchema.safeParse(body);
  if (!parsed.success)
    throw new CrmError({
      destination: DESTINATION,
      message: 'HubSpot token info: no hub_id',
      retryable: false,
    });
  return parsed.data;
}

/**
 * The install's code exchanged for tokens, with the portal they belong to in `details` (hubId,
 * hubDomain, scopes), ready for the store.
 */
export async function exchangeHubSpotCode(
  basePath: string,
  oauth: HubSpotOAuthConfig,
  code: string,
  now: () => number = Date.now,
): Promise<VendorTokens> {
  const started = now();
  const t = await tokenGrant(
    basePath,
    {
      grant_type: 'authorization_code',
      client_id: oauth.clientId,
      client_secret: oauth.clientSecret,
      redirect_uri: oauth.redirectUrl,
      code,
    },
    'HubSpot code exchange',
  );
  const info = await hubspotTokenInfo(basePath, t.access_token);
  return {
    accessToken: t.access_token,
    refreshToken: t.refresh_token,
    expiresAt: new Date(started + t.expires_in * 1000),
    details: {
      hubId: String(info.hub_id),
      ...(info.hub_domain ? { hubDomain: info.hub_domain } : {}),
      ...(info.scopes ? { scopes: info.scopes.join(' ') } : {}),
    },
  };
}

/** HubSpot's refresh grant for the app, for the renewing token. */
export function hubspotRefreshGrant(
  basePath: string,
  oauth: HubSpotOAuthConfig,
  now: () => number = Date.now,
): RefreshGrant {
  return async (refreshToken): Promise<RefreshedTokens> => {
    // Expiry counted from before the request: never later than HubSpot's own.
    const started = now();
    const t = await tokenGrant(
      basePath,
      {
        grant_type: 'refresh_token',
        client_id: oauth.clientId,
        client_secret: oauth.clientSecret,
        redirect_uri: oauth.redirectUrl,
        refresh_token: refreshToken,
      },
      'HubSpot token refresh',
    );
    return {
      accessToken: t.access_token,
      refreshToken: t.refresh_token,
      expiresAt: new Date(started + t.expires_in * 1000),
    };
  };
}

/**
 * Completes `account`'s install: exchanges the code and stores the tokens (sealed) under the account's
 * key. Returns the portal's id. A second install into the same portal replaces the tokens; one into
 * another portal is refused: callsync's records of what it created there belong to the first portal.
 */
export async function installHubSpotApp(
  store: VendorTokenStore,
  account: string,
  destination: { basePath: string; oauth: HubSpotOAuthConfig },
  code: string,
): Promise<string> {
  const tokens = await exchangeHubSpotCode(destination.basePath, destination.oauth, code);
  const key = hubspotInstallKey(account, destination.oauth.clientId);
  const hubId = tokens.details.hubId!;
  const before = await store.load(key);
  if (before?.details.hubId !== undefined && before.details.hubId !== hubId)
    throw new CrmError({
      destination: DESTINATION,
      code: 'OTHER_PORTAL',
      message: `account ${account} is connected to HubSpot portal ${before.details.hubId}, not ${hubId}: install the app into that portal`,
      retryable: false,
    });
  await store.save(key, tokens);
  return hubId;
}
