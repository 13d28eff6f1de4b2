// Google's OAuth 2.0 token endpoint for service accounts, as the local Google models it, and the
// check of the bearer tokens its APIs receive. Rules, from "Using OAuth 2.0 for Server to Server
// Applications" (https://developers.google.com/identity/protocols/oauth2/service-account):
// - POST {token_uri}, form-encoded, grant_type=urn:ietf:params:oauth:grant-type:jwt-bearer and an
//   `assertion`: a JWT signed RS256 with the service account's private key ("Making the access
//   token request"), whose claim set has iss = the service account's e-mail, scope, aud = the token
//   endpoint (Google: "this value is always https://oauth2.googleapis.com/token"), iat, and exp at
//   most one hour after iat ("Forming the JWT claim set").
// - `sub` asks for the access of a user of the Workspace domain (domain-wide delegation, "Additional
//   claims"); Google grants it only when the domain's administrator authorised the service account
//   (https://support.google.com/a/answer/162106), otherwise `unauthorized_client`.
// - The answer is an opaque access token with `expires_in` (3600 at Google; tests set it shorter),
//   and errors are `{error, error_description}` ("JWT error codes").
// - Self-signed JWTs (the "Addendum: Service account authorization without OAuth") are accepted by
//   the APIs directly, but they carry no delegation: a self-signed JWT whose sub is not its iss is
//   refused rather than taken as the other user.
// - An expired or unknown access token gets the APIs' 401 UNAUTHENTICATED (auth.ts).
import { randomBytes, verify, type KeyObject } from 'node:crypto';
import { checkBearer, unauthenticated } from './auth';
import type { FakeResponse, GoogleIdentity } from './router';

/** Google's own token endpoint, the `aud` its documentation prescribes for every assertion. */
export const GOOGLE_TOKEN_URL = 'https://oauth2.googleapis.com/token';
const JWT_BEARER = 'urn:ietf:params:oauth:grant-type:jwt-bearer';

/** One successful token exchange, as tests read it. */
export interface TokenExchange {
  serviceAccount: string;
  sub: string | undefined;
  scope: string;
  at: number;
}

interface IssuedToken extends GoogleIdentity {
  expiresAt: number;
}

const oauthError = (status: number, error: string, description: string): FakeResponse => ({
  status,
  body: { error, error_description: description },
});

