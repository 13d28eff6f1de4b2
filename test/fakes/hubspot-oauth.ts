// HubSpot's OAuth for the test server (hubspot-server.ts), as the v1 token API documents it:
// - GET /oauth/authorize: the consent page; this fake consents at once and redirects to redirect_uri
//   with a single-use `code` and the caller's `state`.
//   https://developers.hubspot.com/docs/api-reference/legacy/authentication/oauth-tokens/v1/guide
// - POST /oauth/v1/token, form-encoded: grant_type=authorization_code (client_id, client_secret,
//   redirect_uri as at authorize, code) or refresh_token (client_id, client_secret, refresh_token);
//   answers {access_token, refresh_token, expires_in, token_type: 'bearer'}; access tokens live
//   `accessTokenMs` (HubSpot: 1800 s). HubSpot keeps the refresh token; with `rotateRefreshTokens` a
//   refresh returns a new one and the old one is refused from then on (as rotating vendors do).
//   A refused refresh token: 400 {error: invalid_grant, error_description, status: BAD_REFRESH_TOKEN,
//   message} (https://developers.hubspot.com/changelog/new-oauth-v3-api-endpoints-and-standardized-error-responses).
//   https://developers.hubspot.com/docs/api-reference/legacy/authentication/oauth-tokens/v1/refresh-oauth-token
// - GET /oauth/v1/access-tokens/:token: the token's hub_id, app_id, scopes, expires_in.
//   https://developers.hubspot.com/docs/api-reference/legacy/authentication/oauth-tokens/v1/get-oauth-token-metadata
// - An API call with an expired access token: 401 {status: 'error', message: 'The OAuth token used to
//   make this call expired N minute(s) ago.', correlationId, category: EXPIRED_AUTHENTICATION}
//   (https://developers.hubspot.com/docs/api/error-handling; HubSpot changelog "Expiration of OAuth
//   access tokens is changing": expires_in is the token's lifetime, refresh on it or on that 401).
// Access tokens are not revoked by a refresh: each stays valid until its own expiry.
import { randomBytes, randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyReply } from 'fastify';

/** An OAuth app registered with the fake. */
export interface FakeHubSpotOAuthOptions {
  clientId: string;
  clientSecret: string;
  /** Access token lifetime in milliseconds (HubSpot: 1800 s; tests use seconds). */
  accessTokenMs?: number;
  /** A refresh returns a new refresh token and refuses the old one from then on. */
  rotateRefreshTokens?: boolean;
}

/** What the fake's OAuth did, for assertions. */
export interface FakeHubSpotOAuthCounters {
  codeGrants: number;
  refreshGrants: number;
  /** Token requests refused with invalid_grant (a reused or unknown refresh token or code). */
  invalidGrants: number;
  /** API calls refused with EXPIRED_AUTHENTICATION. */
  expiredCalls: number;
}

export interface FakeHubSpotOAuth {
  counters: FakeHubSpotOAuthCounters;
  /** 'ok' for a live access token, 'expired' (with how long ago) or 'unknown'. */
  check(token: string): { state: 'ok' } | { state: 'expired'; agoMs: number } | { state: 'unknown' };
  /** Every access and refresh token issued so far (to look for them where they must not be). */
  issued(): string[];
  /** Ends an access token's life now, as its lifetime running out would (tests need not wait for it). */
  expire(token: string): void;
}

const token = (prefix: string) => `${prefix}-${randomBytes(24).toString('base64url')}`;

function invalidGrant(reply: FastifyReply, description: string) {
  return reply.code(400).send({
    error: 'invalid_grant',
    error_description: description,
    status: 'BAD_REFRESH_TOKEN',
    message: description,
  });
}

