// The fake Zendesk's OAuth: access tokens that expire, and the refresh token grant
// (POST /oauth/tokens, grant_type=refresh_token: https://developer.zendesk.com/api-reference/ticketing/oauth/grant_type_tokens/).
// "A successful request will also return a refresh token and delete the previous access and refresh
// tokens" (https://support.zendesk.com/hc/en-us/articles/9182123625370): a refresh token works once.
// expires_in is 300 to 172,800 seconds and refresh_token_expires_in 604,800 to 7,776,000
// (https://developer.zendesk.com/documentation/api-basics/authentication/refresh-token/).
import { randomBytes } from 'node:crypto';
import { ZendeskFakeError } from './zendesk-state';

export interface ZendeskOAuthSettings {
  clientId: string;
  clientSecret: string;
  /** Access token lifetime when the grant names none (seconds). */
  accessTokenSeconds: number;
  refreshTokenSeconds: number;
}

interface Issued {
  expiresAt: number;
}

const ACCESS = { min: 300, max: 172_800 };
const REFRESH = { min: 604_800, max: 7_776_000 };

function grantError(status: number, error: string, description: string): ZendeskFakeError {
  return new ZendeskFakeError(status, { error, error_description: description });
}

export class FakeZendeskOAuth {
  readonly settings: ZendeskOAuthSettings;
  private readonly access = new Map<string, Issued & { refresh: string }>();
  private readonly refresh = new Map<string, Issued & { access: string }>();
  /** Refresh grants answered (successful ones). */
  refreshes = 0;

  constructor(settings: Partial<ZendeskOAuthSettings> = {}) {
    this.settings = {
      clientId: 'callsync_zendesk',
      clientSecret: 'zd-client-secret',
      accessTokenSeconds: 1800,
      refreshTokenSeconds: 30 * 86_400,
      ...settings,
    };
  }

  /** A pair as the authorisation code grant gives it (an admin installed callsync). */
  authorize(
    accessSeconds = this.settings.accessTokenSeconds,
    refreshSeconds = this.settings.refreshTokenSeconds,
  ): { accessToken: string; refreshToken: string } {
    const accessToken = `zdat_${randomBytes(12).toString('hex')}`;
    const refreshToken = `zdrt_${randomBytes(12).toString('hex')}`;
    const now = Date.now();
    this.access.set(accessToken, { expiresAt: now + accessSeconds * 1000, refresh: refreshToken });
    this.refresh.set(refreshToken, { expiresAt: now + refreshSeconds * 1000, access: accessToken });
    return { accessToken, refreshToken };
  }

  /** Whether a Bearer token is one this server issued and it has not expired or been replaced. */
  valid(token: string): boolean {
    const t = this.access.get(token);
    return t !== undefined && t.expiresAt > Date.now();
  }

  /** Every access token issued so far stops working now. */
  expireAll(): void {
    for (const t of this.access.values()) t.expiresAt = 0;
  }

  /** POST /oauth/tokens. */
  grant(body: unknown): Record<string, unknown> {
    const b = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
    if (b.grant_type !== 'refresh_token')
      throw grantError(400, 'unsupported_grant_type', 'the fake models the refresh_token grant only');
    if (b.client_id !== this.settings.clientId || b.client_secret !== this.settings.clientSecret)
      throw grantError(401, 'invalid_client', 'Client authentication failed');
    const expiresIn = b.expires_in === undefined ? this.settings.accessTokenSeconds : Number(b.expires_in);
    if (!Number.isInteger(expiresIn) || expiresIn < ACCESS.min || expiresIn > ACCESS.max)
      throw grantError(400, 'invalid_request', `expires_in must be between ${ACCESS.min} and ${ACCESS.max}`);
    const refreshIn =
      b.refresh_token_expires_in === undefined
        ? this.settings.refreshTokenSeconds
        : Number(b.refresh_token_expires_in);
    if (!Number.isInteger(refreshIn) || refreshIn < REFRESH.min || refreshIn > REFRESH.max)
      throw grantError(
        400,
        'invalid_request',
        `refresh_token_expires_in must be between ${REFRESH.min} and ${REFRESH.max}`,
      );
    const old = typeof b.refresh_token === 'string' ? this.refresh.get(b.refresh_token) : undefined;
    if (!old || old.expiresAt <= Date.now())
      throw grantError(
        400,
        'invalid_grant',
        'The provided authorization grant is invalid, expired, or revoked',
      );
    // The previous pair is deleted.
    this.refresh.delete(b.refresh_token as string);
    this.access.delete(old.access);
    const pair = this.authorize(expiresIn, refreshIn);
    this.refreshes++;
    return {
      access_token: pair.accessToken,
      token_type: 'bearer',
      scope: 'read write',
      expires_in: expiresIn,
      refresh_token: pair.refreshToken,
      refresh_token_expires_in: refreshIn,
    };
  }
}
