// Salesforce's OAuth token endpoint (POST /services/oauth2/token) and the sessions it issues, as the
// local Salesforce (salesforce-server.ts) models them:
// - JWT bearer flow ("OAuth 2.0 JWT Bearer Flow for Server-to-Server Integration",
//   https://help.salesforce.com/s/articleView?id=sf.remoteaccess_oauth_jwt_flow.htm): an RS256 JWT
//   signed with the key of the connected app's certificate, iss = the app's consumer key (client id),
//   sub = the pre-approved user's username, aud = the login URL, exp at most 3 minutes ahead; the
//   answer has an access token and no refresh token.
// - Refresh token flow ("OAuth 2.0 Refresh Token Flow for Renewed Sessions",
//   https://help.salesforce.com/s/articleView?id=sf.remoteaccess_oauth_refresh_token_flow.htm):
//   grant_type=refresh_token with client_id (and client_secret when the app requires it). With refresh
//   token rotation on, "the connected app issues a new refresh token along with the access token each
//   time the flow is invoked. The previous refresh token is automatically invalidated": a used refresh
//   token gets 400 invalid_grant "expired access/refresh token".
// - Sessions last the connected app's session timeout (tests set it in milliseconds); Salesforce's
//   answer carries no expires_in, and an expired session gets the REST API's 401
//   `[{"message":"Session expired or invalid","errorCode":"INVALID_SESSION_ID"}]`
//   (https://developer.salesforce.com/docs/atlas.en-us.api_rest.meta/api_rest/errorcodes.htm).
import { randomBytes, verify, type KeyObject } from 'node:crypto';

/** The connected app and its policies, as a test sets them. */
export interface SalesforceOAuthSettings {
  /** The connected app's consumer key. */
  clientId: string;
  /** The consumer secret, required in refresh requests when set. */
  clientSecret?: string;
  /** Public key of the certificate uploaded to the connected app (JWT bearer flow). */
  jwtPublicKey?: KeyObject;
  /** The pre-approved user of the JWT bearer flow. */
  username: string;
  /** The session timeout, in milliseconds (Salesforce: 15 minutes to 24 hours; default 2 hours). */
  sessionLifetimeMs: number;
  /** Refresh token rotation (a used refresh token is invalidated). */
  rotateRefreshTokens: boolean;
}

/** One call of the token endpoint, without any token. */
export interface GrantRecord {
  grant: string;
  status: number;
  /** When it was answered (ms since the epoch). */
  at: number;
  error?: string;
}

interface Answer {
  status: number;
  body: Record<string, unknown>;
}

const refused = (status: number, error: string, description: string): Answer => ({
  status,
  body: { error, error_description: description },
});

function claimsOf(assertion: string, key: KeyObject | undefined): Record<string, unknown> | undefined {
  const [head, payload, signature] = assertion.split('.');
  if (!head || !payload || !signature || !key) return undefined;
  try {
    const header = JSON.parse(Buffer.from(head, 'base64url').toString('utf8')) as { alg?: unknown };
    const ok =
      header.alg === 'RS256' &&
      verify('RSA-SHA256', Buffer.from(`${head}.${payload}`), key, Buffer.from(signature, 'base64url'));
    return ok
      ? (JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

/** The token endpoint's state: live sessions, valid refresh tokens, and every grant asked for. */
export class FakeSalesforceOAuth {
  readonly settings: SalesforceOAuthSettings;
  readonly grants: GrantRecord[] = [];
  private readonly sessions = new Map<string, number>();
  private readonly refreshTokens = new Set<string>();

  constructor(
    settings: Partial<SalesforceOAuthSettings>,
    private readonly instanceUrl: () => string,
    private readonly now: () => number = () => Date.now(),
  ) {
    this.settings = {
      clientId: '3MVG9fake.consumer.key',
      username: 'integration@example.invalid',
      sessionLifetimeMs: 2 * 3600_000,
      rotateRefreshTokens: true,
      ...settings,
    };
  }

  /** A refresh token as the web server flow would have given it when an admin authorised callsync. */
  authorize(): string {
    const token = `5Aep861fake.${randomBytes(18).toString('base64url')}`;
    this.refreshTokens.add(token);
    return token;
  }

  /** Ends every session issued so far now, as the org's session timeout would (tests need not wait). */
  expireSessions(): void {
    for (const token of this.sessions.keys()) this.sessions.set(token, this.now() - 1);
  }

  /** Whether `authorization` carries a session that is live now. */
  liveSession(authorization: string | undefined): boolean {
    const token = authorization?.startsWith('Bearer ') ? authorization.slice(7) : undefined;
    const expiresAt = token ? this.sessions.get(token) : undefined;
    return expiresAt !== undefined && expiresAt > this.now();
  }

  /** Answers POST /services/oauth2/token with the form's fields. */
  token(form: Record<string, string | undefined>): Answer {
    const answer = this.grant(form);
    this.grants.push({
      grant: form.grant_type ?? '',
      status: answer.status,
      at: this.now(),
      ...(typeof answer.body.error === 'string' ? { error: answer.body.error } : {}),
    });
    return answer;
  }

  private grant(form: Record<string, string | undefined>): Answer {
    if (form.grant_type === 'urn:ietf:params:oauth:grant-type:jwt-bearer')
      return this.jwtBearer(form.assertion ?? '');
    if (form.grant_type === 'refresh_token') return this.refresh(form);
    return refused(400, 'unsupported_grant_type', 'grant type not supported');
  }

  private jwtBearer(assertion: string): Answer {
    const claims = claimsOf(assertion, this.settings.jwtPublicKey);
    if (!claims) return refused(400, 'invalid_grant', 'invalid assertion');
    if (claims.iss !== this.settings.clientId)
      return refused(400, 'invalid_client_id', 'client identifier invalid');
    if (claims.aud !== this.instanceUrl()) return refused(400, 'invalid_grant', 'audience is invalid');
    if (claims.sub !== this.settings.username) {
      return refused(400, 'invalid_grant', "user hasn't approved this consumer");
    }
    const nowSeconds = this.now() / 1000;
    // "exp: ... within 3 minutes" of the request, and not past.
    if (typeof claims.exp !== 'number' || claims.exp <= nowSeconds || claims.exp > nowSeconds + 180) {
      return refused(400, 'invalid_grant', 'expired authorization code');
    }
    return { status: 200, body: this.session() };
  }

  private refresh(form: Record<string, string | undefined>): Answer {
    if (form.client_id !== this.settings.clientId)
      return refused(400, 'invalid_client_id', 'client identifier invalid');
    if (this.settings.clientSecret !== undefined && form.client_secret !== this.settings.clientSecret) {
      return refused(400, 'invalid_client', 'invalid client credentials');
    }
    const used = form.refresh_token ?? '';
    if (!this.refreshTokens.has(used)) return refused(400, 'invalid_grant', 'expired access/refresh token');
    const body = this.session();
    if (this.settings.rotateRefreshTokens) {
      this.refreshTokens.delete(used);
      body.refresh_token = this.authorize();
    }
    return { status: 200, body };
  }

  private session(): Record<string, unknown> {
    const accessToken = `00Dfake!${randomBytes(24).toString('base64url')}`;
    const issuedAt = this.now();
    this.sessions.set(accessToken, issuedAt + this.settings.sessionLifetimeMs);
    return {
      access_token: accessToken,
      signature: randomBytes(32).toString('base64'),
      scope: 'api refresh_token',
      instance_url: this.instanceUrl(),
      id: `${this.instanceUrl()}/id/00Dfake/005fake`,
      token_type: 'Bearer',
      issued_at: String(issuedAt),
    };
  }
}