/** Adds the OAuth endpoints to the fake's Fastify app; `portalId` is the hub the tokens belong to. */
export function registerHubSpotOAuth(
  app: FastifyInstance,
  portalId: number,
  opts: FakeHubSpotOAuthOptions,
): FakeHubSpotOAuth {
  const lifetime = opts.accessTokenMs ?? 1_800_000;
  const codes = new Map<string, { redirectUri: string; scopes: string[] }>();
  const access = new Map<string, { expiresAt: number; scopes: string[] }>();
  const refresh = new Map<string, { scopes: string[] }>();
  const counters: FakeHubSpotOAuthCounters = {
    codeGrants: 0,
    refreshGrants: 0,
    invalidGrants: 0,
    expiredCalls: 0,
  };

  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) =>
    done(null, Object.fromEntries(new URLSearchParams(body as string))),
  );

  const issue = (scopes: string[], refreshToken?: string) => {
    const accessToken = token('access');
    access.set(accessToken, { expiresAt: Date.now() + lifetime, scopes });
    const rt = refreshToken ?? token('refresh');
    refresh.set(rt, { scopes });
    return {
      access_token: accessToken,
      refresh_token: rt,
      expires_in: Math.max(1, Math.round(lifetime / 1000)),
      token_type: 'bearer',
    };
  };

  app.get('/oauth/authorize', async (req, reply) => {
    const q = req.query as Record<string, string | undefined>;
    if (q.client_id !== opts.clientId) return reply.code(400).send('Authorization failed: unknown client_id');
    if (!q.redirect_uri || !q.scope)
      return reply.code(400).send('Authorization failed: redirect_uri and scope are required');
    const code = token('code');
    codes.set(code, { redirectUri: q.redirect_uri, scopes: q.scope.split(/[ +]/).filter(Boolean) });
    const to = new URL(q.redirect_uri);
    to.searchParams.set('code', code);
    if (q.state !== undefined) to.searchParams.set('state', q.state);
    return reply.redirect(to.toString(), 302);
  });

  app.post('/oauth/v1/token', async (req, reply) => {
    const form = (req.body ?? {}) as Record<string, string | undefined>;
    if (!String(req.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded'))
      return reply.code(415).send({ status: 'error', message: 'form-encoded body required' });
    if (form.client_id !== opts.clientId || form.client_secret !== opts.clientSecret)
      return reply.code(400).send({
        error: 'invalid_client',
        error_description: 'missing or unknown client id or secret',
        status: 'BAD_CLIENT_ID',
        message: 'missing or unknown client id or secret',
      });
    if (form.grant_type === 'authorization_code') {
      const grant = form.code ? codes.get(form.code) : undefined;
      if (!grant || grant.redirectUri !== form.redirect_uri) {
        counters.invalidGrants++;
        return invalidGrant(reply, 'missing or invalid auth code, or redirect_uri does not match');
      }
      codes.delete(form.code!); // single use
      counters.codeGrants++;
      return issue(grant.scopes);
    }
    if (form.grant_type === 'refresh_token') {
      const grant = form.refresh_token ? refresh.get(form.refresh_token) : undefined;
      if (!grant) {
        counters.invalidGrants++;
        return invalidGrant(reply, 'refresh token is invalid, expired or revoked');
      }
      counters.refreshGrants++;
      if (opts.rotateRefreshTokens) {
        refresh.delete(form.refresh_token!);
        return issue(grant.scopes);
      }
      return issue(grant.scopes, form.refresh_token);
    }
    return reply.code(400).send({
      error: 'unsupported_grant_type',
      error_description: 'grant_type must be authorization_code or refresh_token',
      status: 'BAD_GRANT_TYPE',
      message: 'grant_type must be authorization_code or refresh_token',
    });
  });

  app.get('/oauth/v1/access-tokens/:token', async (req, reply) => {
    const t = (req.params as { token: string }).token;
    const info = access.get(t);
    if (!info || info.expiresAt <= Date.now())
      return reply
        .code(404)
        .send({ status: 'error', message: 'access token not found or expired', correlationId: randomUUID() });
    return {
      token: t,
      hub_id: portalId,
      app_id: 1_234_567,
      scopes: info.scopes,
      token_type: 'access',
      expires_in: Math.floor((info.expiresAt - Date.now()) / 1000),
    };
  });

  return {
    counters,
    check: (t) => {
      const info = access.get(t);
      if (!info) return { state: 'unknown' };
      const ago = Date.now() - info.expiresAt;
      return ago < 0 ? { state: 'ok' } : { state: 'expired', agoMs: ago };
    },
    issued: () => [...access.keys(), ...refresh.keys()],
    expire: (t) => {
      const info = access.get(t);
      if (info) info.expiresAt = Math.min(info.expiresAt, Date.now() - 1);
    },
  };
}

/** HubSpot's 401 for an expired OAuth access token. */
export function expiredAuthenticationBody(agoMs: number) {
  return {
    status: 'error',
    message: `The OAuth token used to make this call expired ${Math.floor(agoMs / 60_000)} minute(s) ago.`,
    correlationId: randomUUID(),
    category: 'EXPIRED_AUTHENTICATION',
  };
}
