// Zoho's refresh token grant at the data centre's accounts server ({accounts}/oauth/v2/token,
// https://www.zoho.com/crm/developer/docs/api/v8/refresh.html): a new access token, valid one hour
// (`expires_in` 3600), for the refresh token of the admin's authorisation; refresh tokens do not rotate.
// Zoho may answer a refused grant with HTTP 200 and `{"error": "invalid_code"}`. Errors name Zoho's
// error code, never a token.
import { createHash } from 'node:crypto';
import { z } from 'zod';
import { CrmError } from '../crm/errors';
import type { RefreshGrant } from '../crm/renewing-token';
import type { VendorTokenKey } from '../crm/vendor-token-store';
import { DESTINATION } from './errors';

const grantSchema = z.looseObject({
  access_token: z.string().min(1),
  expires_in: z.number().int().positive(),
  api_domain: z.url().optional(),
});
const grantErrorSchema = z.looseObject({ error: z.string() });

/** The refresh grant against `tokenUrl` for this OAuth client. */
export function zohoRefreshGrant(
  tokenUrl: string,
  client: { clientId: string; clientSecret: string },
  fetchImpl: typeof fetch = fetch,
): RefreshGrant {
  return async (refreshToken) => {
    let res: Response;
    try {
      res = await fetchImpl(tokenUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
        body: new URLSearchParams({
          grant_type: 'refresh_token',
          client_id: client.clientId,
          client_secret: client.clientSecret,
          refresh_token: refreshToken,
        }),
        signal: AbortSignal.timeout(30_000),
      });
    } catch (err) {
      throw new CrmError({
        destination: DESTINATION,
        message: `Zoho accounts server unreachable (${err instanceof Error ? err.message : String(err)})`,
        retryable: true,
      });
    }
    const body: unknown = await res.json().catch(() => undefined);
    const ok = grantSchema.safeParse(body);
    if (res.ok && ok.success) {
      return {
        accessToken: ok.data.access_token,
        expiresAt: new Date(Date.now() + ok.data.expires_in * 1000),
      };
    }
    const refused = grantErrorSchema.safeParse(body);
    const retryable = res.status === 429 || res.status >= 500;
    throw new CrmError({
      destination: DESTINATION,
      status: retryable ? res.status : 401,
      code: refused.success ? refused.data.error : undefined,
      message: `Zoho refused the refresh token grant (${refused.success ? refused.data.error : `HTTP ${res.status}`})${
        retryable
          ? ''
          : ': check clientId, clientSecret and the data centre, or authorise again and set refreshToken'
      }`,
      retryable,
    });
  };
}

/** The token store key of a destination: its token endpoint, its client, and which authorisation seeded it. */
export function zohoTokenKey(tokenUrl: string, clientId: string, refreshToken: string): VendorTokenKey {
  // A new authorisation (a new refresh token in config) starts a new row; the digest names it unread.
  const seed = createHash('sha256').update(refreshToken).digest('hex').slice(0, 16);
  return { vendor: DESTINATION, identity: `${tokenUrl}#${clientId}#${seed}` };
}