function decodePart(part: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
    return value && typeof value === 'object' ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** The token endpoint and the access tokens it issued. */
export class FakeGoogleOAuth {
  /** Lifetime of the access tokens issued from now on, in seconds (Google: 3600). */
  tokenLifetimeSeconds = 3600;
  /** Whether the domain's administrator authorised the service account for domain-wide delegation. */
  delegationAllowed = true;
  /** Every successful exchange, oldest first. */
  readonly exchanges: TokenExchange[] = [];
  private readonly issued = new Map<string, IssuedToken>();

  /**
   * @param serviceAccount the service account's e-mail, whose public key is `publicKey`
   * @param tokenUrl this server's token endpoint, accepted as `aud` beside Google's own
   */
  constructor(
    private readonly serviceAccount: string,
    private readonly publicKey: KeyObject,
    private readonly tokenUrl: () => string,
  ) {}

  /** Answers POST /token (a form-encoded body). */
  exchange(body: Buffer, contentType: string | undefined, now = Date.now()): FakeResponse {
    if (!contentType?.startsWith('application/x-www-form-urlencoded')) {
      return oauthError(
        400,
        'invalid_request',
        'Invalid content type; use application/x-www-form-urlencoded.',
      );
    }
    const form = new URLSearchParams(body.toString('utf8'));
    if (form.get('grant_type') !== JWT_BEARER) {
      return oauthError(
        400,
        'unsupported_grant_type',
        'Invalid grant_type: ' + (form.get('grant_type') ?? ''),
      );
    }
    const parts = (form.get('assertion') ?? '').split('.');
    const [head, payload, signature] = parts;
    const header = head ? decodePart(head) : undefined;
    const claims = payload ? decodePart(payload) : undefined;
    if (parts.length !== 3 || !header || !claims || !signature) {
      return oauthError(400, 'invalid_grant', 'Invalid JWT: the assertion is not a signed JWT.');
    }
    const signed =
      header.alg === 'RS256' &&
      verify(
        'RSA-SHA256',
        Buffer.from(`${head}.${payload}`),
        this.publicKey,
        Buffer.from(signature, 'base64url'),
      );
    if (!signed || claims.iss !== this.serviceAccount) {
      return oauthError(400, 'invalid_grant', 'Invalid JWT Signature.');
    }
    if (claims.aud !== GOOGLE_TOKEN_URL && claims.aud !== this.tokenUrl()) {
      return oauthError(400, 'invalid_grant', 'Invalid JWT: aud must be the token endpoint.');
    }
    const { iat, exp } = claims;
    const nowSeconds = now / 1000;
    if (
      typeof iat !== 'number' ||
      typeof exp !== 'number' ||
      exp - iat > 3600 ||
      exp <= nowSeconds ||
      iat > nowSeconds
    ) {
      return oauthError(
        400,
        'invalid_grant',
        'Invalid JWT: Token must be a short-lived token (60 minutes) and in a reasonable timeframe. Check your iat and exp values in the JWT claim.',
      );
    }
    const scope = typeof claims.scope === 'string' ? claims.scope : '';
    if (!scope) return oauthError(400, 'invalid_scope', 'Empty or missing scope not allowed.');
    const sub = typeof claims.sub === 'string' && claims.sub !== this.serviceAccount ? claims.sub : undefined;
    if (sub !== undefined) {
      if (!/^[^@\s]+@[^@\s]+$/.test(sub)) return oauthError(400, 'invalid_grant', 'Invalid email or User ID');
      if (!this.delegationAllowed) {
        return oauthError(
          401,
          'unauthorized_client',
          'Client is unauthorized to retrieve access tokens using this method, or client not authorized for any of the scopes requested.',
        );
      }
    }
    const token = `ya29.fake-${randomBytes(24).toString('base64url')}`;
    this.issued.set(token, {
      serviceAccount: this.serviceAccount,
      user: sub ?? this.serviceAccount,
      scope,
      expiresAt: now + this.tokenLifetimeSeconds * 1000,
    });
    this.exchanges.push({ serviceAccount: this.serviceAccount, sub, scope, at: now });
    return {
      status: 200,
      headers: { 'Cache-Control': 'no-cache, no-store, max-age=0, must-revalidate' },
      body: { access_token: token, expires_in: this.tokenLifetimeSeconds, token_type: 'Bearer', scope },
    };
  }

  /** Checks an API request's Authorization header; throws Google's 401 when it does not hold. */
  authenticate(header: string | undefined, now = Date.now()): GoogleIdentity {
    const token = header ? /^Bearer (\S+)$/.exec(header)?.[1] : undefined;
    const issued = token ? this.issued.get(token) : undefined;
    if (issued) {
      if (issued.expiresAt <= now) {
        throw unauthenticated(
          'Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential.',
        );
      }
      return { serviceAccount: issued.serviceAccount, user: issued.user, scope: issued.scope };
    }
    if (token?.startsWith('ya29.')) {
      throw unauthenticated('Request had invalid authentication credentials.');
    }
    const claims = checkBearer(header, this.publicKey, now);
    const iss = claims.iss ?? '';
    if (claims.sub !== undefined && claims.sub !== iss) {
      throw unauthenticated(
        'Request had invalid authentication credentials (a self-signed JWT cannot delegate).',
      );
    }
    return { serviceAccount: iss, user: iss, scope: claims.scope ?? '' };
  }

  /** Forgets every access token issued so far, as if each had been revoked. */
  revokeAll(): void {
    this.issued.clear();
  }
}
